"""What the A rules (legibility) add to a cold `validate` of the four bundled games.

Usage: python benchmarks/legibility_share.py [--runs 5]
Each run is a fresh process that loads and checks the four games as `playset validate` does,
timing the legibility family apart (CPU seconds: on a shared machine wall time measures the
others' load). Prints the family's share of the whole process, median of the runs.
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

RUN = """
import json, time
t0 = time.process_time()
from toolkit.checks import legibility
import toolkit.checks as checks
from toolkit.content.game import bundled_games, load_game
spent = [0.0]
real = legibility.check
def timed(game, facts):
    t = time.process_time()
    found = list(real(game, facts))
    spent[0] += time.process_time() - t
    return found
checks.FAMILIES[checks.FAMILIES.index(real)] = timed
for folder in bundled_games().values():
    checks.run_checks(load_game(folder))
print(json.dumps({"total": time.process_time() - t0, "legibility": spent[0]}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, check=True)
    totals, shares, family = [], [], []
    for _ in range(args.runs):
        done = subprocess.run(
            [sys.executable, "-c", RUN], env=env, capture_output=True, text=True, check=True
        )
        got = json.loads(done.stdout.strip().splitlines()[-1])
        totals.append(got["total"])
        family.append(got["legibility"])
        shares.append(got["legibility"] / (got["total"] - got["legibility"]))
    print(
        f"cold validate of the four games (in one process): {statistics.median(totals):.2f} s CPU"
    )
    print(f"of which the A rules: {statistics.median(family):.3f} s CPU")
    print(f"added to the rest: median {statistics.median(shares) * 100:.1f}% (target <= 10%)")


if __name__ == "__main__":
    main()
