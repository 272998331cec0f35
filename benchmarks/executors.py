"""Games per second on each executor: the local process pool and a Dask LocalCluster, with
1 and 2 workers, on the same games, in one table; and a check that every run writes the same
JSON report, byte for byte.

Usage: python benchmarks/executors.py [-n GAMES] [--game muckle-stoater] [--players P]
       [--bots greedy] [--seed S] [--runs R]
Each run plays the games as `playset simulate GAME -n GAMES --workers W` or `--dask local:W`
does (same executor registry, same streaming report); games/s excludes starting the pool or
the cluster, which is shown on its own. With R > 1 runs the median is shown. Peak memory
(flat in the number of games) is measured from outside, e.g.
    /usr/bin/time -v playset simulate drinking-heroes -n 10000 --bots random
    /usr/bin/time -v playset simulate drinking-heroes -n 100000 --bots random
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from toolkit.checks.gate import valid_game
from toolkit.content.game import bundled_games
from toolkit.sim.executors import open_executor
from toolkit.sim.report import write_json
from toolkit.sim.request import SimRequest
from toolkit.sim.session import Simulation, prepare

RUNS = (("pool", "pool:1", 1), ("pool", "pool:2", 2), ("dask", "dask:local:1", 1))
RUNS += (("dask", "dask:local:2", 2),)


def timed(sim: Simulation, spec: str, workers: int, out: Path) -> tuple[float, float, bytes]:
    """(start-up seconds, playing seconds, JSON bytes) of one run."""
    start = time.perf_counter()
    with open_executor(spec, workers) as executor:
        ready = time.perf_counter()
        report = sim.play(executor=executor)
        done = time.perf_counter()
    write_json(report, out)
    return ready - start, done - ready, out.read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", "--games", type=int, default=20000)
    parser.add_argument("--game", default="muckle-stoater")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    folder = bundled_games()[args.game]
    game = valid_game(folder)
    request = SimRequest(args.games, args.players, tuple(args.bots.split(",")), args.seed)
    sim = prepare(game, folder, request)
    rates: dict[tuple[str, int], list[float]] = {(name, w): [] for name, _, w in RUNS}
    starts: dict[tuple[str, int], list[float]] = {(name, w): [] for name, _, w in RUNS}
    outputs: set[bytes] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):  # rounds of all four, so a change in load hits each
            for name, spec, workers in RUNS:
                # as the CLI runs it: `--workers W` for the pool, `--dask local:W` alone
                asked = workers if name == "pool" else 1
                startup, seconds, data = timed(sim, spec, asked, Path(tmp) / f"{name}.json")
                outputs.add(data)
                starts[name, workers].append(startup)
                rates[name, workers].append(args.games / seconds)
                print(f"  run {run + 1}: {name} {workers}: {rates[name, workers][-1]:.0f} games/s")
    rows = [
        (name, w, statistics.median(rates[name, w]), statistics.median(starts[name, w]))
        for name, _, w in RUNS
    ]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load average {load}"
    )
    print(
        f"{args.game}, {args.games} games, {args.players} players, {args.bots} bots, "
        f"seed {args.seed}, median of {args.runs} run(s)"
    )
    pool = {workers: rate for name, workers, rate, _ in rows if name == "pool"}
    print("| executor | workers | games/s | vs pool | start-up s |")
    print("|---|---|---|---|---|")
    for name, workers, rate, startup in rows:
        print(f"| {name} | {workers} | {rate:.0f} | {rate / pool[workers]:.2f}× | {startup:.1f} |")
    digest = hashlib.sha256(next(iter(outputs))).hexdigest()[:12]
    same = "yes" if len(outputs) == 1 else f"NO ({len(outputs)} different)"
    print(f"JSON reports byte-identical across executors: {same} (sha256 {digest}…)")


if __name__ == "__main__":
    main()
