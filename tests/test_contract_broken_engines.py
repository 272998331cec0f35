"""The random-play contract check catches each fault it names: one deliberately broken
variant of the toy dice race (tests/toy_game.py) per message of toolkit.sim.contract, and the
healthy toy passes. If `random_play_check` returned [] (or stopped checking one thing), the
test for that fault goes red."""

from __future__ import annotations

import random

import pytest

from tests.toy_game import ToyGame, ToyState
from toolkit.sim.contract import contract_problems, random_play_check
from toolkit.sim.engine import GameSetup

SETUP = GameSetup(2)


class Faulty(ToyState):
    """A toy state whose clones stay of its (faulty) class."""

    __slots__ = ()

    def clone(self) -> ToyState:
        other = super().clone()
        other.__class__ = type(self)
        return other


class NoActionsMidGame(Faulty):
    """Offers no action on the third turn, though the game is not over."""

    __slots__ = ()

    def legal_actions(self) -> list[int]:
        return [] if self.turns == 3 else super().legal_actions()


class ClonesBreakOnStep(Faulty):
    """A clone loses its die roll, so stepping on a clone raises."""

    __slots__ = ()

    def clone(self) -> ToyState:
        other = super().clone()
        other.roll = None  # type: ignore[assignment]
        return other

    def apply(self, action: int) -> None:
        if self.roll is None:
            raise ValueError("no die roll")
        super().apply(action)


class SharedEventsClone(Faulty):
    """A clone shares its events list with the original."""

    __slots__ = ()

    def clone(self) -> ToyState:
        other = super().clone()
        other.events = self.events
        return other


class Endless(Faulty):
    """Never ends: every move is a step of 0."""

    __slots__ = ()

    def apply(self, action: int) -> None:
        self.turns += 1
        self.seat = (self.seat + 1) % len(self.pos)


class LosesAnEventOnBank(Faulty):
    """Counts turns but forgets the `banked` event: events no longer add up to turns."""

    __slots__ = ()

    def apply(self, action: int) -> None:
        super().apply(action)
        if action == 0:
            self.events[0] -= 1

    def invariant_errors(self) -> list[str]:
        if sum(self.events) != self.turns:
            return [f"events {sum(self.events)} != turns {self.turns}"]
        return []


class WrongAtTheEnd(Faulty):
    """Consistent during play; the final state fails its invariant."""

    __slots__ = ()

    def invariant_errors(self) -> list[str]:
        return ["winner has no score"] if self.is_terminal() else []


class ReturnsTooMany(Faulty):
    """Returns one result more than there are players."""

    __slots__ = ()

    def returns(self) -> list[float]:
        return [*super().returns(), 0.0]


def engine(state_class: type[ToyState], max_turns: int = 400) -> ToyGame:
    class Broken(ToyGame):
        def new_state(self, setup: GameSetup, seed: int) -> ToyState:
            state = super().new_state(setup, seed)
            state.__class__ = state_class
            return state

    game = Broken()
    game.max_turns = max_turns
    return game


def problems(state_class: type[ToyState], games: int = 5, **kwargs: int) -> list[str]:
    max_turns = kwargs.pop("max_turns", 400)
    return random_play_check(engine(state_class, max_turns), SETUP, games, **kwargs)


def test_the_healthy_toy_passes():
    assert random_play_check(ToyGame(), SETUP, 50) == []
    assert problems(ToyState) == []


def test_no_legal_action_before_the_end():
    found = problems(NoActionsMidGame, games=2)
    assert found == [f"game {i} move 3: no legal action before the end" for i in range(2)]


def test_a_legal_action_that_raises():
    found = problems(ClonesBreakOnStep, games=1, probe_every=1000)
    assert found[:2] == [
        "game 0 move 0: action 0 raised ValueError('no die roll')",
        "game 0 move 0: action 1 raised ValueError('no die roll')",
    ]


def test_playing_on_a_clone_changes_the_original():
    found = problems(SharedEventsClone, games=1, probe_every=1000)
    assert found == ["game 0 move 0: playing on a clone changed the original"]


def test_a_game_longer_than_its_declared_maximum():
    found = problems(Endless, games=2, max_turns=30)
    assert found == [f"game {i}: longer than max_turns=30" for i in range(2)]


def test_an_invariant_broken_by_a_move_is_reported_after_it():
    found = problems(LosesAnEventOnBank, games=1, probe_every=1000)
    assert found[0] == "game 0 move 0: after 0: events 0 != turns 1"
    assert any(p.startswith("game 0 end: events") for p in found)


def test_an_invariant_broken_at_the_end():
    assert problems(WrongAtTheEnd, games=3, probe_every=1000) == [
        f"game {i} end: winner has no score" for i in range(3)
    ]


def test_returns_with_the_wrong_number_of_entries():
    assert problems(ReturnsTooMany, games=2) == [
        f"game {i}: returns has 3 entries" for i in range(2)
    ]


@pytest.mark.parametrize("state_class", [WrongAtTheEnd, NoActionsMidGame])
def test_a_broken_engine_stops_being_played_after_twenty_problems(state_class):
    found = problems(state_class, games=500)
    assert 20 < len(found) <= 22


# --- the seed, clone and score rules (`check --contract` runs these with seeds=True) -------


def seed_problems_of(game: ToyGame, games: int = 5) -> list[str]:
    return [p.message for p in contract_problems(game, SETUP, games, seeds=True)]


class IgnoresItsSeed(ToyGame):
    """Every game starts from the same RNG, whatever seed the runner gives."""

    def new_state(self, setup: GameSetup, seed: int) -> ToyState:
        return super().new_state(setup, 42)


class ChanceFromOutside(Faulty):
    """Rolls the die with the process-wide RNG: the same seed gives another game."""

    __slots__ = ()

    def apply(self, action: int) -> None:
        super().apply(action)
        self.roll = _OUTSIDE.randint(1, 6)


_OUTSIDE = random.Random(1)


class ClonesForgetTheDice(Faulty):
    """A clone gets a fresh RNG: independent, but it does not play like its original."""

    __slots__ = ()

    def clone(self) -> ToyState:
        other = super().clone()
        other.rng = random.Random(other.turns + 1000)
        return other


class ScoresOneSeat(Faulty):
    __slots__ = ()

    def score_values(self) -> list[float]:
        return [float(self.pos[0])]


class BreaksItsInvariantOnlyInPlay(Faulty):
    """Wrong after real moves past the tenth (never on the probes' clones of move 0)."""

    __slots__ = ()

    def invariant_errors(self) -> list[str]:
        return ["too long"] if self.turns > 10 and not self.is_terminal() else []


def test_the_healthy_toy_passes_the_seed_checks():
    assert seed_problems_of(ToyGame()) == []


def test_an_engine_that_ignores_its_seed():
    assert seed_problems_of(IgnoresItsSeed()) == [
        "5 different seeds gave the same game, move for move: new_state(setup, seed) must "
        "seed the state's RNG from `seed`"
    ]


def test_chance_that_does_not_come_from_the_seed():
    found = seed_problems_of(engine(ChanceFromOutside))
    assert "game 0: the same seed gave a different game (chance not from state.rng?)" in found


def test_a_clone_that_does_not_play_like_its_original():
    found = problems(ClonesForgetTheDice, games=1, probe_every=1)
    assert found, "a clone with its own dice went unnoticed"
    assert all(p.endswith(": a clone played the same move differently") for p in found)


def test_scores_for_every_seat():
    assert problems(ScoresOneSeat, games=2) == [
        f"game {i}: score_values has 1 entries" for i in range(2)
    ]


def test_invariants_are_checked_after_every_move_not_only_on_probes():
    found = problems(BreaksItsInvariantOnlyInPlay, games=1, probe_every=1000)
    assert found[0] == "game 0 move 10: after the move: too long"


class BoolActions(Faulty):
    """Offers `True` and `False` for actions 1 and 0 (`True == 1`: it played unseen)."""

    __slots__ = ()

    def legal_actions(self) -> list[int]:
        return [bool(a) for a in super().legal_actions()]


def test_an_action_that_is_no_int():
    found = problems(BoolActions, games=1)
    wrong = "legal_actions() holds bool False, not an action (an int; see docs/engines.md)"
    assert f"game 0 move 0: {wrong}" in found, found
