"""Compile Drinking Heroes: its tables (toolkit.games.drinking_heroes.tables), and states dealt
from them (toolkit.games.drinking_heroes.state): the plugin's engine hook."""

from __future__ import annotations

import math
from typing import Any

from toolkit.api import GameSetup
from toolkit.content.game import Game
from toolkit.games.drinking_heroes.state import DrinkingState
from toolkit.games.drinking_heroes.tables import DrinkingTables


class CompiledDrinking(DrinkingTables):
    """The compiled game: its tables, and states dealt from them."""

    def new_state(self, setup: GameSetup, seed: int) -> Any:
        return DrinkingState.new(self, self.table(setup), seed)


def compile_game(game: Game) -> CompiledDrinking:
    """The plugin's engine hook: compile validated content once."""
    return CompiledDrinking(game)


def exact_kill_probability(p: float, tries: int) -> float:
    """P(kill within `tries`) at `p` per try (design 3.1), for tests and reports."""
    return 1.0 - math.pow(1.0 - p, tries)
