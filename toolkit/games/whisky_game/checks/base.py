"""What The Whisky Game's G checks share: the game's files (`_Where`) and the `check`
decorator that registers a check under the rule it reports (the package collects every
module's checks; they run in rule-code order)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolkit.content.checked import CheckedGame
from toolkit.content.game import Game, ValidFile
from toolkit.content.game_checks import GameChecks
from toolkit.games.whisky_game.models import WhiskyRules

if TYPE_CHECKING:
    from toolkit.content.models.board import GraphSpace


Path = tuple[str | int, ...]


class _Where(CheckedGame[WhiskyRules]):
    """The game's files, and diagnostics at paths inside them."""

    def __init__(self, game: Game) -> None:
        from toolkit.content.models.board import GraphBoard  # board models load on first use

        super().__init__(game, WhiskyRules)
        boards = (ValidFile.of(f, GraphBoard) for f in game.boards)
        self.board = next((b for b in boards if b is not None), None)
        # deck models are built per plugin at run time (GamePlugin.deck_models): no static type
        self.decks: dict[str, ValidFile[Any]] = {
            getattr(f.model, "kind", ""): ValidFile(f.rel, f.doc, f.model)
            for f in game.decks
            if f.model is not None
        }

    def spaces(self) -> dict[str, GraphSpace]:
        return {s.id: s for s in self.board.model.spaces} if self.board else {}

    def space_index(self) -> dict[str, int]:
        return {s.id: i for i, s in enumerate(self.board.model.spaces)} if self.board else {}


CHECKS_BY_RULE = GameChecks()
check = CHECKS_BY_RULE.check
"""Register a G check under the rules it reports (one check per rule)."""
