"""`playset build` for every bundled game in every language: wall time (median of several
runs) and peak memory of the whole process.

Usage: python benchmarks/build_all.py [--runs N] [--before TREE]
`--before TREE` also times the toolkit of another checkout (its folder first on PYTHONPATH),
runs interleaved so both see the same machine, and prints after/before; the import-only
yardstick (typer, pydantic, reportlab, jinja2, ruamel) is timed in the same run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

YARDSTICK = "import typer, pydantic, reportlab.pdfgen.canvas, jinja2.sandbox, ruamel.yaml"


def _env(tree: Path | None) -> dict[str, str]:
    """No build cache: every run checks and draws (benchmarks/validate_warm.py times it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PLAYSET_NO_CACHE"] = "1"
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    return env


def _build(env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one build of every game into a fresh folder."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "build", "--out", out],
            capture_output=True,
            env=env,
            cwd=out,  # not the checkout: `-m toolkit` puts the current folder first on sys.path
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            raise SystemExit(done.stderr.decode())
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _line(name: str, runs: list[tuple[float, float]]) -> str:
    walls = [w for w, _ in runs]
    return (
        f"{name}: median {statistics.median(walls):.2f} s (min {min(walls):.2f}, "
        f"max {max(walls):.2f}, CPU median {statistics.median(c for _, c in runs):.2f} s, "
        f"{len(runs)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another checkout to time beside")
    args = parser.parse_args()
    here, before = _env(None), _env(args.before) if args.before else None
    now: list[tuple[float, float]] = []
    then: list[tuple[float, float]] = []
    yardstick: list[float] = []
    for _ in range(args.runs):
        now.append(_build(here))
        if before is not None:
            then.append(_build(before))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", YARDSTICK], check=True, env=here)
        yardstick.append(time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(_line("build, 4 games × 3 languages", now) + f"; peak memory {peak:.0f} MiB")
    if then:
        ratio = statistics.median(w for w, _ in now) / statistics.median(w for w, _ in then)
        cpu = statistics.median(c for _, c in now) / statistics.median(c for _, c in then)
        print(_line(f"the same, {args.before}", then) + f"; after/before {ratio:.2f}× wall")
        print(f"  after/before, CPU: {cpu:.2f}×")
    floor = statistics.median(yardstick)
    print(
        f"  yardstick: importing typer, pydantic, reportlab, jinja2, ruamel: median "
        f"{floor:.3f} s; the build is {statistics.median(w for w, _ in now) / floor:.1f}× it"
    )


if __name__ == "__main__":
    main()
