"""Drinking Heroes' typed content: rules parameters and hero cards."""

from __future__ import annotations

from typing import Annotated

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
