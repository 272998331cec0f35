"""How much card layout rendering one check may do in a game run (probe 21 H6).

A layout's templates are bounded on one card face (toolkit.render.template_bounds `LAYOUT`:
2,000 loop iterations, 10,000 steps, 200,000 characters built), but a layout renders once per
card and language: a text just under those limits costs up to ~0.1 s a face, so a deck of
1,000 cards in 3 languages took minutes of `validate`. A check's `LayoutBudget` sums what its
faces cost, as the per-face limits count it (`template_bounds.Budget.work`: steps, and an
eighth of what they build), and once it is spent refuses the next face (`LayoutSpent`): the
print-fit check says once where it stopped (P003), and nothing past it is rendered.

It is counted as a check's fitting budget is (toolkit.render.textfit.FitBudget, which holds
one): a face asked while `spent` is under the limit is resolved (or read back) and counted
whole, what it cost kept with it in the game's print memo and in the validate cache's face
unit, so `spent` is the same with the cache as without; a unit of a check's results keeps
what its faces counted and is read back only when that stays under the limit
(toolkit.checks.card_units.budgeted).
"""

from __future__ import annotations

from typing import Any

LAYOUT_BUDGET = 200_000
"""Work (`template_bounds.Budget.work`, and each element a face prints:
toolkit.render.face_units.printed_units) a check's card faces may cost in one game run. The
bundled games' faces cost at most ~56,000 in all (the largest: 1,185 faces resolved), so this
is 3.5 times the largest. The costliest work measured took 7-10 µs a unit (a face of 1,400
short templated texts; 5,000 boxes), so this is about 1.4-2 s of CPU at most (probe 47 K6:
500,000 units when a text counted 1, 10.6 s). It was 400,000 (3-4 s) until one game of
under 1 MB was seen to spend every surface's budget at once (budget59, ~9 s), then 300,000
(budget60: such a game still took ~4 s of validate). Each check
that resolves faces has its own (print fit, legibility), but a face resolved once is kept
for the run: only faces that fail are rendered again."""


class LayoutSpent(ValueError):
    """A face asked once the check's layout budget is spent: not rendered."""


class LayoutBudget:
    """What one check's card faces may cost in a game run (the module docstring)."""

    __slots__ = ("limit", "once", "refusals", "spent", "stopped")

    def __init__(self, limit: int | None = None, once: bool = False) -> None:
        self.limit = LAYOUT_BUDGET if limit is None else limit
        self.once = once
        """Whether a face already resolved for this budget's game costs nothing when asked
        again (the preview's, which draws a face again when a group of them fails); a
        check's counts it whole each time, so that it spends the same with the cache."""
        self.spent = 0
        self.refusals = 0
        self.stopped: Any = None
        """Where the check met the first face refused, as it records it (print fit: the
        layout's name, the layout, the card and the job), to say where it stopped."""

    def allows(self) -> bool:
        """Whether a face asked now is resolved (counted as refused if not)."""
        if self.spent >= self.limit:
            self.refusals += 1
            return False
        return True

    def refused(self, layout: Any) -> LayoutSpent:
        """The error a refused face raises."""
        return LayoutSpent(
            f"layout {getattr(layout, 'id', '?')!r} is not rendered: the check's layout"
            f" budget ({self.limit:,}) is spent"
        )

    def affords(self, work: int) -> bool:
        """Whether faces costing `work` in all would all be resolved from here."""
        return self.spent + work < self.limit
