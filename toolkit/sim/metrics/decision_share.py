"""`decision_share`: the share of moves with more than one choice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline, rate

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("decision_share", "decision share", "rate", order=120)
def decision_share(r: SimReport) -> tuple[Any, ...]:
    return rate(r.decision_share)
