"""`seat`: each seat's win rate, tested against the fair share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.sim.metrics.base import MetricValue, family, win_value

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@family("seat", "win rate per seat", "seat", order=140)
def seat(r: SimReport) -> Iterator[MetricValue]:
    for row in r.seats_win:
        yield win_value(row, f"seat.{row.seat}", "seat")
