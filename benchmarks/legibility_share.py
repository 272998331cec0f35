"""What the A rules (legibility) add to a cold `validate` of the four bundled games.

Usage: python benchmarks/legibility_share.py [--runs 5]
Each run is a fresh process that loads and checks the four games as `playset validate` does,
once as it is and once with the A family left out (alternately, CPU seconds: on a shared
machine wall time measures the others' load). The family shares the faces it resolves and
the texts it fits with the print-fit check (whichever runs first pays for them), so what it
adds is the difference of the whole, not its own time. Results go in closing notes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

RUN = """
import sys, time
t0 = time.process_time()
import toolkit.checks as checks
from toolkit.checks.legibility import faces, meaning, printed
from toolkit.content.game import bundled_games, load_game
if sys.argv[1] == "without":
    for part in (faces, meaning, printed):
        part.check = lambda game: iter(())
for folder in bundled_games().values():
    checks.run_checks(load_game(folder))
print(time.process_time() - t0)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {"with": [], "without": []}
    for mode in times:  # warm-up: compiled modules written
        subprocess.run([sys.executable, "-c", RUN, mode], env=env, capture_output=True, check=True)
    for _ in range(args.runs):
        for mode, spent in times.items():
            done = subprocess.run(
                [sys.executable, "-c", RUN, mode], env=env, capture_output=True, text=True
            )
            spent.append(float(done.stdout.strip().splitlines()[-1]))
    with_a, without = statistics.median(times["with"]), statistics.median(times["without"])
    print(f"cold validate of the four games, one process, CPU median of {args.runs}:")
    print(f"  with the A rules {with_a:.2f} s, without {without:.2f} s")
    print(f"  the A rules add {(with_a / without - 1) * 100:.1f}% (target <= 10%)")


if __name__ == "__main__":
    main()
