"""Time `playset validate` on every bundled game: whole process, and in-process load+check.

Usage: python benchmarks/validate_all.py [--runs N]
Prints the median and the spread; results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from toolkit.checks import run_checks
from toolkit.content.game import bundled_games, load_game


def whole_process(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "validate"], capture_output=True, check=False
        )
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(done.stderr.decode())
    return times


def in_process(runs: int) -> list[float]:
    folders: list[Path] = list(bundled_games().values())
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for folder in folders:
            run_checks(load_game(folder))
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()} {platform.python_version()}, games: {len(bundled_games())}"
    )
    for name, times in (
        ("validate, whole process", whole_process(args.runs)),
        ("load + checks, in process", in_process(args.runs)),
    ):
        print(
            f"{name}: median {statistics.median(times):.3f} s "
            f"(min {min(times):.3f}, max {max(times):.3f}, {len(times)} runs)"
        )


if __name__ == "__main__":
    main()
