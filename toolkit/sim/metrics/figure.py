"""`figure`: the game's own per-game figures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.sim.metrics.base import MetricValue, family, figure_value

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@family("figure", "the game's own figures (mean)", "figure", order=170)
def figure(r: SimReport) -> Iterator[MetricValue]:
    for f in r.figures:
        yield figure_value(f, "figure")
