"""Drinking Heroes: a die against monster cards, with sips for failures."""

from typing import Any

from toolkit.content.plugin import GamePlugin
from toolkit.games.drinking_heroes.checks import CHECKS
from toolkit.games.drinking_heroes.models import DrinkingRules, HeroCard, MonsterCard, SpellCard


def compile_game(game: Any) -> Any:
    """The engine, imported on the first simulation: validate and build never load it."""
    from toolkit.games.drinking_heroes.compile import compile_game as compile_

    return compile_(game)


def _careful(seat: int) -> Any:
    from toolkit.games.drinking_heroes.bots import CarefulBot

    return CarefulBot()


def _brave(seat: int) -> Any:
    from toolkit.games.drinking_heroes.bots import BraveBot

    return BraveBot()


PLUGIN = GamePlugin(
    "drinking-heroes",
    DrinkingRules,
    {"heroes": HeroCard, "monsters": MonsterCard, "spells": SpellCard},
    checks=CHECKS,
    engine=compile_game,
    bots={
        "greedy": _careful,
        "careful": _careful,
        "brave": _brave,
    },
)
