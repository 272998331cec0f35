"""`export png` of the four bundled games in one language against `build` (home profile) of the
same games and language: the whole of each (cards, questions, boards, rulebook), and the cards
alone (cards and questions: build's sheets against export's 300 dpi images).

Both are timed in one process, after a warm-up (fonts, layouts and templates loaded), as the
median wall and CPU time of several runs; the PNG side includes drawing the press PDFs it
rasterises and writing the files.

Usage: python benchmarks/export_png.py [--runs N] [--dpi 300] [--page-dpi 150] [--lang en]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from toolkit.content.game import bundled_games, load_game
from toolkit.render.build import BuildOptions, build_game
from toolkit.render.exports import exports


def build(games, lang: str, out: Path, only: tuple[str, ...] | None = None) -> None:
    for game in games:
        build_game(game, out, BuildOptions([lang], only=only))


def export(games, lang: str, dpi: float, page_dpi: float, out: Path) -> int:
    run = exports()["png"].run
    count = 0
    for game in games:
        options = exports()["png"].options([lang], dpi=dpi, page_dpi=page_dpi)
        count += len(run(game, out, options, lambda path: None, lambda done, total: None))
    return count


def export_cards(games, lang: str, dpi: float, out: Path) -> None:
    """Only the card images (what `export png` writes for the decks and question banks)."""
    from toolkit.fileio import atomic_write_bytes, output_folder
    from toolkit.render.exports.faces import card_pngs, deck_pages, printed_decks

    for game in games:
        for printed in printed_decks(game):
            folder = output_folder(out, game.id, printed.id)
            pages = deck_pages(game, printed, lang, dpi, bleed=False)
            for card, front, back in card_pngs(printed, pages):
                atomic_write_bytes(folder / f"{card.id}-front.png", front)
                atomic_write_bytes(folder / f"{card.id}-back.png", back)


def timed(fn, runs: int) -> tuple[float, float]:
    """The median wall time and CPU time (this process's, all its threads) of `fn`: on a
    shared machine the wall time measures the neighbours as much as the work, the CPU time
    does not (but counts the PNG threads' work even when they run side by side)."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def ratio(name: str, png: tuple[float, float], build: tuple[float, float]) -> str:
    return (
        f"{name}: build {build[0]:.2f} s wall, {build[1]:.2f} s CPU; export png "
        f"{png[0]:.2f} s wall, {png[1]:.2f} s CPU = {png[0] / build[0]:.1f}× wall, "
        f"{png[1] / build[1]:.1f}× CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dpi", type=float, default=300.0)
    parser.add_argument("--page-dpi", type=float, default=150.0)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    games = [load_game(folder) for folder in bundled_games().values()]
    cards = ("cards", "questions")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build(games, args.lang, out / "warm")  # warm-up
        whole = timed(lambda: build(games, args.lang, out / "build"), args.runs)
        sheets = timed(lambda: build(games, args.lang, out / "cards", cards), args.runs)
        count = export(games, args.lang, args.dpi, args.page_dpi, out / "png")
        png = timed(
            lambda: export(games, args.lang, args.dpi, args.page_dpi, out / "png"), args.runs
        )
        images = timed(lambda: export_cards(games, args.lang, args.dpi, out / "img"), args.runs)
    print(
        f"4 games, {args.lang}, {args.dpi:g} dpi cards, {args.page_dpi:g} dpi pages, "
        f"{count} files, median of {args.runs}:"
    )
    print(ratio("everything", png, whole))
    print(ratio("cards alone", images, sheets))


if __name__ == "__main__":
    main()
