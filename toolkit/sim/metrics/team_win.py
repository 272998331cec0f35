"""`team_win`: how often the table wins together (co-operative play only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline, rate

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("team_win", "co-operative win", "rate", order=40)
def team_win(r: SimReport) -> tuple[Any, ...] | None:
    return rate(r.team_win) if r.team_win else None
