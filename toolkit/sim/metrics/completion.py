"""`completion`: the share of games that ended before the turn cap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline, rate

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("completion", "completed", "rate", order=10)
def completion(r: SimReport) -> tuple[Any, ...]:
    return rate(r.completion)
