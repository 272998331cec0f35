"""Muckle Stoater's typed content: rules parameters and the effects of each card rank."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from toolkit.content.models import CardBase, StrictModel
from toolkit.content.models.base import new_list


class Pack(StrictModel):
    """One standard pack: ranks, suits and jokers (Bonnie Fechters)."""

    ranks: list[str] = Field(min_length=1, max_length=30)
    suits: int = Field(ge=1, le=8)
    jokers: int = Field(ge=0, le=8)


class MuckleRules(StrictModel):
    laddies_per_player: int = Field(ge=1, le=20)
    packs_by_players: dict[int, int] = Field(description="Packs shuffled together per count.")
    pack: Pack
    hand_size: int = Field(ge=1, le=20)
    draw_per_turn: int = Field(ge=0, le=5)
    team_players: list[int] = Field(default_factory=new_list, description="Counts allowing teams.")
    max_rounds: int = Field(ge=1, le=100_000, description="Simulation cap; reaching it is a draw.")


class MoveSteps(StrictModel):
    kind: Literal["move_steps"]
    steps: int = Field(ge=1, le=100)


class LeaveDock(StrictModel):
    kind: Literal["leave_dock"]


class SplitSteps(StrictModel):
    kind: Literal["split_steps"]
    total: int = Field(ge=2, le=100)
    parts: int = Field(ge=2, le=2)


class MoveBack(StrictModel):
    kind: Literal["move_back"]
    steps: int = Field(ge=1, le=100)


class BonnieFechter(StrictModel):
    kind: Literal["bonnie_fechter"]
    from_dock: bool = True


PackEffect = Annotated[
    MoveSteps | LeaveDock | SplitSteps | MoveBack | BonnieFechter, Field(discriminator="kind")
]


class PackCard(CardBase):
    """A rank of the pack; `copies` is per pack (suits, or jokers)."""

    rank: str = Field(min_length=1, max_length=8, examples=["A", "7", "JOKER"])
    effects: list[PackEffect] = Field(min_length=1)
