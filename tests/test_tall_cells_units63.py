"""The tall rows of a table (card_reference_rows.tall_cells: the card reference's parts, the
rulebook's own tables) are kept between `validate` runs (unit kind `tall-cells`) when no row
needed the layout: named by the cells, the two fonts, the icon names and the width taken
off a page, so a table whose cells did not change is not measured again after a card edit
(the other languages' parts of the edited deck), and any other table is."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from toolkit.checks import card_reference_rows as rows
from toolkit.content import unit_cache
from toolkit.content.unit_cache import Units
from toolkit.render.icons import BUILTIN
from toolkit.render.rulebook_style import Faces

HEAD = [("Card", True), ("Text", True)]
PLAIN = [HEAD, [("short", True), ("A line.", False)], [("long", True), ("word " * 8000, False)]]


def _never_laid():
    raise AssertionError("these rows are settled without the layout")


@pytest.fixture
def worked(monkeypatch) -> list[int]:
    """How many tables were measured (not read back)."""
    count = [0]
    real = rows._tall_cells

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(rows, "_tall_cells", counted)
    return count


def _tall(units: Units | None, plain=PLAIN, faces=Faces(), icons=BUILTIN, less=0.0):
    if units is None:
        return list(rows.tall_cells(plain, faces, icons, _never_laid, less))
    with unit_cache.activated(units):
        return list(rows.tall_cells(plain, faces, icons, _never_laid, less))


def _kept(units: Units) -> Units:
    return Units(json.loads(json.dumps(units.used)))  # as the next run reads them


def test_a_table_measured_once_is_read_back(worked) -> None:
    without = _tall(None)
    assert [index for index, *_ in without] == [2], "the long row is too tall"
    first = Units()
    assert _tall(first) == without
    assert worked[0] == 2
    assert _tall(_kept(first)) == without
    assert worked[0] == 2, "read back, not measured"


def test_another_cell_font_icon_set_or_width_is_measured_again(worked) -> None:
    first = Units()
    _tall(first)
    assert worked[0] == 1
    longer = [HEAD, PLAIN[1], [("long", True), ("word " * 16000, False)]]
    short = [HEAD, PLAIN[1], [("long", True), ("A word.", False)]]
    assert _tall(_kept(first), plain=short) == _tall(None, plain=short) == []
    assert _tall(_kept(first), plain=longer) == _tall(None, plain=longer)
    bold = replace(Faces(), regular="bold")
    assert _tall(_kept(first), faces=bold) == _tall(None, faces=bold)
    fewer = replace(BUILTIN, names=frozenset())
    assert _tall(_kept(first), icons=fewer) == _tall(None, icons=fewer)
    assert _tall(_kept(first), less=200.0) == _tall(None, less=200.0)
    assert worked[0] == 1 + 2 * 5, "each measured with the units as without them"


def test_a_table_the_layout_settled_is_not_kept(monkeypatch) -> None:
    calls = [0]

    def laid_out(plain, bold, regular, icons, laid, less):
        calls[0] += 1
        laid()  # a row only the layout settles
        return iter([(2, 1, 900.0, ["a4"])])

    monkeypatch.setattr(rows, "_tall_cells", laid_out)
    first = Units()
    with unit_cache.activated(first):
        assert list(rows.tall_cells(PLAIN, Faces(), BUILTIN, lambda: None)) == [
            (2, 1, 900.0, ["a4"])
        ]
    assert first.used == {}
    with unit_cache.activated(_kept(first)):
        list(rows.tall_cells(PLAIN, Faces(), BUILTIN, lambda: None))
    assert calls[0] == 2
