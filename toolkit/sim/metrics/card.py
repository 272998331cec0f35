"""`card`: how often each card is played per game; a card never played is dead."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.sim.metrics.base import MetricValue, family

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@family("card", "plays per game per card", "card", order=180)
def card(r: SimReport) -> Iterator[MetricValue]:
    for c in r.cards:
        yield MetricValue(
            f"card.{c.card}", c.card, "card", "count", c.plays_per_game, flag=c.dead, n=r.games
        )
