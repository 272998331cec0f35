"""Drinking Heroes: a die against monster cards, with sips for failures."""

from toolkit.content.plugin import GamePlugin
from toolkit.games.drinking_heroes.models import DrinkingRules, HeroCard

PLUGIN = GamePlugin("drinking-heroes", DrinkingRules, {"heroes": HeroCard})
