"""What Tokaido's G checks share: the game's files by role (`_Where`), small readers, and the
`check` decorator that registers a check under the rule it reports (the package collects
every module's checks; they run in rule-code order)."""

from __future__ import annotations

import re
from typing import Any

from toolkit.content.checked import CheckedGame
from toolkit.content.game import Game, ValidFile
from toolkit.content.game_checks import GameChecks
from toolkit.games.tokaido.models import TokaidoRules

Path_ = tuple[str | int, ...]
ROMANIZED = re.compile(r"^[A-Z][a-z]+(?:[- ][A-Za-z][a-z]+)*$")

CHECKS_BY_RULE = GameChecks()
check = CHECKS_BY_RULE.check
"""Register a G check under the rule it reports (one check per rule)."""
registered = CHECKS_BY_RULE.registered
_REGISTERED = CHECKS_BY_RULE.by_code


class _Where(CheckedGame[TokaidoRules]):
    """The game's files by role, and diagnostics at paths inside them."""

    def __init__(self, game: Game) -> None:
        from toolkit.content.models.board import RoadBoard  # board models load on first use

        super().__init__(game, TokaidoRules)
        # deck models are built per plugin at run time (GamePlugin.deck_models): no static type
        self.decks: dict[str, ValidFile[Any]] = {
            getattr(f.model, "kind", ""): ValidFile(f.rel, f.doc, f.model)
            for f in game.decks
            if f.model is not None
        }
        roads = (ValidFile.of(f, RoadBoard) for f in game.boards)
        self.road = next((r for r in roads if r is not None), None)

    def deck(self, kind: str) -> ValidFile[Any] | None:
        return self.decks.get(kind)


def _sections(game: Game) -> dict[str, int]:
    deck = _Where(game).deck("panoramas")
    if deck is None:
        return {}
    found: dict[str, int] = {}
    for card in deck.model.cards:
        found[card.panorama] = max(found.get(card.panorama, 0), card.section)
    return found
