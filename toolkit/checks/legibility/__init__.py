"""A rules (legibility): texts that are hard to read, colours that carry meaning but look
alike to colour-blind players or in a black-and-white print, and texts fitted below the
game's minimum size. Thresholds: game.yaml's `checks.legibility` (WCAG 2.2 AA by default)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.checks import CheckFamily, register, wanted
from toolkit.checks.legibility.rules import A_CONTRAST, A_GREY, A_SMALL, A_VISION
from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic

__all__ = ["A_CONTRAST", "A_GREY", "A_SMALL", "A_VISION", "check"]


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if not wanted(A_CONTRAST, A_VISION, A_GREY, A_SMALL):
        return  # every A rule warns: the validity gate has no use for them
    # imported here: a command that only passes the gate never loads them
    from toolkit.checks.legibility import faces, meaning, printed

    yield from faces.check(game)
    yield from meaning.check(game)
    yield from printed.check(game)


# after print fit: its faces' texts are those print fit measured (toolkit.render.textfit
# FitBudget.measured)
register(CheckFamily("legibility", "Texts that are hard to read, colours that mean.", check, 1.0))
