"""Muckle Stoater: a card-driven marble race on a loop of wooden Mashies."""

from toolkit.content.plugin import GamePlugin
from toolkit.games.muckle_stoater.models import MuckleRules, PackCard

PLUGIN = GamePlugin("muckle-stoater", MuckleRules, {"pack": PackCard})
