"""Does the signed template bytecode cache pay? `playset validate` and `playset build` with
no cache, a cold (empty) cache and a warm one, interleaved so load drifts hit all three alike;
median and best of several runs of the whole process.

Usage: python benchmarks/template_cache.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "validate (all games)": ["validate", "--no-cache"],  # the checks run: templates compile
    "build whisky-game": ["build", "whisky-game"],
    "build tokaido": ["build", "tokaido"],
}


def _run(args: list[str], cache: str) -> float:
    env = {**os.environ, "PLAYSET_CACHE": cache}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "toolkit", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    out = tempfile.mkdtemp()
    for name, command in COMMANDS.items():
        args = [*command, "--out", out] if command[0] == "build" else command
        warm = tempfile.mkdtemp()
        _run(args, warm)
        times: dict[str, list[float]] = {"none": [], "cold": [], "warm": []}
        for _ in range(runs):
            times["none"].append(_run(args, "/dev/null/no-cache"))  # cannot be made: no cache
            times["cold"].append(_run(args, tempfile.mkdtemp()))
            times["warm"].append(_run(args, warm))
        shown = ", ".join(
            f"{label} {statistics.median(t):.2f} s (best {min(t):.2f})"
            for label, t in times.items()
        )
        print(f"{name}: {shown}")


if __name__ == "__main__":
    main()
