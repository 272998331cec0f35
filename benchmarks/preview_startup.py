"""`playset preview` start-up to the first full page, warm: the median over several starts
after one start that filled the caches (template, build and gate caches in the user cache
folder), from process start to the page, its state, every card image of the first language
and every board and rulebook page image served (six requests at a time, as a browser).

Beside it, the yardstick: the same interpreter importing the preview command and exiting.
Target (issue 27): the Whisky Game ≤ 1.5 s warm.

Usage: python benchmarks/preview_startup.py [--game whisky-game] [--runs 5]
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent


def _latency():
    """benchmarks/preview_latency.py, whose `first_page` does the timed start."""
    spec = importlib.util.spec_from_file_location("preview_latency", HERE / "preview_latency.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def import_only() -> float:
    """Seconds for a process that imports the preview command and exits."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import toolkit.cli.preview"], check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="whisky-game")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    first_page = _latency().first_page
    cold, images, _ = first_page(args.game)  # fills the caches
    warm, cards = [], []
    for _ in range(args.runs):
        seconds, images, marks = first_page(args.game)
        warm.append(seconds)
        cards.append(marks["cards"])
    yardstick = statistics.median(import_only() for _ in range(3))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load}; {args.game}, {images} images on the first page")
    print(f"first start (filling caches): {cold:.2f} s")
    print(
        f"warm start → full page: median {statistics.median(warm):.2f} s "
        f"(min {min(warm):.2f}, max {max(warm):.2f}, {len(warm)} starts); "
        f"every card at {statistics.median(cards):.2f} s"
    )
    print(f"yardstick, importing the CLI only: {yardstick:.2f} s; target ≤ 1.5 s warm")


if __name__ == "__main__":
    main()
