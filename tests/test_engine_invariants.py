"""Each bundled engine's `invariant_errors` sees a corrupted state: a card gone missing, and
results that no longer add up. The random-play tests trust these checks (an engine that
returned [] would pass them all); here each check must fire on a state broken on purpose,
and stay silent on the same state unbroken."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from toolkit.content.game import bundled_games, load_game
from toolkit.sim.engine import CompiledGame, GameSetup


def _lose_last(name: str) -> Callable[[Any], None]:
    def corrupt(state: Any) -> None:
        pile = getattr(state, name)
        assert pile, f"{name} is empty: play fewer moves"
        pile.pop()

    return corrupt


def _add_one(name: str) -> Callable[[Any], None]:
    def corrupt(state: Any) -> None:
        getattr(state, name)[0] += 1

    return corrupt


# game id -> (how to break the state, what invariant_errors must then say)
BREAKAGES: dict[str, list[tuple[str, Callable[[Any], None], str]]] = {
    "whisky-game": [
        ("a special card lost", _lose_last("deck"), "special cards:"),
        ("a token made up", _add_one("bag"), "tokens of kind 0:"),
    ],
    "muckle-stoater": [
        ("a card lost", _lose_last("draw"), "cards:"),
        ("a dock count wrong", _add_one("dock"), "dock/home counts"),
    ],
    "tokaido": [
        ("a souvenir lost", _lose_last("souv_deck"), "souvenirs:"),
        ("a score made up", _add_one("score"), "seat 0: sources add to"),
    ],
    "drinking-heroes": [
        ("a spell lost", _lose_last("sdeck"), "spells not conserved"),
        ("a sip not in the events", _add_one("sips"), "sips per seat differ"),
    ],
}


@cache
def _compiled(game_id: str) -> CompiledGame:
    game = load_game(bundled_games()[game_id])
    assert game.plugin.engine is not None
    return game.plugin.engine(game)


def _midgame(game_id: str, moves: int = 6) -> Any:
    compiled = _compiled(game_id)
    state = compiled.new_state(GameSetup(compiled.min_players), 11)
    rng = random.Random(3)
    for _ in range(moves):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def test_every_engine_game_has_its_breakages():
    engines = {gid for gid in bundled_games() if load_game(bundled_games()[gid]).plugin.engine}
    assert engines == set(BREAKAGES)


CASES = [(gid, *breakage) for gid, breakages in BREAKAGES.items() for breakage in breakages]


@pytest.mark.parametrize(
    ("game_id", "what", "corrupt", "said"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES]
)
def test_invariant_errors_see_a_broken_state(game_id, what, corrupt, said):
    state = _midgame(game_id)
    assert state.invariant_errors() == []
    broken = state.clone()
    corrupt(broken)
    errors = broken.invariant_errors()
    assert any(said in e for e in errors), (what, errors)
    assert state.invariant_errors() == []  # the clone was broken, not the original
