"""The Whisky Game: a trivia tour of Scottish and Irish distilleries on a map graph."""

from toolkit.content.plugin import GamePlugin
from toolkit.games.whisky_game.bots import make_greedy
from toolkit.games.whisky_game.checks import CHECKS
from toolkit.games.whisky_game.compile import compile_game
from toolkit.games.whisky_game.models import CharacterCard, SpecialCard, WhiskyRules

CARD_MODELS = {"characters": CharacterCard, "specials": SpecialCard}
"""Card model per deck kind: add a kind here (bottle decks live in components.py)."""

PLUGIN = GamePlugin(
    "whisky-game",
    WhiskyRules,
    CARD_MODELS,
    checks=CHECKS,
    engine=compile_game,
    bots={"greedy": make_greedy},
)
