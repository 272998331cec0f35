"""`playset build` of all four bundled games after editing one file of the Whisky Game, beside
a full build and the import-only yardstick, in one run.

Copies of the four bundled games are built together (`playset build A B C D`) with the build
cache on. Prints the median wall time (and CPU) of:
- the yardstick: a fresh process importing typer, pydantic, reportlab, jinja2 and ruamel only;
- a build after editing, in the Whisky Game's copy, one card's text (what reads it is drawn
  again: its deck's cards.pdf and the rulebooks, which print every card's text, in each
  language), one layout's colour (the cards files only) and the French rulebook (that file
  only); every run edits the file again, so every run is a miss; the other games and the
  Whisky Game's other files are written as kept;
- a build with nothing changed (every file as the last build kept it);
- a full build (`--no-cache`: everything checked and drawn);
each as a ratio of the yardstick and of the full build, measured at the same moment (the
machine may be busy: compare ratios, not seconds). With `--before TREE`, each edited build
is timed with another checkout's toolkit too (its folder first on PYTHONPATH; copies and a
cache of its own), runs interleaved.

Usage: python benchmarks/build_edit.py [--runs N] [--before TREE]
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
GAMES = ("whisky-game", "drinking-heroes", "muckle-stoater", "tokaido")
EDITS = {  # what is edited in the Whisky Game's copy: a file, and the two texts it flips between
    "one Whisky Game card": (
        "decks/characters.yaml",
        (
            "en: Your Glenlivet bottle scores +{amount} points.",
            "en: Your Glenlivet bottle scores +{amount} extra points.",
        ),
    ),
    "one Whisky Game layout (a colour)": (
        "layouts/wg-special.yaml",
        ('fill: "#fffaf1"', 'fill: "#fffaf2"'),
    ),
    "the Whisky Game's French rulebook": (
        "rulebook/fr.md",
        ("## À propos des simulations\n", "## À propos des parties simulées\n"),
    ),
}


def _flip(path: Path, texts: tuple[str, str]) -> Callable[[], None]:
    """An edit of `path` that swaps its text between texts[0] and texts[1] each time."""
    original = path.read_text(encoding="utf-8")
    if original.count(texts[0]) != 1:
        raise SystemExit(f"{path}: the text to edit is gone: {texts[0]!r}")
    flips = [0]

    def edit() -> None:
        flips[0] += 1
        path.write_text(original.replace(texts[0], texts[flips[0] % 2]), encoding="utf-8")

    return edit


def _env(cache: Path, tree: Path) -> dict[str, str]:
    """The cache in `cache`, the toolkit of `tree` (first on the path: the runs start in a
    temporary folder, so no checkout comes first by being the current folder)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.pop("PLAYSET_NO_CACHE", None)
    env["PLAYSET_CACHE"] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run (in the cache's folder)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    where = Path(env["PLAYSET_CACHE"]).parent
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=where)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)}:\n{done.stderr}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)

        def setup(
            name: str, env: dict[str, str]
        ) -> tuple[list[str], dict[str, Callable[[], None]]]:
            """Copies of the four games in `name`, and the edits of the Whisky Game's copy
            (each toolkit edits its own copies: each edit is new to its cache)."""
            copies = []
            for game in GAMES:
                shutil.copytree(REPO / "content" / game, root / name / game)
                copies.append(str(root / name / game))
            edits = {
                what: _flip(root / name / "whisky-game" / rel, texts)
                for what, (rel, texts) in EDITS.items()
            }
            build = [python, "-m", "toolkit", "build", *copies, "--out", str(root / "out")]
            _run(build, env)  # warm-up: fills the cache
            return build, edits

        env = _env(root / "cache", REPO)
        build, edits = setup("games", env)
        old = _env(root / "cache-before", args.before) if args.before else None
        build_old, edits_old = setup("games-before", old) if old else (build, edits)
        timed: list[tuple[str, list[str], dict[str, str], Callable[[], None] | None]] = [
            (
                "yardstick: importing typer, pydantic, reportlab, jinja2, ruamel",
                [python, "-c", YARDSTICK],
                env,
                None,
            ),
        ]
        for what in EDITS:
            timed.append((f"build, all four, after editing {what}", build, env, edits[what]))
            if old is not None:
                label = f"build, all four, after editing {what}, with the --before toolkit"
                timed.append((label, build_old, old, edits_old[what]))
        # right after a build by this toolkit: nothing changed since
        timed.insert(2, ("build, all four (nothing changed)", build, env, None))
        timed.append(("full build, all four (--no-cache)", [*build, "--no-cache"], env, None))
        rows: dict[str, list[tuple[float, float]]] = {}
        for _ in range(args.runs):  # interleaved: each row sees the same machine
            for label, command, each, before in timed:
                if before is not None:
                    before()
                rows.setdefault(label, []).append(_run(command, each))
        floor = statistics.median(w for w, _ in rows[timed[0][0]])
        full = statistics.median(w for w, _ in rows[timed[-1][0]])
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.runs} runs each,")
        print("medians (wall; CPU), as ratios of the yardstick and of the full build:")
        for label, runs in rows.items():
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            print(
                f"  {label}: {wall:.3f} s; CPU {cpu:.3f} s"
                f" = {wall / floor:.2f}x the yardstick, {wall / full:.2f}x the full build"
            )


if __name__ == "__main__":
    main()
