"""Time `playset validate` on every bundled game: whole process, and in-process load+check.

Usage: python benchmarks/validate_all.py [--runs N] [--before TREE]
Prints the median and the spread, with the import-only yardstick (typer, pydantic, reportlab,
jinja2, ruamel) timed in the same run; `--before TREE` also times the toolkit of another
checkout (its folder first on PYTHONPATH), runs interleaved, and prints after/before.
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from toolkit.checks import run_checks
from toolkit.content.game import bundled_games, load_game

YARDSTICK = "import typer, pydantic, reportlab.pdfgen.canvas, jinja2.sandbox, ruamel.yaml"


def _env(tree: Path | None) -> dict[str, str]:
    """This process's environment, compiled modules cached, `tree` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    return env


def _once(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False, env=env)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr.decode())
    return time.perf_counter() - start


def in_process(runs: int) -> list[float]:
    folders: list[Path] = list(bundled_games().values())
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for folder in folders:
            run_checks(load_game(folder))
        times.append(time.perf_counter() - start)
    return times


def _line(name: str, times: list[float]) -> str:
    return (
        f"{name}: median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}, {len(times)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", type=Path, help="another checkout to time beside")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()} {platform.python_version()}, games: {len(bundled_games())}"
    )
    cli = [sys.executable, "-m", "toolkit", "validate"]
    here, before = _env(None), _env(args.before) if args.before else None
    for env in (here, before):  # warm-up: compiled modules and templates cached
        if env is not None:
            _once(cli, env)
    now: list[float] = []
    then: list[float] = []
    yardstick: list[float] = []
    for _ in range(args.runs):  # interleaved, so both see the same machine
        now.append(_once(cli, here))
        if before is not None:
            then.append(_once(cli, before))
        yardstick.append(_once([sys.executable, "-c", YARDSTICK], here))
    floor = statistics.median(yardstick)
    print(_line("validate, whole process", now) + f" = {statistics.median(now) / floor:.2f}×")
    if then:
        ratio = statistics.median(now) / statistics.median(then)
        print(_line(f"the same, {args.before}", then) + f"; after/before {ratio:.2f}×")
    print(_line("  yardstick: importing typer, pydantic, reportlab, jinja2, ruamel", yardstick))
    print(_line("load + checks, in process", in_process(args.runs)))


if __name__ == "__main__":
    main()
