"""Drinking Heroes' typed content: rules parameters, heroes, monsters and spells."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from toolkit.content.models import CardBase, Declares, LocalizedText, Ref, Slug, StrictModel


class MonsterType(StrictModel):
    id: Annotated[Slug, Declares("monster-type")]
    name: LocalizedText


class DrinkingRules(StrictModel):
    die_sides: int = Field(ge=2, le=100)
    monster_types: list[MonsterType] = Field(min_length=1, max_length=12)
    spells_per_seat: int = Field(ge=0, le=20, description="Spells dealt to each seat.")
    spells_per_kill: int = Field(ge=0, le=5)
    solo_max_players: int = Field(ge=1, le=100, description="Above this, play in teams.")
    team_sizes: list[int] = Field(min_length=1, description="Allowed team sizes.")
    max_teams: int = Field(ge=1, le=100)
    always_kill_face: int = Field(ge=1, le=100, description="A natural roll that always kills.")
    always_fail_face: int = Field(ge=1, le=100, description="A natural roll that always fails.")
    non_drinker_max_tries: int = Field(ge=1, le=20)
    coop_extra_tries: int = Field(ge=0, le=10)


class HeroCard(CardBase):
    """A hero: the same name everywhere, a localized title, bonuses against monster types."""

    title: LocalizedText
    bonuses: dict[Annotated[Slug, Ref("monster-type")], Annotated[int, Field(ge=1, le=5)]] = Field(
        description="Bonus added to rolls against each monster type.",
        examples=[{"fire": 2}],
    )


class MonsterCard(CardBase):
    """A monster: its level is its points; `sips` maps each failing natural face to sips."""

    level: int = Field(ge=1, le=6, description="Level, also the points a kill scores.")
    type: Annotated[Slug, Ref("monster-type")] = Field(description="The monster's type.")
    kill_target: int = Field(ge=1, le=100, description='Printed "Kill N+": total needed.')
    max_tries: int = Field(ge=1, le=20, description="Rolls a seat may make against it.")
    sips: dict[Annotated[int, Field(ge=1, le=100)], Annotated[int, Field(ge=0, le=50)]] = Field(
        description="Sips drunk after a failed try, by the natural face rolled.",
        examples=[{1: 3, 2: 2, 3: 1, 4: 1, 5: 1}],
    )
    flavour: LocalizedText | None = Field(default=None, description="A short flavour line.")


# --- spell effects (one registry entry per kind; params typed and bounded) ------------------


class LowerTarget(StrictModel):
    """The current monster's kill target drops by `amount` for this combat."""

    kind: Literal["lower_target"]
    amount: int = Field(ge=1, le=5)


class SetType(StrictModel):
    """The current monster counts as a type the player chooses, for this combat."""

    kind: Literal["set_type"]


class ExtraTry(StrictModel):
    """The current combat allows `amount` more tries."""

    kind: Literal["extra_try"]
    amount: int = Field(ge=1, le=5)


class Banish(StrictModel):
    """The current monster goes under the deck and the next one is drawn (no second spell)."""

    kind: Literal["banish"]


class DoublePoints(StrictModel):
    """If the current monster is killed in this combat it scores `factor` × its level."""

    kind: Literal["double_points"]
    factor: int = Field(ge=2, le=5)


class RollBonus(StrictModel):
    """`amount` added to every roll of this combat against monsters of `vs_type`."""

    kind: Literal["roll_bonus"]
    amount: int = Field(ge=1, le=5)
    vs_type: Annotated[Slug, Ref("monster-type")]


class Reroll(StrictModel):
    """Up to `count` failed dice of this combat are rolled again before their sips."""

    kind: Literal["reroll"]
    count: int = Field(ge=1, le=5)


class Shield(StrictModel):
    """The sips of the first `events` failed tries of this combat are cancelled."""

    kind: Literal["shield"]
    events: int = Field(ge=1, le=5)


class Curse(StrictModel):
    """Another seat's rolls get `roll_modifier` until the end of its next turn."""

    kind: Literal["curse"]
    roll_modifier: int = Field(ge=-5, le=-1)


class GiveSips(StrictModel):
    """Another drinking seat drinks `amount` sips (or refuses them by sacrifice)."""

    kind: Literal["give_sips"]
    amount: int = Field(ge=1, le=10)


class GiveSipsAll(StrictModel):
    """Every other drinking seat drinks `amount` sips (or refuses them by sacrifice)."""

    kind: Literal["give_sips_all"]
    amount: int = Field(ge=1, le=10)


class StealMonster(StrictModel):
    """Take one monster of level ≤ `max_level` from another seat (the player's pick)."""

    kind: Literal["steal_monster"]
    max_level: int = Field(ge=1, le=6)


class StealSpell(StrictModel):
    """Take `count` spells at random from another seat's hand."""

    kind: Literal["steal_spell"]
    count: int = Field(ge=1, le=5)
    pick: Literal["random"] = "random"


SpellEffect = Annotated[
    LowerTarget
    | SetType
    | ExtraTry
    | Banish
    | DoublePoints
    | RollBonus
    | Reroll
    | Shield
    | Curse
    | GiveSips
    | GiveSipsAll
    | StealMonster
    | StealSpell,
    Field(discriminator="kind"),
]

SpellTarget = Literal["monster", "self", "other_seat", "all_other_seats"]

SPELL_TARGETS: dict[str, str] = {
    "lower_target": "monster",
    "set_type": "monster",
    "extra_try": "monster",
    "banish": "monster",
    "double_points": "monster",
    "roll_bonus": "self",
    "reroll": "self",
    "shield": "self",
    "curse": "other_seat",
    "give_sips": "other_seat",
    "give_sips_all": "all_other_seats",
    "steal_monster": "other_seat",
    "steal_spell": "other_seat",
}
"""What each effect kind aims at (the registry the G checks compare `target` with)."""


class SpellCard(CardBase):
    """A spell, played by the active seat before a combat; gold cards give sips or steal."""

    effect: SpellEffect = Field(description="What the spell does; `kind` picks the parameters.")
    target: SpellTarget = Field(description="What the spell aims at.")
    gold: bool = Field(default=False, description="Gold frame: removed in co-operative play.")
    gives_sips: bool = Field(default=False, description="Makes other seats drink.")
    steals: bool = Field(default=False, description="Takes cards from another seat.")
    competitive_only: bool = Field(default=False, description="Removed in co-operative play.")
