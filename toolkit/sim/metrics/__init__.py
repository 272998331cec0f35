"""The typed simulation report and the one list of metrics every output iterates.

`SimReport` (report.py) is frozen data: rates carry their 95% Wilson interval, per-game
quantities a `Summary` with intervals for mean and median. `METRICS` (base.py) is the
registry: one module per metric (or per family of metrics: a value per seat, role, event,
game figure, card) in this package, found by listing it, and any package outside the toolkit
naming one in the `playset.metrics` entry point group. The terminal table, the JSON, the
PDF, the B diagnostics, sweeps and tuning all call `iter_metrics()`, so a new metric is one
module.
"""

from __future__ import annotations

from toolkit.sim.metrics.base import METRICS, Metric, MetricValue, iter_metrics, metric_keys
from toolkit.sim.metrics.report import (
    ALPHA,
    SCHEMA_VERSION,
    CardRow,
    Figure,
    Notable,
    SimReport,
    WinRow,
    build_report,
    report_from,
)

__all__ = [
    "ALPHA",
    "METRICS",
    "SCHEMA_VERSION",
    "CardRow",
    "Figure",
    "Metric",
    "MetricValue",
    "Notable",
    "SimReport",
    "WinRow",
    "build_report",
    "iter_metrics",
    "metric_keys",
    "report_from",
]
