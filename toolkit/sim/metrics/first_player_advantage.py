"""`first_player_advantage`: the first mover's win rate minus the fair share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline, rate

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("first_player_advantage", "first-player advantage", "number", order=110)
def first_player_advantage(r: SimReport) -> tuple[Any, ...] | None:
    return rate(r.first_player_advantage) if r.first_player_advantage else None
