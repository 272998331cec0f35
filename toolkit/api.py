"""Playset's public engine API: everything a game's engine imports, and nothing else.

A game engine (a game folder's `engine.py`, an installed plugin, or a bundled game under
`toolkit/games/`) imports from this module only; what lies behind it may move. See
docs/engines.md for a tutorial.

- The engine contract: `CompiledGame` (built once from content, makes states), `State` (one
  game: `legal_actions`, `apply`, `is_terminal`, `returns`, `clone`, optional `score_values`,
  `figures`, `invariant_errors`, `score_estimate`), `GameSetup`, `TERMINAL`, `CHANCE`.
- Bots: the `Bot` protocol and the generic `RandomBot`, `MctsBot` and `GreedyBot` (the last
  plays any engine whose State has `score_estimate(seat) -> float`).
- The content view an engine compiles from: `GameContent` (cards with their fields, copies
  and params; rules values; boards; questions; the players range; options), `Card`, `Deck`,
  and `load_content(folder)` to build it from a game folder (to try an engine from Python).
"""

from __future__ import annotations

from toolkit.sim.bots import Bot, GreedyBot, MctsBot, RandomBot
from toolkit.sim.content_view import (
    Card,
    ContentError,
    Deck,
    GameContent,
    OptionInfo,
    load_content,
)
from toolkit.sim.engine import CHANCE, TERMINAL, CompiledGame, GameSetup, State

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Bot",
    "Card",
    "CompiledGame",
    "ContentError",
    "Deck",
    "GameContent",
    "GameSetup",
    "GreedyBot",
    "MctsBot",
    "OptionInfo",
    "RandomBot",
    "State",
    "load_content",
]
