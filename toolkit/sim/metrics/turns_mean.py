"""`turns_mean`: the mean game length in turns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("turns_mean", "turns, mean", "number", order=50)
def turns_mean(r: SimReport) -> tuple[Any, ...]:
    return r.turns.mean, r.turns.mean_lo, r.turns.mean_hi
