"""The Whisky Game: a trivia tour of Scottish and Irish distilleries on a map graph."""

from typing import Any

from toolkit.content.models.deck import CardBase
from toolkit.content.plugin import GamePlugin
from toolkit.games.whisky_game.checks import CHECKS
from toolkit.games.whisky_game.components import CARD_MODELS as COMPONENT_MODELS
from toolkit.games.whisky_game.models import CharacterCard, SpecialCard, WhiskyRules

CARD_MODELS: dict[str, type[CardBase]] = {
    "characters": CharacterCard,
    "specials": SpecialCard,
    **COMPONENT_MODELS,
}
"""Card model per deck kind: the cards in play, then the printed components (bottles, lost
bottles, tokens: components.py)."""


def compile_game(game: Any) -> Any:
    """The engine, imported on the first simulation: validate and build never load it."""
    from toolkit.games.whisky_game.compile import compile_game as compile_

    return compile_(game)


def make_greedy(seat: int) -> Any:
    """The greedy bot (its module imported on first use, with the engine's)."""
    from toolkit.games.whisky_game.bots import make_greedy as make

    return make(seat)


def board_glyphs(font: Any) -> dict[str, Any]:
    """The map's glyphs (distillery, harbour…), imported when a board is drawn; `font` is
    the renderer's font lookup (style → reportlab name), handed in by the renderer."""
    from toolkit.games.whisky_game.board_glyphs import glyphs

    return glyphs(font)


PLUGIN = GamePlugin(
    "whisky-game",
    WhiskyRules,
    CARD_MODELS,
    checks=CHECKS,
    engine=compile_game,
    bots={"greedy": make_greedy},
    board_glyphs=board_glyphs,
)
