"""T rules: translations checked against each other, the glossary and the card's data.

One module per concern; each declares its rules beside its check.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.checks import CheckFamily, register
from toolkit.checks.translation import glossary, parity, plurals, presence, typography
from toolkit.checks.translation.common import TextView, views
from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic

__all__ = ["TextView", "check", "views"]


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    yield from presence.check(game, facts)
    if game.manifest is None:
        return
    texts = views(game, facts)
    for module in (parity, typography, plurals):
        yield from module.check(texts)
    yield from glossary.check(game, texts)


register(CheckFamily("translation", "Every text in every language, consistently.", check))
