"""`rounds_mean`: the mean game length in rounds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("rounds_mean", "rounds, mean", "number", order=80)
def rounds_mean(r: SimReport) -> tuple[Any, ...]:
    return r.rounds.mean, r.rounds.mean_lo, r.rounds.mean_hi
