"""Muckle Stoater with greedy bots against the lean plain-Python floor, side by side.

The floor (`../shared/bench/ms_floor.py`, simplified rules) says what CPython can do on this
machine; Playset's figure is its ratio to it. Both run in this process, one core, in
alternating rounds (so a change in the machine's load hits both), and each side's rate is the
median over the rounds. Playset's games are timed from a compiled game and its bots, as a
worker plays them (loading the content is a one-off, not part of games per second).

Usage: python benchmarks/muckle_floor.py [--games N] [--runs R] [--bots greedy] [--floor PATH]
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import ast
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolkit.content.game import bundled_games
from toolkit.sim.engine import GameSetup
from toolkit.sim.prepared import compile_game, make_bots
from toolkit.sim.runner import play_one

ROOT = Path(__file__).resolve().parent.parent


def default_floor() -> Path:
    """The floor script beside the checkout (`../shared/bench`), from a worktree or main."""
    for base in (ROOT.parent, ROOT.parent.parent):
        found = base / "shared" / "bench" / "ms_floor.py"
        if found.is_file():
            return found
    return ROOT.parent / "shared" / "bench" / "ms_floor.py"


def load_floor(path: Path) -> dict[str, Any]:
    """The floor's definitions without its own timing loop (top-level `for` statements are
    left out), so its `play` and bots can be timed here."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    tree.body = [node for node in tree.body if not isinstance(node, ast.For)]
    namespace: dict[str, Any] = {"__name__": "ms_floor"}
    exec(compile(tree, str(path), "exec"), namespace)
    return namespace


Rates = tuple[float, float]
"""Games per second of wall time, and per second of this process's CPU time (the steadier
figure on a shared machine: another process's work does not count)."""


def _rates(games: int, wall: float, cpu: float) -> Rates:
    return games / wall, games / cpu


def time_floor(floor: dict[str, Any], bots: str, games: int, first: int) -> Rates:
    """Games per second of the floor engine, seeds first..first+games-1."""
    play: Callable[..., int] = floor["play"]
    bot = floor["greedy" if bots == "greedy" else "rnd"]
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(first, first + games):
        play(i, bot)
    return _rates(games, time.perf_counter() - start, time.process_time() - cpu)


def time_playset(bots: str, games: int, first: int, players: int) -> Rates:
    """Games per second of Playset's Muckle Stoater engine, games first..first+games-1."""
    folder = bundled_games()["muckle-stoater"]
    compiled = compile_game(folder)
    seats = make_bots(folder, (bots,), players)
    setup = GameSetup(players)
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(first, first + games):
        play_one(compiled, setup, seats, i, 0)
    return _rates(games, time.perf_counter() - start, time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300, help="games per round and side")
    parser.add_argument("--runs", type=int, default=5, help="alternating rounds")
    parser.add_argument("--bots", default="greedy", choices=("greedy", "random"))
    parser.add_argument("--floor", type=Path, default=default_floor())
    args = parser.parse_args()
    floor = load_floor(args.floor)
    players = 4  # the floor plays 4-player games
    time_floor(floor, args.bots, 20, 10**6)  # warm up both sides
    time_playset(args.bots, 20, 10**6, players)
    floors, ours, floors_cpu, ours_cpu = [], [], [], []
    for run in range(args.runs):
        first = run * args.games
        (fw, fc), (pw, pc) = (
            time_floor(floor, args.bots, args.games, first),
            time_playset(args.bots, args.games, first, players),
        )
        floors.append(fw)
        ours.append(pw)
        floors_cpu.append(fc)
        ours_cpu.append(pc)
        print(
            f"round {run + 1}: floor {fw:6.0f} games/s, playset {pw:6.0f} games/s "
            f"(per CPU second: {fc:6.0f}, {pc:6.0f})"
        )
    f, p = statistics.median(floors), statistics.median(ours)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{platform.machine()}, Python {platform.python_version()}, load average {load}; "
        f"Muckle Stoater, {players} players, {args.bots} bots, one core, "
        f"median of {args.runs} × {args.games} games"
    )
    print(f"{'engine':10} {'games/s':>8} {'games/min':>10}")
    print(f"{'floor':10} {f:8.0f} {f * 60:10,.0f}")
    print(f"{'playset':10} {p:8.0f} {p * 60:10,.0f}")
    print(f"ratio playset / floor: {p / f:.2f}× (medians)")
    paired = statistics.median(o / fl for o, fl in zip(ours, floors, strict=True))
    # each round times both engines back to back, so the round's own ratio cancels the
    # machine's speed at that moment: the steadier figure when the machine is shared
    print(f"ratio per round, median: {paired:.2f}×")
    cpu = statistics.median(o / fl for o, fl in zip(ours_cpu, floors_cpu, strict=True))
    print(f"ratio per round of CPU time, median: {cpu:.2f}× (other processes' load left out)")


if __name__ == "__main__":
    main()
