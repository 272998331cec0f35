"""100 text-only poker cards (title + body in three languages) on A4 3×3 with crop marks:
time the whole process of making the PDF (load, fit, draw, save), median of several runs.

With `--game-font DIR`, the game brings the TrueType files of DIR in its `fonts/` and names
their family in game.yaml's `style.font`, so every card prints in a game font: compare with
the same run without it (the shipped Noto Sans subset).

Usage: python benchmarks/cards_100.py [--runs N] [--game-font DIR] [--floor PATH/raw_cards.py]
                                      [--before TREE] [--caches templates|none|all]

`--floor` names a script that draws the same 100 cards straight with reportlab (no layout
engine, no validation: `raw_cards.py OUT.pdf FONT.ttf`); it is timed in the same run and each
figure is also printed as a ratio of it, the yardstick that cancels the machine's speed.
`--before TREE` times the same two builds with another checkout's toolkit (its folder first on
PYTHONPATH) in the same run, with their ratios to the same floor.
`--caches` says what a run may reuse: `templates` (the default, a cold build: PLAYSET_NO_CACHE=1,
so no kept findings and no kept PDFs, only the compiled Jinja templates of the user cache),
`none` (not even those: the cache folder is unusable, every template is compiled) or `all`
(the environment as it is: a build answered from the build cache is a copy).
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
import textwrap
import time
from pathlib import Path

BODY = {
    "fr": "Avancez de {steps} cases, puis piochez une carte\u202f; si vous passez par un pub, "
    "échangez deux jetons contre un jeton de votre choix.",
    "es": "Avanza {steps} casillas y roba una carta; si pasas por un pub, cambia dos fichas "
    "por una ficha a tu elección.",
    "en": "Move {steps} spaces, then draw a card; if you pass a pub, trade two tokens for one "
    "token of your choice.",
}


def add_game_font(game: Path, folder: Path) -> str:
    """Copy `folder`'s .ttf files into the game's fonts/ and make their family the game's."""
    from fontTools.ttLib import TTFont

    files = sorted(folder.glob("*.ttf"))
    if not files:
        raise SystemExit(f"no .ttf files in {folder}")
    (game / "fonts").mkdir()
    for path in files:
        shutil.copyfile(path, game / "fonts" / path.name)
    family = TTFont(files[0], lazy=True)["name"].getDebugName(1)
    with (game / "game.yaml").open("a") as manifest:
        manifest.write(f"style:\n  font: {family}\n")
    return family


def make_game(root: Path) -> Path:
    game = root / "bench"
    (game / "decks").mkdir(parents=True)
    (game / "game.yaml").write_text(
        textwrap.dedent(
            """\
            id: bench
            title: {fr: Banc d'essai, es: Banco de pruebas, en: Bench}
            languages: [fr, es, en]
            source_language: fr
            players: {min: 2, max: 4}
            rules: {}
            files:
              decks: [decks/cards.yaml]
            """
        )
    )
    lines = [
        "id: cards",
        "kind: actions",
        "name: {fr: Actions, es: Acciones, en: Action cards}",
        "size: poker",
        "cards:",
    ]
    for i in range(100):
        lines += [
            f"  - id: card-{i}",
            f"    name: {{fr: Carte {i}, es: Carta {i}, en: Card {i}}}",
            "    text:",
            *(f'      {lang}: "{text}"' for lang, text in BODY.items()),
            f"    params: {{steps: {i % 6 + 1}}}",
        ]
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n")
    return game


Timing = tuple[list[float], list[float], list[str]]


def _timed(jobs: list[tuple[list[str], dict[str, str], int]], cwd: Path) -> list[Timing]:
    """Wall and CPU seconds of each job's runs of its command, and each run's stdout. The
    jobs take turns, one run each per round: on a machine others share, a change of load
    falls on every figure alike instead of on whichever was timed at that moment."""
    results: list[Timing] = [([], [], []) for _ in jobs]
    for turn in range(max(runs for _, _, runs in jobs)):
        for (command, env, runs), (walls, cpus, outputs) in zip(jobs, results, strict=True):
            if turn >= runs:
                continue
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if done.returncode:
                raise SystemExit(done.stderr)
            outputs.append(done.stdout)
    return results


def _toolkit_at(python: str, env: dict[str, str], cwd: Path) -> str:
    """The folder of the toolkit a command run with `env` imports."""
    code = "import toolkit, os; print(os.path.dirname(toolkit.__file__))"
    done = subprocess.run([python, "-c", code], env=env, cwd=cwd, capture_output=True, text=True)
    return done.stdout.strip() or done.stderr.strip()


def _line(label: str, walls: list[float], cpus: list[float]) -> str:
    return (
        f"{label}: median {statistics.median(walls):.3f} s "
        f"(min {min(walls):.3f} s, CPU median {statistics.median(cpus):.3f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="interpreter of the install to time (default: this one; e.g. a venv where "
        "playset was installed from a wheel rather than in editable mode)",
    )
    parser.add_argument(
        "--game-font",
        type=Path,
        help="a folder of one family's four .ttf styles, copied into the game's fonts/",
    )
    parser.add_argument("--floor", type=Path, help="raw reportlab script to time beside")
    parser.add_argument("--before", type=Path, help="another checkout to time beside")
    parser.add_argument(
        "--caches",
        choices=("templates", "none", "all"),
        default="templates",
        help="what a run may reuse (default: compiled templates only, a cold build)",
    )
    args = parser.parse_args()
    python = os.path.abspath(args.python) if os.sep in args.python else args.python
    with tempfile.TemporaryDirectory() as tmp:
        game = make_game(Path(tmp))
        if args.game_font is not None:
            print(f"game font: {add_game_font(game, args.game_font)}")
        out = Path(tmp) / "out"
        cli = [python, "-m", "toolkit", "build", str(game), "--lang", "fr", "--out"]
        code = (
            "import sys, time; t=time.perf_counter();"
            "from pathlib import Path;"
            "from toolkit.content.game import load_game;"
            "from toolkit.render.build import BuildOptions, build_game;"
            "u=time.perf_counter();"
            f"g=load_game(Path({str(game)!r}));"
            f"build_game(g, Path({str(out)!r}), BuildOptions(['fr']));"
            "print(u-t, time.perf_counter()-u)"
        )
        # Python's default: compiled modules are cached (a sandbox that sets
        # PYTHONDONTWRITEBYTECODE would recompile the toolkit on every run); one warm-up run.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        # Every command runs in the temporary folder: `python -m toolkit` puts its working
        # folder first on sys.path, so run from a checkout it would import that checkout's
        # toolkit whatever PYTHONPATH or --before say. Relative paths are made absolute first.
        here = Path(tmp)
        search = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        if search:
            env["PYTHONPATH"] = os.pathsep.join(search)
        if args.caches != "all":
            env["PLAYSET_NO_CACHE"] = "1"
        if args.caches == "none":  # a cache folder inside a file cannot be made: no cache
            (Path(tmp) / "no-cache").write_text("")
            env["PLAYSET_CACHE"] = str(Path(tmp) / "no-cache" / "x")
        print(f"caches: {args.caches}")
        print(f"toolkit timed: {_toolkit_at(python, env, here)}")
        subprocess.run([*cli, str(out)], env=env, cwd=here, capture_output=True, check=True)
        few = max(3, args.runs // 3)
        floor = "import typer, pydantic, reportlab.pdfgen.canvas, jinja2.sandbox, ruamel.yaml"
        jobs = [
            ([*cli, str(out)], env, args.runs),
            ([*cli[:-3], "--out", str(out)], env, few),
            ([python, "-c", code], env, args.runs),
            ([python, "-c", floor], env, args.runs),
            ([python, "-c", "pass"], env, args.runs),
        ]
        if args.floor is not None:
            font = Path(__file__).resolve().parent.parent / "templates" / "fonts"
            raw_cmd = [python, str(args.floor.resolve()), str(Path(tmp) / "raw.pdf")]
            jobs.append(([*raw_cmd, str(font / "NotoSans-Regular.ttf")], env, args.runs))
        if args.before is not None:
            path = os.pathsep.join([str(args.before.resolve()), env.get("PYTHONPATH", "")])
            old = dict(env, PYTHONPATH=path.rstrip(os.pathsep))
            if args.caches == "templates":
                # its own user cache: two toolkits whose kept code differs rewrote each
                # other's entry, and each then compiled again what the other dropped
                old["PLAYSET_CACHE"] = str(Path(tmp) / "before-cache")
            subprocess.run([*cli, str(out)], env=old, cwd=here, capture_output=True, check=True)
            print(f"toolkit before: {_toolkit_at(python, old, here)}")
            jobs.append(([*cli, str(out)], old, args.runs))
            jobs.append(([*cli[:-3], "--out", str(out)], old, few))
        timed = _timed(jobs, here)
        (walls, cpus, _), (all_walls, all_cpus, _), (lib_walls, lib_cpus, outputs) = timed[:3]
        (floor_walls, floor_cpus, _), (bare_walls, bare_cpus, _) = timed[3:5]
        raw: Timing | None = timed[5] if args.floor is not None else None
        then = timed[6:] if args.floor is not None else timed[5:]
        imports = [float(o.split()[0]) for o in outputs]
        inproc = [float(o.split()[1]) for o in outputs]
        pdf = out / "bench" / "fr" / "cards.pdf"
        print(f"100 poker cards, A4 3×3, crop marks: {pdf.stat().st_size:,} bytes")
        print(_line("`playset build GAME --lang fr`, whole process", walls, cpus))
        print(_line("the same, all three languages (3 PDFs)", all_walls, all_cpus))
        print(_line("library only (python -c: load_game + build_game)", lib_walls, lib_cpus))
        print(f"  of which imports: median {statistics.median(imports):.3f} s")
        print(f"  load+fit+draw+save in process: median {statistics.median(inproc):.3f} s")
        print("machine yardsticks, same moment:")
        print(_line("  python -c pass", bare_walls, bare_cpus))
        print(
            _line(
                "  importing typer, pydantic, reportlab, jinja2, ruamel only",
                floor_walls,
                floor_cpus,
            )
        )
        if raw is not None:
            floor_wall, floor_cpu = statistics.median(raw[0]), statistics.median(raw[1])
            print(_line("  the floor: the same cards drawn straight with reportlab", *raw[:2]))
            for label, times, cpu_times in (
                ("one language", walls, cpus),
                ("three languages", all_walls, all_cpus),
            ):
                ratio = statistics.median(times) / floor_wall
                cpu_ratio = statistics.median(cpu_times) / floor_cpu
                print(
                    f"`playset build`, {label}: {ratio:.2f}× the floor (median wall), "
                    f"{cpu_ratio:.2f}× (median CPU)"
                )
            for label, (times, cpu_times, _) in zip(
                ("one language", "three languages"), then, strict=False
            ):
                ratio = statistics.median(times) / floor_wall
                cpu_ratio = statistics.median(cpu_times) / floor_cpu
                print(
                    _line(f"before ({args.before}), {label}", times, cpu_times)
                    + f" = {ratio:.2f}× the floor (wall), {cpu_ratio:.2f}× (CPU)"
                )


if __name__ == "__main__":
    main()
