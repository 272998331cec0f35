"""Games per second on each executor: the local process pool and a Dask LocalCluster, with
1 and 2 workers, on the same games (and a check that every run gives the same report).

Usage: python benchmarks/executors.py [--game muckle-stoater] [--games N] [--players P]
Peak memory (flat in the number of games) is measured from outside, e.g.
    /usr/bin/time -v playset simulate drinking-heroes -n 10000 --bots random
    /usr/bin/time -v playset simulate drinking-heroes -n 100000 --bots random
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from toolkit.content.game import bundled_games
from toolkit.content.gate import valid_game
from toolkit.sim.executors import open_executor
from toolkit.sim.session import prepare


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="muckle-stoater")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="greedy")
    args = parser.parse_args()
    folder = bundled_games()[args.game]
    game = valid_game(folder)
    sim = prepare(game, folder, args.games, args.players, [args.bots], 0, [])
    print(f"{platform.machine()}, Python {platform.python_version()}; {args.games} games")
    print(f"{'executor':14} {'workers':>7} {'games/s':>9} {'seconds':>8}  (cluster start excluded)")
    reports = set()
    for name, spec, workers in (
        ("pool", "pool:1", 1),
        ("pool", "pool:2", 2),
        ("dask", "dask:local:1", 1),
        ("dask", "dask:local:2", 2),
    ):
        with open_executor(spec, workers) as executor:
            start = time.perf_counter()
            report = sim.play(workers, executor=executor)
            seconds = time.perf_counter() - start
        reports.add(json.dumps(report.to_json(), sort_keys=True, default=str))
        print(f"{name:14} {workers:>7} {args.games / seconds:>9.0f} {seconds:>8.1f}")
    print("identical reports:", len(reports) == 1)


if __name__ == "__main__":
    main()
