"""What every phase of a Whisky Game turn shares: the state's slots (one layout for the whole
class), the scoring reads, and the methods one phase calls in another (declared for type
checkers only; each is defined by its phase: toolkit.games.whisky_game.legal, .turns,
.destinations, .state)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.api import State
from toolkit.games.whisky_game.constants import (
    Content,
)
from toolkit.games.whisky_game.moves import Outcome
from toolkit.games.whisky_game.scoring import (
    bonus_points,
    bottle_points,
    regions_mask,
)
from toolkit.games.whisky_game.tables import WhiskyTables


class WhiskyBase(State):
    """The slots and their types, and the scoring reads every phase uses."""

    __slots__ = (
        "g",
        "c",
        "rng",
        "n",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "char",
        "skill",
        "triple",
        "pos",
        "tokens",
        "bottles",
        "hand",
        "front",
        "skips",
        "last_q",
        "placed",
        "booked",
        "returns_to",
        "at_sea",
        "spilled",
        "revealed",
        "avail",
        "lost_pile",
        "deck",
        "discard",
        "removed",
        "bag",
        "piles",
        "cur",
        "phase",
        "moves_left",
        "turn_start",
        "newq_left",
        "spill_done",
        "helper_used",
        "q_diff",
        "q_dist",
        "q_call",
        "opts",
        "paths",
        "choice_kind",
        "choice_seat",
        "choice_arg",
        "resume",
        "pending",
        "traded",
        "declarer",
        "met",
        "winners",
        "over",
        "timeout",
        "stats",
        "ticket",
        "ext",
        "start_space",
        "tally",
        "begin_next",
    )
    # The slots' types (annotations only: no class attribute, no runtime cost).
    g: WhiskyTables
    c: Content
    n: int
    char: list[int]  # character index per seat
    skill: list[tuple[int, ...]]  # P(right) per difficulty per seat, in 1/1_000_000
    triple: bool
    pos: list[int]
    tokens: list[int]  # 3 per seat: barley, water, yeast
    bottles: list[list[int]]  # bottle codes per seat (LOST + i for lost bottles)
    hand: list[list[int]]  # special types held per seat
    front: list[list[int]]  # special types in play in front of each seat
    skips: list[int]
    last_q: list[int]
    placed: list[bool]
    booked: list[int]
    returns_to: list[list[int]]
    at_sea: list[int]
    spilled: list[int]  # [p * n + q] bottles p spilled from q
    revealed: list[int]
    avail: list[int]
    lost_pile: list[int]
    deck: list[int]
    discard: list[int]
    removed: list[int]
    bag: list[int]
    piles: list[int]
    cur: int
    phase: int
    moves_left: int
    turn_start: bool
    newq_left: int
    spill_done: bool
    helper_used: bool
    q_diff: int
    q_dist: int
    q_call: bool
    opts: list[int]  # the choice's options (start spaces, targets, bottles)
    paths: list[Outcome]  # where the rolled move may end (phase PATH; never changed in place)
    choice_kind: int
    choice_seat: int
    choice_arg: int
    resume: int
    pending: list[int]
    traded: bool
    declarer: int
    met: list[int]
    winners: list[int]
    over: bool
    timeout: bool
    stats: list[list[int]]
    ticket: list[int]
    ext: bool
    start_space: list[int]
    tally: list[list[int]]
    begin_next: bool

    if TYPE_CHECKING:  # defined by the phases (and used by the special cards): declared here

        def _act_actions(self) -> list[int]: ...
        def _banned(self, p: int) -> bool: ...
        def _call_targets(self, p: int, v: int) -> list[int]: ...
        def _diff_actions(self, p: int, here: int) -> list[int]: ...
        def _end_turn(self) -> None: ...
        def _fly(self, p: int) -> None: ...
        def _help_actions(self) -> list[int]: ...
        def _may_own(self, p: int, d: int) -> bool: ...
        def _move(self, steps: int, modify: bool) -> None: ...
        def _pub_actions(self, p: int) -> list[int]: ...
        def _start_actions(self) -> list[int]: ...
        def _start_move(self) -> None: ...
        def ask_choice(
            self, kind: int, seat: int, options: list[int], resume: int, arg: int = 0
        ) -> None: ...
        def gain_token(self, p: int) -> None: ...
        def leave_country(self, p: int) -> None: ...
        def place(self, p: int, space: int) -> None: ...
        def resume_after(self, resume: int) -> None: ...
        def return_bottle(self, p: int, code: int) -> None: ...
        def take_bottle(self, p: int, code: int) -> None: ...

    # ----- scoring -----------------------------------------------------------------------

    def char_effects(self, seat: int) -> tuple[tuple[int, int, int], ...]:
        return self.c.characters[self.char[seat]].effects

    def char_arg(self, seat: int, code: int) -> tuple[int, int] | None:
        for kind, a, b in self.c.characters[self.char[seat]].effects:
            if kind == code:
                return a, b
        return None

    def own_arg(self, seat: int, code: int) -> tuple[int, int]:
        """`char_arg` of an effect the seat's character has (the action using it was legal)."""
        found = self.char_arg(seat, code)
        if found is None:
            raise ValueError(f"seat {seat}'s character has no effect {code}")
        return found

    def points(self, seat: int) -> int:
        c, effects = self.c, self.char_effects(seat)
        total = sum(bottle_points(c, b, effects, self.triple) for b in self.bottles[seat])
        return total + bonus_points(c, self.hand[seat])

    def regions(self, seat: int) -> int:
        return regions_mask(self.c, self.bottles[seat])

    def meets_goal(self, seat: int) -> bool:
        c = self.c
        return (
            self.regions(seat).bit_count() >= c.goal_regions and self.points(seat) >= c.goal_points
        )
