"""Muckle Stoater: a card-driven marble race on a loop of wooden Mashies."""

from typing import Any

from toolkit.content.plugin import GamePlugin
from toolkit.games.muckle_stoater.checks import CHECKS
from toolkit.games.muckle_stoater.models import MuckleRules, PackCard


def compile_game(game: Any) -> Any:
    """The engine, imported on the first simulation: validate and build never load it."""
    from toolkit.games.muckle_stoater.compile import compile_game as compile_

    return compile_(game)


def _greedy(seat: int) -> Any:
    from toolkit.games.muckle_stoater.bots import GreedyBot

    return GreedyBot()


PLUGIN = GamePlugin(
    "muckle-stoater",
    MuckleRules,
    {"pack": PackCard},
    checks=CHECKS,
    engine=compile_game,
    bots={"greedy": _greedy},
)
