"""`turns_median`: the median game length in turns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("turns_median", "turns, median", "number", order=60)
def turns_median(r: SimReport) -> tuple[Any, ...]:
    return r.turns.median, r.turns.median_lo, r.turns.median_hi
