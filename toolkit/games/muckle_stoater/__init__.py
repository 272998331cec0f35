"""Muckle Stoater: a card-driven marble race on a loop of wooden Mashies."""

from toolkit.content.plugin import GamePlugin
from toolkit.games.muckle_stoater.bots import GreedyBot
from toolkit.games.muckle_stoater.checks import CHECKS
from toolkit.games.muckle_stoater.compile import compile_game
from toolkit.games.muckle_stoater.models import MuckleRules, PackCard

PLUGIN = GamePlugin(
    "muckle-stoater",
    MuckleRules,
    {"pack": PackCard},
    checks=CHECKS,
    engine=compile_game,
    bots={"greedy": lambda seat: GreedyBot()},
)
