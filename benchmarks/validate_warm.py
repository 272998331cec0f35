"""`playset validate` with its findings cache, beside the import-only yardstick, in one run.

Prints the median wall time (and CPU) of:
- the yardstick: a fresh process importing typer, pydantic, reportlab, jinja2 and ruamel only;
- a warm `validate` of an unchanged bundled game (the Whisky Game), and of all four;
- `validate` of a copy of the Whisky Game after editing one card's text (every run writes a
  text no earlier run wrote, so nothing kept by its bytes or its text is found: a designer's
  new sentence, not a flip between two the cache has seen);
- a cold `validate` of all four bundled games (no findings kept; compiled templates are), the
  same checking one game after another (`--workers 1`; by default the games are checked at
  once on the machine's cores, unless its load average says it is busy), and the same with
  `--no-cache`;
- `build` of all four with nothing changed (the files the last build kept), and with
  `--no-cache` (everything checked and drawn);
and each as a ratio of the yardstick measured at the same moment: each run of a row follows
a run of the yardstick, and the row's ratio is of its own yardstick runs' median (on a
shared machine the load of one row's moment is not another's: compare ratios, not seconds).
The ratio is given of the wall time and of the CPU time (user and system: what a busy
machine's waiting leaves out). Then the heavy libraries a warm run imports (`-X importtime`).

Usage: python benchmarks/validate_warm.py [--runs N]
Issue 27's targets: warm <= 1.3x the yardstick; after one card edit <= 2x; build of all four
with nothing changed <= 1.5x.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
YARDSTICK = "import typer, pydantic, reportlab.pdfgen.canvas, jinja2.sandbox, ruamel.yaml"
HEAVY = ("pydantic", "ruamel.yaml", "jinja2", "reportlab", "babel", "toolkit.checks")
CARD = "en: Your Glenlivet bottle scores +{amount} points."
WORDS = [
    "extra",
    "bonus",
    "added",
    "further",
    "spare",
    "fresh",
    "fine",
    "solid",
    "full",
    "whole",
    "fair",
    "rare",
    "big",
    "good",
    "great",
    "neat",
    "nice",
    "sound",
    "sweet",
    "grand",
    "proud",
    "clear",
    "noble",
    "royal",
    "rich",
    "smooth",
    "bright",
    "warm",
    "golden",
    "handsome",
]


def edited(i: int) -> str:
    """Run `i`'s text of the card: two different words of `WORDS` (870 pairs), so no two runs
    of a benchmark write the same bytes (a file's parse and model are kept by its bytes, a
    text's fit by its text), with no digit (the other languages would then differ in their
    numbers) and no word twice (a typing slip the checks point out)."""
    size = len(WORDS)
    first, second = WORDS[i % size], WORDS[(i + 1 + i // size % (size - 1)) % size]
    return f"en: Your Glenlivet bottle scores +{{amount}} {first} {second} points."


def _once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `command`."""
    start_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    end_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    return wall, end_cpu.ru_utime + end_cpu.ru_stime - start_cpu.ru_utime - start_cpu.ru_stime


def _timed(
    command: list[str], env: dict[str, str], runs: int, before: Callable[[int], None] | None
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Wall and CPU seconds of `runs` runs, and of the yardstick run just before each;
    `before(i)` runs untimed ahead of run i."""
    walls, cpus, yard_walls, yard_cpus = [], [], [], []
    for i in range(runs):
        wall, cpu = _once([sys.executable, "-c", YARDSTICK], env)
        yard_walls.append(wall)
        yard_cpus.append(cpu)
        if before is not None:
            before(i)
        wall, cpu = _once(command, env)
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus, yard_walls, yard_cpus


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    python = sys.executable
    validate = [python, "-m", "toolkit", "validate"]
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE",)}
        env.pop("PLAYSET_NO_CACHE", None)
        env["PLAYSET_CACHE"] = str(Path(tmp) / "cache")
        copy = Path(tmp) / "whisky-game"
        shutil.copytree(REPO / "content" / "whisky-game", copy)
        deck = copy / "decks" / "characters.yaml"
        text = deck.read_text(encoding="utf-8")
        if CARD not in text:
            raise SystemExit(f"{deck}: the card text to edit is gone: {CARD!r}")

        def edit(i: int) -> None:
            deck.write_text(text.replace(CARD, edited(i)), encoding="utf-8")

        def empty_cache(i: int) -> None:
            shutil.rmtree(Path(tmp) / "cache" / "playset" / "validate", ignore_errors=True)

        build = [python, "-m", "toolkit", "build", "--out", str(Path(tmp) / "out")]
        for command in ([*validate, "whisky-game"], validate, [*validate, str(copy)], build):
            subprocess.run(command, env=env, capture_output=True)  # warm-up, fills the cache
        rows = [
            (
                "yardstick: importing typer, pydantic, reportlab, jinja2, ruamel",
                [python, "-c", YARDSTICK],
                None,
            ),
            ("python -c pass", [python, "-c", "pass"], None),
            ("warm validate whisky-game (unchanged)", [*validate, "whisky-game"], None),
            ("warm validate, all four (unchanged)", validate, None),
            ("validate whisky-game copy after editing one card", [*validate, str(copy)], edit),
            ("cold validate, all four (no findings kept)", validate, empty_cache),
            (
                "the same, one game after another (--workers 1)",
                [*validate, "--workers", "1"],
                empty_cache,
            ),
            ("validate --no-cache, all four", [*validate, "--no-cache"], None),
            ("build, all four (unchanged)", build, None),
            ("build --no-cache, all four", [*build, "--no-cache"], None),
        ]
        results = []
        for label, command, before in rows:
            slow = before is empty_cache or "--no-cache" in command and "build" in command
            runs = max(3, args.runs // 3) if slow else args.runs
            results.append((label, *_timed(command, env, runs, before)))
        print(
            f"python {sys.version.split()[0]}, {args.runs} runs each, medians (wall; CPU),"
            " each run after a run of the yardstick:"
        )
        for label, walls, cpus, yard_walls, yard_cpus in results:
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            print(
                f"  {label}: {wall:.3f} s; CPU {cpu:.3f} s"
                f" = {wall / statistics.median(yard_walls):.2f}x the yardstick"
                f" (CPU {cpu / statistics.median(yard_cpus):.2f}x)"
            )
        done = subprocess.run(
            [python, "-X", "importtime", "-m", "toolkit", "validate", "whisky-game"],
            env=env,
            capture_output=True,
            text=True,
        )
        imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
        print(
            "a warm run imports: "
            + ", ".join(f"{m} {'yes' if m in imported else 'no'}" for m in HEAVY)
        )


if __name__ == "__main__":
    main()
