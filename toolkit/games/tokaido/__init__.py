"""Tokaido: a journey along the East Sea Road from Kyoto to Edo."""

from typing import Any

from toolkit.content.plugin import GamePlugin
from toolkit.games.tokaido.checks import CHECKS
from toolkit.games.tokaido.models import (
    AchievementCard,
    EncounterCard,
    HotSpringCard,
    MealCard,
    PanoramaCard,
    SouvenirCard,
    TokaidoRules,
    TravellerCard,
)


def compile_game(game: Any) -> Any:
    """The engine, imported on the first simulation: validate and build never load it."""
    from toolkit.games.tokaido.compile import compile_game as compile_

    return compile_(game)


def _greedy(seat: int) -> Any:
    from toolkit.games.tokaido.bots import GreedyBot

    return GreedyBot()


PLUGIN = GamePlugin(
    "tokaido",
    TokaidoRules,
    {
        "travellers": TravellerCard,
        "panoramas": PanoramaCard,
        "hot_springs": HotSpringCard,
        "encounters": EncounterCard,
        "souvenirs": SouvenirCard,
        "meals": MealCard,
        "achievements": AchievementCard,
    },
    checks=CHECKS,
    engine=compile_game,
    bots={"greedy": _greedy},
)
