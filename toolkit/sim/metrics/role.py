"""`role`: each role's win rate, tested against the fair share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.sim.metrics.base import MetricValue, family, win_value

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@family("role", "win rate per role", "role", order=150)
def role(r: SimReport) -> Iterator[MetricValue]:
    for row in r.roles_win:
        yield win_value(row, f"role.{row.role}", "role")
