"""`rounds_median`: the median game length in rounds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("rounds_median", "rounds, median", "number", order=90)
def rounds_median(r: SimReport) -> tuple[Any, ...]:
    return r.rounds.median, r.rounds.median_lo, r.rounds.median_hi
