"""The rulebook's card reference takes its columns from every card of a deck and from the
deck's `labels:` (fields and params), and prints an empty cell where a card has no value."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from toolkit.content.game import load_game
from toolkit.render.card_reference import Column, reference_columns

LABELS = "labels:\n  points:\n    en: Glory\n  steps:\n    en: Steps\n"


def _new_game(run_cli, tmp_path: Path, labels: str = "", first_points: bool = False) -> Path:
    """The starter game (its first card has no points), with `labels` on its deck and, with
    `first_points`, the card that has points moved first."""
    result = run_cli("new", "my-game", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "my-game"
    deck = folder / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    head, cards = text.split("cards:\n", 1)
    if first_points:
        items = ["  - id:" + item for item in cards.split("  - id:")[1:]]
        treasure = next(item for item in items if "points:" in item)
        cards = treasure + "".join(item for item in items if item is not treasure)
    deck.write_text(head + labels + "cards:\n" + cards, encoding="utf-8")
    return folder


def _reference_text(run_cli, folder: Path, out: Path) -> str:
    result = run_cli("build", str(folder), "--out", str(out), "--only", "rulebook")
    assert result.exit_code == 0, result.output
    pages = PdfReader(out / "my-game" / "en" / "rulebook.pdf").pages
    text = "\n".join(page.extract_text() for page in pages)
    return text.split("Card reference")[-1]


def test_columns_come_from_any_card_and_the_labels(run_cli, tmp_path):
    folder = _new_game(run_cli, tmp_path, LABELS)
    deck = load_game(folder).decks[0].model
    assert deck is not None and deck.cards[0].points is None
    assert reference_columns(deck) == [Column("points"), Column("steps", param=True)]
    cells = [[column.value(card.model_dump()) for column in reference_columns(deck)]
             for card in deck.cards]  # fmt: skip
    assert cells == [["", "2"], ["3", ""], ["", ""]]


def test_a_first_card_without_points_still_gets_the_points_column(run_cli, tmp_path):
    folder = _new_game(run_cli, tmp_path, LABELS)
    text = _reference_text(run_cli, folder, tmp_path / "out")
    assert "Glory" in text and "Steps" in text
    assert "None" not in text


def test_cards_without_points_print_an_empty_cell_not_none(run_cli, tmp_path):
    folder = _new_game(run_cli, tmp_path, first_points=True)
    text = _reference_text(run_cli, folder, tmp_path / "out")
    assert "Points" in text
    assert "None" not in text


def test_a_label_for_a_param_no_card_has_is_a_diagnostic(run_cli, tmp_path):
    folder = _new_game(run_cli, tmp_path, "labels:\n  stpes:\n    en: Steps\n")
    result = run_cli("validate", str(folder))
    assert result.exit_code == 1
    assert "'stpes' is not a card field or param" in result.output
    assert "params: points, steps" in result.output
