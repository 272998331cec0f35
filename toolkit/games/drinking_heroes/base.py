"""What every part of a Drinking Heroes turn shares: the state's slots (one layout for the
whole class) and the methods one part calls in another (declared for type checkers only;
each is defined by its part: toolkit.games.drinking_heroes.legal, .turns, .spells, .sips,
.state)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.api import State
from toolkit.games.drinking_heroes.constants import (
    Table,
)
from toolkit.games.drinking_heroes.tables import DrinkingTables


class DrinkingBase(State):
    """The slots and their types; see toolkit.games.drinking_heroes.state for the turn."""

    __slots__ = (
        "g",
        "tb",
        "rng",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "hero",
        "hands",
        "owned",
        "mark",
        "deck",
        "sdeck",
        "pit",
        "gone",
        "spit",
        "active",
        "cur",
        "phase",
        "monster",
        "fighter",
        "eff_type",
        "need",
        "lower",
        "tries_max",
        "tries_used",
        "rerolls",
        "shields",
        "dbl",
        "rb_amt",
        "rb_type",
        "queue",
        "resume",
        "curse",
        "failed",
        "last_fighter",
        "coop_levels",
        "sips",
        "won",
        "legal",
    )

    g: DrinkingTables
    tb: Table
    hero: list[int]  # hero index per seat
    hands: list[list[int]]  # spell cards per seat
    owned: list[list[int]]  # monsters defeated per seat
    mark: list[int]
    deck: list[int]  # monsters
    sdeck: list[int]  # spells
    pit: list[int]
    gone: list[int]
    spit: int
    active: int
    cur: int
    phase: int
    monster: int
    fighter: int
    eff_type: int
    need: int
    lower: int
    tries_max: int
    tries_used: int
    rerolls: int
    shields: int
    dbl: int
    rb_amt: int
    rb_type: int
    queue: list[tuple[int, int, int]]  # pending sips: (seat, amount, source)
    resume: int
    curse: list[int]
    failed: int
    last_fighter: int
    coop_levels: list[int]
    sips: list[int]
    won: int
    legal: list[int] | None  # cached legal actions of a choice phase

    if TYPE_CHECKING:  # defined by the phases: declared here so each phase may call them

        def _after_spell_phase(self) -> None: ...
        def _after_try(self) -> None: ...
        def _can_sacrifice(self, seat: int) -> bool: ...
        def _drink(self, seat: int, amount: int, src: int) -> None: ...
        def _next_pending(self) -> None: ...
        def _rank_key(self, seat: int) -> tuple[int, ...]: ...
        def _set_need(self) -> None: ...
        def eligible(self) -> list[int]: ...
        def score(self, seat: int) -> int: ...
        def spell_actions(self, seat: int) -> list[int]: ...
