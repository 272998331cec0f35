"""`timeouts`: the share of games stopped at the turn cap, a finding above TIMEOUT_LIMIT."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline, rate

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport

TIMEOUT_LIMIT = 0.01  # more than 1% of games at the turn cap is a finding


@headline("timeouts", "timeouts (turn cap)", "rate", order=20)
def timeouts(r: SimReport) -> tuple[Any, ...]:
    return (*rate(r.timeouts), r.timeouts.p > TIMEOUT_LIMIT)
