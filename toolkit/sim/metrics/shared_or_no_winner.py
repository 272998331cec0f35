"""`shared_or_no_winner`: finished games with a shared win or none (not in co-operative play)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline, rate

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("shared_or_no_winner", "shared win / no winner", "rate", order=30)
def shared_or_no_winner(r: SimReport) -> tuple[Any, ...] | None:
    return None if r.coop else rate(r.shared_or_no_winner)
