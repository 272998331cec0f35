"""`playset build` for every bundled game in every language: wall time (median of several
runs) and peak memory of the whole process.

Usage: python benchmarks/build_all.py [--runs N]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "toolkit", "build", "--out", out], capture_output=True
            )
            times.append(time.perf_counter() - start)
            if done.returncode:
                raise SystemExit(done.stderr.decode())
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"build, 4 games × 3 languages: median {statistics.median(times):.2f} s "
        f"(min {min(times):.2f}, max {max(times):.2f}, {args.runs} runs); "
        f"peak memory {peak:.0f} MiB"
    )


if __name__ == "__main__":
    main()
