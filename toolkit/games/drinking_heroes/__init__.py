"""Drinking Heroes: a die against monster cards, with sips for failures."""

from toolkit.content.plugin import GamePlugin
from toolkit.games.drinking_heroes.bots import BraveBot, CarefulBot
from toolkit.games.drinking_heroes.checks import CHECKS
from toolkit.games.drinking_heroes.compile import compile_game
from toolkit.games.drinking_heroes.models import DrinkingRules, HeroCard, MonsterCard, SpellCard

PLUGIN = GamePlugin(
    "drinking-heroes",
    DrinkingRules,
    {"heroes": HeroCard, "monsters": MonsterCard, "spells": SpellCard},
    checks=CHECKS,
    engine=compile_game,
    bots={
        "greedy": lambda seat: CarefulBot(),
        "careful": lambda seat: CarefulBot(),
        "brave": lambda seat: BraveBot(),
    },
)
