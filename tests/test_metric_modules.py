"""The built-in metrics: one module each in the `toolkit.sim.metrics` package, found by the
registry (no list to edit), each registering the one metric it is named after, in the order
every report lists them."""

from __future__ import annotations

from toolkit.registry import package_modules
from toolkit.sim.metrics import METRICS

ORDER = [
    "completion",
    "timeouts",
    "shared_or_no_winner",
    "team_win",
    "turns_mean",
    "turns_median",
    "turns_p95",
    "rounds_mean",
    "rounds_median",
    "balance",
    "first_player_advantage",
    "decision_share",
    "branching_factor",
    "seat",
    "role",
    "event",
    "figure",
    "card",
]
"""The order of the JSON reports' `metrics` and of the terminal table (reports stay
byte-identical)."""


def test_each_built_in_metric_is_its_own_module_in_report_order():
    metrics = METRICS.load()
    built_in = [key for key in metrics if METRICS.origin(key).startswith("toolkit.")]
    assert built_in == ORDER
    for key in built_in:
        assert METRICS.origin(key) == f"toolkit.sim.metrics.{key}"
    shared = {"toolkit.sim.metrics.base", "toolkit.sim.metrics.report"}
    modules = set(package_modules("toolkit.sim.metrics")) - shared
    assert modules == {f"toolkit.sim.metrics.{key}" for key in ORDER}
