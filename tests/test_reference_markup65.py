"""The card reference's inline markup budget (card_reference_bounds._markup_past) counts the
pieces every row prints together in C, over the cells joined by line breaks, and goes row by
row only when the total takes the rulebook past `MAX_INLINE_MARKUP`: the same finding, at the
same row, as counting each cell on its own (~0.2 ms a language of a card edit's run)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.checks import card_reference_bounds as bounds
from toolkit.content.templating import INLINE_ICON
from toolkit.render import rulebook_source


class _Everywhere:
    def __contains__(self, path: object) -> bool:
        return True


class _Doc:
    spans = _Everywhere()

    def span(self, path: Any) -> Any:
        return path


def _decks(rows: list[list[list[str]]]) -> Any:
    return [(SimpleNamespace(rel=f"d{i}.yaml", doc=_Doc()), deck) for i, deck in enumerate(rows)]


def _cell_by_cell(decks: Any, text: str, most: int) -> list[Any]:
    """The budget as counted before: each cell's pieces on its own."""
    rows, total = [], 0
    for loaded, found in decks:
        for index, row in enumerate(found):
            pieces = 0
            for cell in row:
                pieces += sum(cell.count(ch) for ch in bounds._MARKUP_CHARS)
                if ":" in cell:
                    pieces += sum(1 for _ in INLINE_ICON.finditer(cell))
            if pieces:
                rows.append((loaded.rel, index, pieces))
                total += pieces
    if not total:
        return []
    count = rulebook_source.inline_markup_count(text, most - total)
    for rel, index, pieces in rows:
        count += pieces
        if count > most:
            return [(rel, ("cards", index, "text"))]
    return []


_CELL = st.text(alphabet="ab :_&<>\u202f\nx", max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.lists(_CELL, min_size=1, max_size=4), max_size=4), max_size=3),
    st.text(alphabet="ab *_&<>:\n", max_size=30),
    st.integers(min_value=0, max_value=40),
)
def test_the_budget_finds_what_counting_each_cell_found(rows, text, most) -> None:
    decks = _decks(rows)
    real = rulebook_source.MAX_INLINE_MARKUP
    rulebook_source.MAX_INLINE_MARKUP = most
    try:
        found = [(rel, span) for rel, span, _ in bounds._markup_past(decks, text)]
    finally:
        rulebook_source.MAX_INLINE_MARKUP = real
    assert found == _cell_by_cell(decks, text, most)


class _Cell(str):
    """A cell that counts the searches made in it."""

    counted = 0

    def count(self, *args: Any) -> int:  # type: ignore[override]
        _Cell.counted += 1
        return super().count(*args)


def test_cells_under_the_budget_are_not_counted_one_by_one() -> None:
    rows = [[[_Cell("a & b"), _Cell(":die: <x>")], [_Cell("plain"), _Cell("line\nbreak")]]]
    _Cell.counted = 0
    assert list(bounds._markup_past(_decks(rows), "some *text*")) == []
    assert _Cell.counted == 0
    assert bounds._pieces(["a & b", ":die: <x>", "plain", "line\nbreak"]) == 5
