"""The Whisky Game: a trivia tour of Scottish and Irish distilleries on a map graph."""

from toolkit.content.plugin import GamePlugin
from toolkit.games.whisky_game.component_checks import COMPONENT_CHECKS
from toolkit.games.whisky_game.components import CARD_MODELS
from toolkit.games.whisky_game.models import CharacterCard, SpecialCard, WhiskyRules

PLUGIN = GamePlugin(
    "whisky-game",
    WhiskyRules,
    {"characters": CharacterCard, "specials": SpecialCard, **CARD_MODELS},
    checks=COMPONENT_CHECKS,
)
