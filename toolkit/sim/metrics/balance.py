"""`balance`: one minus the largest gap between seats' win rates."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.sim.metrics.base import headline

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import SimReport


@headline("balance", "balance (1 - largest gap)", "number", order=100)
def balance(r: SimReport) -> tuple[Any, ...] | None:
    return None if r.balance is None else (r.balance, None, None)
