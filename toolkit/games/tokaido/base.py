"""What every part of a Tokaido turn shares: the state's slots (one layout for the whole class)
and the methods one part calls in another (declared for type checkers only; each is defined
by its part: toolkit.games.tokaido.legal, .stops, .inns, .state)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.api import State
from toolkit.games.tokaido.constants import (
    SOURCES,
    Table,
)

N_SOURCES = len(SOURCES)


_BITS = tuple(tuple(i for i in range(8) if m >> i & 1) for m in range(256))


def bits(mask: int) -> tuple[int, ...]:
    """The set bits of `mask` (a souvenir purchase), lowest first."""
    if mask < len(_BITS):
        return _BITS[mask]
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


class TokaidoBase(State):
    """The slots and their types; see toolkit.games.tokaido.state for the encoding."""

    __slots__ = (
        "t",
        "rng",
        "phase",
        "actor",
        "mover",
        "trav",
        "ab",
        "ab_a",
        "ab_b",
        "ab_c",
        "coins",
        "score",
        "spent",
        "pos",
        "lane",
        "kyoto",
        "occ",
        "arrivals",
        "pano",
        "pano_ach",
        "fam",
        "souv_n",
        "dishes",
        "meals_n",
        "meal_sum",
        "hot_n",
        "enc_n",
        "ach_n",
        "temple",
        "src",
        "souv_deck",
        "enc_deck",
        "hot_deck",
        "meal_deck",
        "revealed",
        "drawn",
        "meal_set",
        "offer",
        "dealt",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "win",
        "_acts",
    )

    t: Table
    phase: int
    actor: int  # seat deciding now
    mover: int  # traveller whose turn it is
    win: list[int]
    _acts: list[int] | None
    # per seat: traveller tile, ability code and its numbers, coins, points, coins spent
    trav: list[int]
    ab: list[int]
    ab_a: list[int]
    ab_b: list[int]
    ab_c: list[int]
    coins: list[int]
    score: list[int]
    spent: list[int]
    pos: list[int]  # per traveller
    lane: list[int]  # per traveller
    kyoto: list[int]  # per seat: its place in the Kyoto queue as dealt
    occ: list[int]  # [2 * stop + lane] traveller or -1
    arrivals: list[int]
    pano: list[int]  # [seat * types + type] sections held
    pano_ach: list[int]
    fam: list[int]  # [seat * families + family] souvenirs held
    souv_n: list[int]
    dishes: list[int]  # bit mask of dishes eaten
    meals_n: list[int]
    meal_sum: list[int]
    hot_n: list[int]
    enc_n: list[int]
    ach_n: list[int]
    temple: list[int]  # per traveller
    src: list[int]  # [seat * N_SOURCES + source] points
    souv_deck: list[int]
    enc_deck: list[int]
    hot_deck: list[int]
    meal_deck: list[int]
    revealed: list[int]
    drawn: list[int]
    meal_set: list[int]
    offer: int
    dealt: list[list[int]]

    if TYPE_CHECKING:  # defined by the phases: declared here so each phase may call them

        def _advance(self) -> None: ...
        def _arrive(self, s: int, j: int) -> None: ...
        def _draw_meals(self) -> None: ...
        def _eat(self, s: int, action: int) -> None: ...
        def _encounter(self, s: int) -> bool: ...
        def _finish(self) -> None: ...
        def _gain(self, s: int, points: int, source: int) -> None: ...
        def _inn_done(self, j: int) -> None: ...
        def _keep(self, seat: int, tile: int) -> None: ...
        def _meal_actions(self, s: int) -> list[int]: ...
        def _meal_start(self, s: int) -> None: ...
        def _section(self, s: int, kind: int) -> None: ...
        def _start(self) -> None: ...
        def _village_cost(self, s: int, prices: list[int], coins: int) -> int: ...
        def meal_cost(self, s: int, dish: int) -> int: ...
        def pano_choices(self, s: int, other_than: int = -1) -> list[int]: ...
