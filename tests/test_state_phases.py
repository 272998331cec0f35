"""The large engine states (Whisky Game, Tokaido, Drinking Heroes; Muckle Stoater's hot loop
is left whole) are composed of phase mixins, one module each, instead of one class of up
to a thousand lines: each part stays small enough to read."""

from __future__ import annotations

import inspect

import pytest

from toolkit.api import State
from toolkit.games.drinking_heroes.state import DrinkingState
from toolkit.games.tokaido.state import TokaidoState
from toolkit.games.whisky_game.state import WhiskyState

LONGEST = 450  # lines of one class


@pytest.mark.parametrize("state", [WhiskyState, TokaidoState, DrinkingState])
def test_a_state_is_its_phases_each_in_its_own_module(state: type[State]):
    own = [c for c in state.__mro__ if c.__module__.startswith("toolkit.games.")]
    modules = {c.__module__ for c in own}
    assert len(modules) >= 4, modules  # the state, its base and at least two phases
    for part in own:
        lines = len(inspect.getsource(part).splitlines())
        assert lines <= LONGEST, f"{part.__qualname__} is {lines} lines"
        assert part.__slots__ == () or part is own[-1]  # one slot layout, in the base
