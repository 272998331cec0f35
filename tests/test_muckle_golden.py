"""Muckle Stoater plays exactly the same games as before its speed work: a digest of every
record of a few seeded runs (greedy, splits, Bonnie Fechters, teams, random) is pinned here.

The engine and the greedy bot are tuned for speed (inlined moves, precomputed score sums);
any change to which moves are listed, in which order, or to a score's floating-point value
changes a tie-break somewhere and so this digest. A deliberate rules or bot change updates it.
"""

from __future__ import annotations

import hashlib

from toolkit.content.game import bundled_games
from toolkit.sim.engine import GameSetup
from toolkit.sim.prepared import compile_game, make_bots
from toolkit.sim.runner import play_one

PINNED = "d7d42bb81f5e27bd"  # measured on the engine before the speed work


def test_seeded_records_are_unchanged() -> None:
    folder = bundled_games()["muckle-stoater"]
    compiled = compile_game(folder)
    digest = hashlib.sha256()
    for players, teams, bots, games in [
        (4, False, ("greedy",), 12),
        (2, False, ("greedy",), 6),
        (6, True, ("greedy",), 4),
        (4, True, ("greedy", "random"), 4),
    ]:
        setup = GameSetup(players, {"teams": True} if teams else {})
        seats = make_bots(folder, bots, players)
        for index in range(games):
            digest.update(repr(play_one(compiled, setup, seats, index, 11)).encode())
    assert digest.hexdigest()[:16] == PINNED
