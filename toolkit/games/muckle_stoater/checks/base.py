"""What Muckle Stoater's G checks share: the game's three files (`_Where`), the player
counts, and the `check` decorator that registers a check under the rule it reports (the
package collects every module's checks; they run in rule-code order)."""

from __future__ import annotations

from typing import Any

from toolkit.content.checked import CheckedGame
from toolkit.content.game import Game, ValidFile
from toolkit.content.game_checks import GameChecks
from toolkit.games.muckle_stoater.models import MuckleRules

JOKER = "JOKER"


class _Where(CheckedGame[MuckleRules]):
    """The game's three files, and diagnostics at paths inside them."""

    def __init__(self, game: Game) -> None:
        from toolkit.content.models.board import TrackBoard  # board models load on first use

        super().__init__(game, MuckleRules)
        # deck models are built per plugin at run time (GamePlugin.deck_models): no static type
        self.deck: ValidFile[Any] | None = next(
            (
                ValidFile(f.rel, f.doc, f.model)
                for f in game.decks
                if getattr(f.model, "kind", "") == "pack"
            ),
            None,
        )
        boards = (ValidFile.of(f, TrackBoard) for f in game.boards)
        self.board = next((b for b in boards if b is not None), None)


def _counts(where: _Where) -> range:
    players = where.manifest.model.players
    return range(players.min, players.max + 1)


CHECKS_BY_RULE = GameChecks()
check = CHECKS_BY_RULE.check
"""Register a G check under the rules it reports (one check per rule)."""
