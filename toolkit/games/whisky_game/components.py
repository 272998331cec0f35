"""The Whisky Game's printed pieces that are not rules cards: distillery bottles, the hidden
lost-distillery bottles and the resource tokens.

They are decks like any other so that `playset build` prints them and the rulebook's
component list counts them; their counts are checked against the rules parameters and the
map (checks/components.py), so the box cannot hold a different game than the engine plays.
A bottle names its difficulty, not its points: the face prints `rules.bottle_values`, so
the number on the card is the number the engine scores.
"""

from typing import Annotated, Literal

from pydantic import Field

from toolkit.content.models import CardBase, Ref, Slug
from toolkit.games.whisky_game.models import Distillery, RegionRef, Resource

LostDistillery = Annotated[Slug, Ref("space", "lost_distillery")]
Difficulty = Literal["easy", "normal", "hard"]


class BottleCard(CardBase):
    """One bottle of a distillery, won by a right answer at that difficulty. Its name and
    region repeat the map's (the face prints them; G132 keeps them equal)."""

    distillery: Distillery
    region: RegionRef
    difficulty: Difficulty = Field(description="Its points are rules.bottle_values[difficulty].")


class LostBottleCard(CardBase):
    """A lost-distillery bottle: bought blind, kept face down, its value shown at the end."""

    distillery: LostDistillery
    value: int = Field(ge=0, le=100, description="Points at the end (one of rules.lost_values).")


class TokenCard(CardBase):
    """A resource token; `copies` is how many of this kind the bag holds (rules.bag)."""

    resource: Resource


CARD_MODELS: dict[str, type[CardBase]] = {
    "bottles": BottleCard,
    "lost_bottles": LostBottleCard,
    "tokens": TokenCard,
}
