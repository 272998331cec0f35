"""Tokaido: a journey along the East Sea Road from Kyoto to Edo."""

from toolkit.content.plugin import GamePlugin
from toolkit.games.tokaido.bots import GreedyBot
from toolkit.games.tokaido.checks import CHECKS
from toolkit.games.tokaido.compile import compile_game
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
    bots={"greedy": lambda seat: GreedyBot()},
)
