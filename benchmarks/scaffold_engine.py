"""The starter engine of `playset new --engine`, timed as a designer runs it: the whole
`playset simulate -n 2000 -p 3` process (start-up, loading, compiling, 2,000 greedy games,
the report), one worker, in a fresh game folder outside the repository.

Target: at least 20,000 games per minute per core. CPU time (user + system of the child) is
reported beside wall time: on a machine shared with other work the wall clock also counts the
time the process waited for a core.

Usage: python benchmarks/scaffold_engine.py [--games 2000] [--runs 3] [--players 3]
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def playset(*args: str, cwd: Path) -> tuple[float, float]:
    """Run `python -m toolkit ARGS` in `cwd`; (wall seconds, CPU seconds of the child)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "toolkit", *args], cwd=cwd, env=env, check=True, capture_output=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        playset("new", "bench-game", "--engine", "--lang", "en", cwd=Path(tmp))
        folder = Path(tmp) / "bench-game"
        walls, cpus = [], []
        for _ in range(args.runs):
            wall, cpu = playset(
                "simulate", "-n", str(args.games), "-p", str(args.players), cwd=folder
            )
            walls.append(wall)
            cpus.append(cpu)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{platform.machine()}, Python {platform.python_version()}, load average {load}")
    print(
        f"scaffold engine, {args.players} players, greedy bots, whole process, "
        f"median of {args.runs} × {args.games} games"
    )
    print(f"wall {wall:.2f} s: {args.games / wall * 60:,.0f} games/min")
    print(f"CPU  {cpu:.2f} s: {args.games / cpu * 60:,.0f} games/min per core (target 20,000)")


if __name__ == "__main__":
    main()
