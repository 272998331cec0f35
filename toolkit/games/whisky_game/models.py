"""The Whisky Game's typed content: rules parameters, character abilities, special cards.

Every number a card's text prints is a field of its effect, so the text says `+{amount}`
and the three languages cannot disagree (the French and Spanish sources did, on Alan
Winchester: +3 against triple).
"""

from typing import Annotated, Literal

from pydantic import Field

from toolkit.content.models import CardBase, Ref, Slug, StrictModel

Distillery = Annotated[Slug, Ref("space", "distillery")]
RegionRef = Annotated[Slug, Ref("region")]
Country = Literal["scotland", "ireland"]
Expansion = Literal["base", "extended"]
Resource = Literal["barley", "water", "yeast"]


class Skill(StrictModel):
    """Chance of a right answer per difficulty, for simulated players."""

    easy: float = Field(ge=0, le=1)
    normal: float = Field(ge=0, le=1)
    hard: float = Field(ge=0, le=1)


class WhiskyRules(StrictModel):
    die_sides: int = Field(ge=2, le=100)
    reroll_face: int = Field(ge=1, le=100, description="A roll of this face rolls again.")
    start_spaces: list[Annotated[Slug, Ref("space")]] = Field(min_length=1)
    bottle_values: dict[Literal["easy", "normal", "hard"], int] = Field(
        description="Bottle points won by difficulty.", examples=[{"easy": 1, "normal": 3}]
    )
    bottles_per_distillery: int = Field(ge=1, le=20)
    goal_regions: int = Field(ge=1, le=20)
    goal_points: int = Field(ge=1, le=1000)
    lost_cost: dict[Resource, int]
    lost_values: list[int] = Field(min_length=1, max_length=100)
    pub_in: int = Field(ge=1, le=20, description="Tokens handed in at a pub...")
    pub_out: int = Field(ge=1, le=20, description="...for this many of a chosen kind.")
    bag: dict[Resource, int] = Field(description="Tokens of each kind in the bag.")
    round_limit: int = Field(ge=1, le=100_000, description="Simulation cap (a timeout).")
    skill: dict[Slug, Skill] = Field(description="Answer skill presets for simulation.")


# --- character abilities -------------------------------------------------------------


class AddPoints(StrictModel):
    kind: Literal["add_points"]
    distillery: Distillery
    amount: int = Field(ge=1, le=100)


class MultiplyPoints(StrictModel):
    kind: Literal["multiply_points"]
    distillery: Distillery
    factor: int = Field(ge=2, le=10)


class RescueRoll(StrictModel):
    """When you don't know: roll; a face up to `max_face` wins the bottle anyway."""

    kind: Literal["rescue_roll"]
    max_face: int = Field(ge=1, le=100)


class NewQuestionRoll(StrictModel):
    """When you don't know: roll; an even face gives a new question of the same difficulty."""

    kind: Literal["new_question_roll"]
    parity: Literal["even", "odd"]
    per_turn: int = Field(ge=1, le=10)


class ExtraMoves(StrictModel):
    kind: Literal["extra_moves"]
    country: Country
    moves: int = Field(ge=2, le=10, description="Moves per turn there.")


class MoveBonus(StrictModel):
    kind: Literal["move_bonus"]
    country: Country
    amount: int = Field(ge=1, le=100)


class JumpAfterVisit(StrictModel):
    kind: Literal["jump_after_visit"]
    after: Distillery
    to: Distillery


class SpillBottle(StrictModel):
    kind: Literal["spill_bottle"]
    per_opponent: int = Field(ge=1, le=10, description="Uses against each opponent per game.")


class WildTokens(StrictModel):
    kind: Literal["wild_tokens"]


CharacterEffect = Annotated[
    AddPoints
    | MultiplyPoints
    | RescueRoll
    | NewQuestionRoll
    | ExtraMoves
    | MoveBonus
    | JumpAfterVisit
    | SpillBottle
    | WildTokens,
    Field(discriminator="kind"),
]


class CharacterCard(CardBase):
    expansion: Expansion = "base"
    effects: list[CharacterEffect] = Field(min_length=1)


# --- special cards ---------------------------------------------------------------------


class FiftyFifty(StrictModel):
    kind: Literal["fifty_fifty"]


class BonusBottle(StrictModel):
    kind: Literal["bonus_bottle"]
    points: int = Field(ge=1, le=20)


class WinAnyway(StrictModel):
    """A whisky writer: when you don't know, win the bottle; the card goes under the deck."""

    kind: Literal["win_anyway"]


class ReturnBottle(StrictModel):
    """Birthday: return one of your bottles (or an opponent's if you have none)."""

    kind: Literal["return_bottle"]
    count: int = Field(ge=1, le=10)


class TakeBackBottle(StrictModel):
    """Faker: an opponent's bottle goes back to its distillery."""

    kind: Literal["take_back_bottle"]
    count: int = Field(ge=1, le=10)


class MoveToRegion(StrictModel):
    kind: Literal["move_to_region"]
    region: RegionRef


class FlightTicket(StrictModel):
    kind: Literal["flight_ticket"]
    return_trip: bool


class RollPenalty(StrictModel):
    """Hangover: rolls minus `amount`, no move at or below `no_move_max`; `cure_face` ends it."""

    kind: Literal["roll_penalty"]
    amount: int = Field(ge=1, le=10)
    no_move_max: int = Field(ge=0, le=10)
    cure_face: int = Field(ge=1, le=100)


class MoveAdd(StrictModel):
    """Horse-drawn Carriage: +amount per move until you leave the country."""

    kind: Literal["move_add"]
    amount: int = Field(ge=1, le=20)


class MoveMultiply(StrictModel):
    """Truck: each move times factor until you leave the country."""

    kind: Literal["move_multiply"]
    factor: int = Field(ge=2, le=10)


class LoseTokens(StrictModel):
    """Leaking Barrel (self) or Warehouse Collapse (an opponent): lose tokens."""

    kind: Literal["lose_tokens"]
    amount: int = Field(ge=1, le=100)
    target: Literal["self", "opponent"]


class RevealLost(StrictModel):
    kind: Literal["reveal_lost"]


class FixedMove(StrictModel):
    """Luck of the Irish: move exactly `steps`; the card then leaves the game."""

    kind: Literal["fixed_move"]
    steps: int = Field(ge=1, le=100)


class Prohibition(StrictModel):
    kind: Literal["prohibition"]
    rolls: int = Field(ge=1, le=10, description="Tries per turn to roll the cure face.")
    cure_face: int = Field(ge=1, le=100)


class CallBottle(StrictModel):
    """Robbie MacPherson: a right answer takes a bottle of that value from any distillery."""

    kind: Literal["call_bottle"]


class SkipTurns(StrictModel):
    kind: Literal["skip_turns"]
    turns: int = Field(ge=1, le=10)
    target: Literal["self", "opponent"]
    send_to: Distillery | None = None


class MultiplyTokens(StrictModel):
    kind: Literal["multiply_tokens"]
    factor: int = Field(ge=2, le=10)


class DowngradeBottle(StrictModel):
    """Angels: an opponent's bottle worth one of `values` becomes that distillery's `to`."""

    kind: Literal["downgrade_bottle"]
    values: list[int] = Field(min_length=1)
    to: int = Field(ge=0, le=100)


class UpgradeBottle(StrictModel):
    """Gordon & MacPhail: your bottle worth `value` becomes one of `to` from that distillery."""

    kind: Literal["upgrade_bottle"]
    value: int = Field(ge=0, le=100)
    to: list[int] = Field(min_length=1)


class DiscardBottles(StrictModel):
    """Broken Cork (an opponent discards one) or The Pattison's Crash (you discard two)."""

    kind: Literal["discard_bottles"]
    count: int = Field(ge=1, le=10)
    target: Literal["self", "opponent"]


class TakeRegionBottle(StrictModel):
    kind: Literal["take_region_bottle"]
    region: RegionRef


SpecialEffect = Annotated[
    FiftyFifty
    | BonusBottle
    | WinAnyway
    | ReturnBottle
    | TakeBackBottle
    | MoveToRegion
    | FlightTicket
    | RollPenalty
    | MoveAdd
    | MoveMultiply
    | LoseTokens
    | RevealLost
    | FixedMove
    | Prohibition
    | CallBottle
    | SkipTurns
    | MultiplyTokens
    | DowngradeBottle
    | UpgradeBottle
    | DiscardBottles
    | TakeRegionBottle,
    Field(discriminator="kind"),
]


class SpecialCard(CardBase):
    expansion: Expansion = "base"
    timing: Literal["draw", "hold"] = Field(
        description="draw: resolves when drawn; hold: kept hidden, played in your own turn."
    )
    stays: bool = Field(default=False, description="Stays in front of the player once drawn.")
    effect: SpecialEffect
