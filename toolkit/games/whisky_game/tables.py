"""The compiled Whisky Game as states read it (toolkit.games.whisky_game.compile adds the
states themselves, so states never import compile)."""

from __future__ import annotations

from toolkit.api import CompiledGame, GameSetup
from toolkit.games.whisky_game.constants import EVENT_NAMES, Content


class WhiskyTables(CompiledGame):
    """The compiled game's data, what states read: the content, and the move paths cached
    per start (WhiskyGame adds the states themselves)."""

    event_names = EVENT_NAMES

    def __init__(self, content: Content) -> None:
        self.content = content
        self.game_id = content.game_id
        self.min_players = content.min_players
        self.max_players = content.max_players
        self.card_names = tuple(s.name for s in content.specials)
        # every decision of a turn is a move; a turn has at most a few dozen of them
        self.max_turns = content.round_limit * content.max_players * 64
        self._paths: dict[int, tuple[tuple[int, int, int], ...]] = {}

    def cards_in_play(self, setup: GameSetup) -> tuple[bool, ...]:
        """Extended-set cards are in play only with the `extended` option."""
        extended = bool(setup.options.get("extended", False))
        return tuple(extended or not s.extended for s in self.content.specials)
