"""Games per second for each engine, random and greedy bots, one and two workers.

Usage: python benchmarks/simulate.py [--games N] [--runs R] [--game ID ...]
Prints the median of R runs of N games each (and games per minute); results go in closing
notes, never in tests.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from toolkit.content.game import bundled_games, load_game
from toolkit.sim.engine import GameSetup
from toolkit.sim.play import run
from toolkit.sim.prepared import SimConfig


def measure(game_id: str, bots: str, workers: int, games: int, runs: int, players: int) -> float:
    folder = bundled_games()[game_id]
    rates = []
    for attempt in range(runs):
        config = SimConfig(folder, GameSetup(players), (bots,), seed=attempt, games=games)
        start = time.perf_counter()
        run(config, workers=workers)
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    ids = args.game or [
        gid for gid, folder in bundled_games().items() if load_game(folder).plugin.engine
    ]
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, 2 cores")
    for game_id in ids:
        for bots in ("random", "greedy"):
            for workers in (1, 2):
                rate = measure(game_id, bots, workers, args.games, args.runs, args.players)
                print(
                    f"{game_id:16} {bots:7} workers={workers}: {rate:8.0f} games/s "
                    f"({rate * 60:,.0f}/min), median of {args.runs} × {args.games} games"
                )


if __name__ == "__main__":
    main()
