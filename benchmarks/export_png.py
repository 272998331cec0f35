"""`export png` of every card of the four bundled games at 300 dpi in one language, against
`build` of the same cards (their cards and questions PDFs, home and press profiles).

Both are timed in one process, after a warm-up (fonts, layouts and templates loaded), as the
median of several runs; the PNG side includes drawing the press PDF it rasterises and writing
the files.

Usage: python benchmarks/export_png.py [--runs N] [--dpi 300] [--lang en]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from toolkit.content.game import bundled_games, load_game
from toolkit.fileio import atomic_write_bytes
from toolkit.render.artifacts.cards import cards_pdf
from toolkit.render.build import BuildOptions
from toolkit.render.exports.faces import each_deck, printed_decks


def build_cards(games, lang: str, per_card: bool) -> None:
    for game in games:
        for printed in printed_decks(game):
            cards_pdf(
                game, [printed.deck], lang, BuildOptions([lang], per_card=per_card), printed.trivia
            )


def export_cards(games, lang: str, dpi: float, out: Path) -> int:
    count = 0
    for game in games:
        for printed, images in each_deck(game, lang, dpi, bleed=False):
            for i, card in enumerate(printed.cards):
                back = images.backs[i] if printed.trivia else images.backs[0]
                atomic_write_bytes(
                    out / game.id / printed.id / f"{card.id}-front.png", images.fronts[i]
                )
                atomic_write_bytes(out / game.id / printed.id / f"{card.id}-back.png", back)
                count += 2
    return count


def timed(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dpi", type=float, default=300.0)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    games = [load_game(folder) for folder in bundled_games().values()]
    build_cards(games, args.lang, False)  # warm-up
    home = timed(lambda: build_cards(games, args.lang, False), args.runs)
    press = timed(lambda: build_cards(games, args.lang, True), args.runs)
    with tempfile.TemporaryDirectory() as out:
        count = export_cards(games, args.lang, args.dpi, Path(out))
        png = timed(lambda: export_cards(games, args.lang, args.dpi, Path(out)), args.runs)
    print(
        f"cards of 4 games, {args.lang}: build home {home:.2f} s, build press {press:.2f} s; "
        f"export png at {args.dpi:g} dpi {png:.2f} s for {count} images "
        f"({png / home:.1f}× home build, {png / press:.1f}× press build; median of {args.runs})"
    )


if __name__ == "__main__":
    main()
