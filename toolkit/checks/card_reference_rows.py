"""A card reference row taller than a page (R010): `build` lays a deck's part of the card
reference out as a table whose rows never split, so a card whose text (or labelled value)
wraps past a page's height in its column is something no page can hold, and `build` refused
the rulebook with no place to fix it (probe 53-L1: a 3,997-character text a face does not
print). Measured as `build` lays it out: the columns' widths from every cell
(toolkit.render.table_fit, as FitTable shares them) on each paper `build` offers, then a
bound on each row's lines; only a row those bounds cannot settle is laid out by reportlab
(toolkit.render.rulebook.reference_rows), so a validate imports no layout code for a deck
of ordinary texts. A table with a word wider than its column is not laid out (reportlab
breaks such a word slowly): its rows are said only when plainly too tall."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from toolkit.content.unit_cache import Units, active

if TYPE_CHECKING:
    from toolkit.render.card_reference import DeckReference, Printed
    from toolkit.render.rulebook_style import Faces


def tall_rows(
    table: DeckReference, lang: str, faces: Faces, icons: Any
) -> Iterator[tuple[str, Printed, float, list[str]]]:
    """Each card of `table` whose row, under the table's header, is taller than a page
    holds on a paper `build` offers: its id, the value that makes it so tall (its tallest
    cell), the row's height (at least) and the papers whose page cannot hold it."""
    from toolkit.render.card_reference import plain_cells

    def laid() -> Any:
        return _laid(table, lang, faces, icons)

    for index, tallest, height, papers in tall_cells(plain_cells(table, lang), faces, icons, laid):
        card = table.rows[index - 1]
        printed = [card.name, *card.values, card.copies, card.text]
        yield card.card_id, printed[tallest], height, papers


def tall_cells(
    plain: list[list[tuple[str, bool]]],
    faces: Faces,
    icons: Any,
    laid: Callable[[], Any],
    width_less: float = 0.0,
) -> Iterator[tuple[int, int, float, list[str]]]:
    """Each body row of a table (`plain`: its rows of cells as their text and whether they
    print in bold, the header first) taller, under the header, than a page holds on a paper
    `build` offers: the row's index, its tallest cell's, its height (at least) and those
    papers. `laid()` gives the FitTable `build` lays the table out as, made only for a row
    the bounds cannot settle; `width_less`: what the table's indentation takes off a
    page's width.

    With `validate`'s units active, kept between runs (kind `tall-cells`) when no row needed
    the layout: then the answer is a function of what the bounds read, the cells, the two
    fonts (a game's by a key unique to its file's bytes, the toolkit's in the units' head),
    the icon names (an icon is measured as one letter) and the width taken off, which name
    the unit. After a card edit the tables whose cells did not change (a deck's part in the
    other languages) are not measured again (~1 ms a language of a 15-card deck)."""
    from toolkit.render.rulebook_style import register_faces

    register_faces(faces)
    bold, regular = faces.font("bold"), faces.font("regular")
    units = active()
    if units is None:
        yield from _tall_cells(plain, bold, regular, icons, laid, width_less)
        return
    from toolkit.render.textfit import icon_names

    names = icon_names(icons.names) if icons is not None else None
    cells = [[[text, strong] for text, strong in row] for row in plain]
    name = Units.name(TALL_KIND, [cells, bold, regular, names, width_less])
    kept = units.get(name, _tall_read)
    if kept is not None:
        yield from kept
        return
    asked = []

    def noted() -> Any:
        asked.append(True)
        return laid()

    found = list(_tall_cells(plain, bold, regular, icons, noted, width_less))
    if not asked:  # what the layout settles is not named by these
        units.put(name, [[i, tallest, height, papers] for i, tallest, height, papers in found])
    yield from found


TALL_KIND = "tall-cells"


def _tall_read(kept: Any) -> list[tuple[int, int, float, list[str]]]:
    """Kept tall rows read back (ValueError for another shape)."""
    if type(kept) is not list:
        raise ValueError("not tall rows")
    found = []
    for item in kept:
        if type(item) is not list or len(item) != 4:
            raise ValueError("not a tall row")
        index, tallest, height, papers = item
        if type(index) is not int or type(tallest) is not int or type(height) is not float:
            raise ValueError("not a tall row")
        if type(papers) is not list or not all(type(p) is str for p in papers):
            raise ValueError("not a tall row")
        found.append((index, tallest, height, list(papers)))
    return found


def _tall_cells(
    plain: list[list[tuple[str, bool]]],
    bold: str,
    regular: str,
    icons: Any,
    laid: Callable[[], Any],
    width_less: float,
) -> Iterator[tuple[int, int, float, list[str]]]:
    """`tall_cells` worked out, in the fonts `bold` and `regular` (registered)."""
    from toolkit.render import table_fit as fit

    size = fit.BODY_SIZE * fit.CELL_SIZE
    cells = [[(t, bold if b else regular, size) for t, b in row] for row in plain]
    bounds = fit.column_bounds(cells, max(len(row) for row in cells), icons)
    spans = [[_spans(text, font, size, icons) for text, font, size in row] for row in cells]
    widest = [least - 2 * fit.PAD - 1 for least in bounds[0]]  # each column's widest word
    tall: dict[int, tuple[int, float, list[str]]] = {}  # row → its tallest cell, height, papers
    left = MAX_LAID_ROWS
    table: Any = None  # the table as `build` lays it out, made for a row only the layout clears
    for paper in fit.PAPERS:
        width, room = fit.page_room(paper)
        widths = fit.fit_widths(*bounds, width - width_less, 2 * fit.PAD + 1)
        header = max(_high(cells[0], spans[0], widths, widest))
        first = fit.BODY_SIZE * fit.CELL_LEADING + fit.TOP + fit.BOTTOM  # the header: a line
        split = any(least > wide + 0.01 for least, wide in zip(bounds[0], widths, strict=True))
        for index in range(1, len(cells)):
            high = _high(cells[index], spans[index], widths, widest)
            if header + max(high) <= room:
                continue  # nearly every row: its lines counted, none laid out
            height: float | None = max(_least(cells[index], spans[index], widths))
            if height is not None and first + height <= room:  # only the layout tells
                if split or left <= 0:  # not laid out: a word wider than its column (4,000
                    continue  # letters) took reportlab 2.7 s to break into lines
                left -= 1
                table = table or laid()
                height = _row_height(table, index, widths, room)
            if height is not None:
                tallest = max(range(len(high)), key=high.__getitem__)
                _, highest, papers = tall.setdefault(index, (tallest, height, []))
                tall[index] = (tallest, max(highest, height), [*papers, paper])
    for index, (tallest, height, papers) in sorted(tall.items()):
        yield index, tallest, height, papers


MAX_LAID_ROWS = 64
"""Rows of one table laid out by reportlab to settle their height, at most (each near a
page high: ~5 ms); rows past them that only a layout would settle are left to `build`,
which refuses such a row with the page it meets it on."""


def _spans(text: str, font: str, size: float, icons: Any) -> list[tuple[int, float]]:
    """Each line of a cell's `text` as its characters and its width (points) unbroken."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from toolkit.render import table_fit as fit

    lines = fit.measured(text, icons).split("\n")
    return [(len(line), stringWidth(line, font, size)) for line in lines]


def _high(
    row: list[tuple[str, str, float]],
    spans: list[list[tuple[int, float]]],
    widths: list[float],
    widest: list[float],
) -> list[float]:
    """More than each cell of `row` (its lines' `spans`) is high in columns of `widths`
    whose widest words are `widest`."""
    from toolkit.render import table_fit as fit

    leading = fit.BODY_SIZE * fit.CELL_LEADING
    return [
        _lines(lines, font, size, width - 2 * fit.PAD, word) * leading + fit.TOP + fit.BOTTOM
        for (_, font, size), lines, width, word in zip(row, spans, widths, widest, strict=False)
    ]


def _least(
    row: list[tuple[str, str, float]], spans: list[list[tuple[int, float]]], widths: list[float]
) -> list[float]:
    """Less than each cell of `row` is high in columns of `widths`: its text's width spread
    over lines no wider than the column (each break drops a space at most), so a row
    plainly taller than a page is said without laying it out (reportlab's line breaking of
    a 4,000-letter word read 200,000 letters of hyphenation patterns)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from toolkit.render import table_fit as fit

    leading = fit.BODY_SIZE * fit.CELL_LEADING
    found = []
    for (_, font, size), lines, width in zip(row, spans, widths, strict=False):
        step = width - 2 * fit.PAD + stringWidth(" ", font, size)
        count = sum(max(1.0, wide // step) for _, wide in lines) if step > 0 else len(lines)
        found.append(count * leading + fit.TOP + fit.BOTTOM)
    return found


def _lines(
    spans: list[tuple[int, float]], font: str, size: float, width: float, word: float
) -> float:
    """More lines than a cell of lines `spans` breaks into at `width` (points), its widest
    word `word` wide: every line but the last holds more than the width less a space and
    the next line's first word (else that word would have joined it; a hyphenated word's
    part only fills it more), and every two lines more than the width less a space; a line
    holds a character at least."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    space = stringWidth(" ", font, size)
    room = width - space - 2 * size  # a split word's piece, an icon
    full = width - space - word - size  # less a hyphen, an icon
    lines = 0.0
    for chars, wide in spans:
        most = chars + 1.0
        if room > 0:
            most = min(most, 2 * wide / room + 2)
        if word < width and full > width / 4:
            most = min(most, wide / full + 1)
        lines += most
    return lines


def _laid(table: DeckReference, lang: str, faces: Faces, icons: Any) -> Any:
    """The FitTable `build` lays `table` out as."""
    from toolkit.render.markdown_flow import FitTable, make_sheet
    from toolkit.render.rulebook import reference_rows

    sheet = make_sheet(lang, faces=faces)
    sheet.icons = icons
    return FitTable(reference_rows(table, lang, sheet), sheet)


def _row_height(laid: Any, index: int, widths: list[float], room: float) -> float | None:
    """Row `index`'s height, laid out by reportlab in columns of `widths` under the header,
    when the two are higher than `room`; else None."""
    from reportlab.platypus import Table, TableStyle

    made = laid._rows
    table = Table(
        [made.data(0), made.data(index)], colWidths=widths, style=TableStyle(made.commands())
    )
    table.wrap(sum(widths), 0x7FFFFFFF)
    top, height = table._rowHeights  # type: ignore[attr-defined]
    return float(height) if top + height > room else None
