"""`turns_p95`: the 95th percentile of game length in turns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("turns_p95", "turns, 95th percentile", "number", order=70)
def turns_p95(r: SimReport) -> tuple[Any, ...]:
    return r.turns.p95, None, None
