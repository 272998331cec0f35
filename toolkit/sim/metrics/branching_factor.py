"""`branching_factor`: the mean number of choices at a decision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("branching_factor", "branching factor", "number", order=130)
def branching_factor(r: SimReport) -> tuple[Any, ...]:
    return r.branching_factor, None, None
