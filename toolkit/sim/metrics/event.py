"""`event`: how often each event the engine counts happens per game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.sim.metrics.base import MetricValue, family, figure_value

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@family("event", "events per game (mean)", "event", order=160)
def event(r: SimReport) -> Iterator[MetricValue]:
    for f in r.events:
        yield figure_value(f, "event")
