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
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from toolkit.checks import run_checks
from toolkit.content.game import bundled_games, load_game

YARDSTICK = "import typer, pydantic, reportlab.pdfgen.canvas, jinja2.sandbox, ruamel.yaml"


def _env(tree: Path | None) -> dict[str, str]:
    """This process's environment, compiled modules cached, `tree` first on the path, and
    no findings cache (every check, every run: benchmarks/validate_warm.py times the cache)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PLAYSET_NO_CACHE"] = "1"
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    return env


def _once(command: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """Wall seconds of one run; its CPU seconds appended to `cpu` (a shared machine's wall
    time says more about the others' load than about this code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run from a neutral folder: `-m toolkit` puts the current folder first on sys.path, so
    # from inside a checkout `--before` timed that checkout twice
    done = subprocess.run(
        command, capture_output=True, check=False, env=env, cwd=tempfile.gettempdir()
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr.decode())
    if cpu is not None:
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall


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
    cpu: dict[str, list[float]] = {"now": [], "then": [], "yardstick": []}
    for _ in range(args.runs):  # interleaved, so both see the same machine
        now.append(_once(cli, here, cpu["now"]))
        if before is not None:
            then.append(_once(cli, before, cpu["then"]))
        yardstick.append(_once([sys.executable, "-c", YARDSTICK], here, cpu["yardstick"]))
    floor = statistics.median(yardstick)
    cpu_floor = statistics.median(cpu["yardstick"])
    print(
        _line("validate, whole process", now)
        + f" = {statistics.median(now) / floor:.2f}× the yardstick; CPU median "
        f"{statistics.median(cpu['now']):.3f} s = {statistics.median(cpu['now']) / cpu_floor:.2f}×"
    )
    if then:
        ratio = statistics.median(now) / statistics.median(then)
        cpu_ratio = statistics.median(cpu["now"]) / statistics.median(cpu["then"])
        print(
            _line(f"the same, {args.before}", then)
            + f"; CPU median {statistics.median(cpu['then']):.3f} s; after/before "
            f"{ratio:.2f}× wall, {cpu_ratio:.2f}× CPU"
        )
    print(
        _line("  yardstick: importing typer, pydantic, reportlab, jinja2, ruamel", yardstick)
        + f"; CPU median {cpu_floor:.3f} s"
    )
    print(_line("load + checks, in process", in_process(args.runs)))


if __name__ == "__main__":
    main()
