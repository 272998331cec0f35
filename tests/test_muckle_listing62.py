"""Muckle Stoater's move listing: the kept 7-split listings never change what is listed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from toolkit.content.game import load_game
from toolkit.games.muckle_stoater.compile import MuckleGame, compile_game
from toolkit.games.muckle_stoater.constants import SPLIT
from toolkit.games.muckle_stoater.state import MuckleState
from toolkit.sim.engine import GameSetup

GAME_DIR = Path(__file__).parent.parent / "content" / "muckle-stoater"


@pytest.fixture(scope="module")
def compiled() -> MuckleGame:
    return compile_game(load_game(GAME_DIR))


def test_kept_split_listings_list_what_a_fresh_listing_does(compiled):
    # in played games, each 7 split listed with the table's kept listings (warm from the
    # turns before) is the one listed with none kept; R5's finishing splits, which move a
    # partner's Laddie, are never kept (the partner's Laddies are not in the key)
    finishing = splits = 0
    for players, teams, seed in ((4, False, 11), *((p, True, s) for p in (4, 6) for s in range(8))):
        state = compiled.new_state(GameSetup(players, {"teams": teams}), seed)
        assert isinstance(state, MuckleState)
        t = state.t
        n = t.laddies
        split = next(e for e in range(t.n_effects) if t.eff_kind[e] == SPLIT)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.hands[state.seat * t.ranks + t.eff_rank[split]] = 1  # a 7 every turn
            state._acts = state._groups = None
            kept = list(dict(state.move_groups()).get(split, []))
            t.split_memo.clear()
            state._acts = state._groups = None
            assert list(dict(state.move_groups()).get(split, [])) == kept
            splits += len(kept)
            finishing += sum(1 for m in kept if m[4] // n != m[1] // n)
            state.apply(rng.choice(state.legal_actions()))
    assert splits > 1000 and finishing > 0


def test_a_pickled_game_leaves_its_tables_and_kept_listings_behind(compiled):
    # a sweep ships the compiled game of its last point to the workers of the next: the
    # tables it built (and the split listings they kept) stayed in the pickle, megabytes
    import pickle

    from toolkit.games.muckle_stoater.bots import GreedyBot
    from toolkit.sim.runner import play_one

    game = MuckleGame(compiled.content)
    setup = GameSetup(4)
    bots = [GreedyBot() for _ in range(4)]
    fresh = len(pickle.dumps(game))
    played = [play_one(game, setup, bots, i, 5) for i in range(3)]
    assert game.table(setup).split_memo  # the games kept some
    shipped = pickle.dumps(game)
    assert len(shipped) < fresh + 100
    again = pickle.loads(shipped)
    assert [play_one(again, setup, bots, i, 5) for i in range(3)] == played
