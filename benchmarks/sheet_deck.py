"""Validating a 500-card deck kept in an XLSX sheet against the same deck in YAML, in one
process and one run (alternating, median of several loads each): the sheet should cost at most
1.3 times the YAML.

Usage: python benchmarks/sheet_deck.py [--cards 500] [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def make_game(folder: Path, cards: int) -> tuple[Path, Path]:
    """A `playset new` game twice: its deck grown to `cards` cards, as YAML and as XLSX."""
    from ruamel.yaml import YAML

    from toolkit.content.sheets.convert import plan
    from toolkit.scaffold.new import new_game

    yaml_game = folder / "yaml-game"
    new_game(yaml_game, "bench-deck", ["fr", "es", "en"])
    deck = yaml_game / "decks" / "cards.yaml"
    reader = YAML(typ="rt")
    data = reader.load(deck.read_text(encoding="utf-8"))
    first = data["cards"]
    grown = []
    for number in range(cards):
        card = dict(first[number % len(first)])
        card["id"] = f"{card['id']}-{number}"
        grown.append(card)
    data["cards"] = grown
    with deck.open("w", encoding="utf-8") as handle:
        reader.dump(data, handle)
    sheet_game = folder / "sheet-game"
    import shutil

    shutil.copytree(yaml_game, sheet_game)
    made = plan(sheet_game / "decks" / "cards.yaml", "cards.yaml", "xlsx")
    assert made.error is None and not made.diagnostics, made
    for path, body in made.files:
        path.write_bytes(body)
    manifest = sheet_game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("decks/cards.yaml", "decks/cards.xlsx"),
        encoding="utf-8",
    )
    (sheet_game / "decks" / "cards.yaml").unlink()
    return yaml_game, sheet_game


def validate(game: Path) -> float:
    from toolkit.checks import run_checks
    from toolkit.content.game import load_game

    start = time.perf_counter()
    found = run_checks(load_game(game))
    elapsed = time.perf_counter() - start
    assert not [d for d in found if d.severity == "error"], found[:3]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=500)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        yaml_game, sheet_game = make_game(Path(tmp), args.cards)
        validate(yaml_game), validate(sheet_game)  # warm: imports, validators, fonts
        yaml_times, sheet_times = [], []
        for _ in range(args.runs):
            yaml_times.append(validate(yaml_game))
            sheet_times.append(validate(sheet_game))
    y, s = statistics.median(yaml_times), statistics.median(sheet_times)
    print(
        f"validate, {args.cards}-card deck: YAML median {y * 1000:.0f} ms, XLSX median"
        f" {s * 1000:.0f} ms ({args.runs} runs each, alternating): ratio {s / y:.2f}"
        " (target at most 1.3)"
    )


if __name__ == "__main__":
    main()
