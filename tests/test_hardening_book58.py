"""Rulebook costs that no bound priced (probe 51, issue 33): a table's cells, the generated
card reference's columns, rows and headings; and the i18n segmenter's work per table cell."""

from __future__ import annotations

import pytest

from toolkit.i18n import markdown_units


def _table(rows: int, columns: int = 5) -> str:
    head = "|" + " h |" * columns + "\n" + "|---" * columns + "|\n"
    return head + ("|" + " x |" * columns + "\n") * rows


def _line_reads(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    """How many times the segmenter reads a piece's line: its work per cell."""
    reads = [0]

    class Counted(markdown_units.Piece):
        def __getattribute__(self, name: str) -> object:
            if name == "line":
                reads[0] += 1
            return object.__getattribute__(self, name)

    monkeypatch.setattr(markdown_units, "Piece", Counted)
    units = markdown_units.segment(text)
    assert sum(u.kind == "cell" for u in units) > 0
    return reads[0]


def test_table_cells_are_segmented_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # P51-11: each cell scanned every piece found before it (O(cells²)): six 497×20 tables,
    # `i18n export` 51 s, `i18n status` 116 s
    small = _line_reads(monkeypatch, _table(100))
    large = _line_reads(monkeypatch, _table(400))
    assert large <= 5 * small  # four times the cells; a quadratic scan reads ~16 times more


def test_table_cells_keep_their_places() -> None:
    text = "| a | b \\| c | |\n|---|---|---|\n| a | a | a |\n\nPara | graph.\n"
    cells = [(u.text, u.pieces) for u in markdown_units.segment(text) if u.kind == "cell"]
    P = markdown_units.Piece
    assert cells == [
        ("a", (P(0, 2, 3),)),
        ("b \\| c", (P(0, 6, 12),)),
        ("", (P(0, 12, 12),)),
        ("a", (P(2, 2, 3),)),
        ("a", (P(2, 6, 7),)),
        ("a", (P(2, 10, 11),)),
    ]
