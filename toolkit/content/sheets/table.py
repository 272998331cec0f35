"""A grid of cells into cards: the header row names each column's field path, each row
below it that holds a value is one card, and every value keeps its cell (row, column, sheet)
as the span a YAML value keeps its line and column."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolkit.content.sheets import header
from toolkit.content.sheets.grid import Grid, trim
from toolkit.content.sheets.header import Column
from toolkit.content.sheets.rules import Y_FORMULA, Y_HEADER, Y_ROW
from toolkit.content.validation import S_UNKNOWN_FIELD
from toolkit.diagnostics import Diagnostic, Span
from toolkit.diagnostics.diagnostic import cell_name, column_letters

MAX_MERGED = 1_000
"""Merged ranges of a sheet that are looked at: a card sheet needs none, and each one over
the header row was expanded column by column to the sheet's last possible column (60,000
merges in a 137 kB XLSX took 26 s, probe 44 X1)."""

DataPath = tuple[str | int, ...]
EMPTY_HEADER = "an empty header cell above filled cells: name the field this column holds"
NOTE = re.compile(r"playset:\s*ignore\[([A-Z0-9,\s]+)\]")


@dataclass
class Table:
    """Cards read from a grid, with the span of every value and what went wrong."""

    sheet: str
    cards: list[dict[Any, Any]] = field(default_factory=list)
    spans: dict[DataPath, Span] = field(default_factory=dict)
    key_spans: dict[DataPath, Span] = field(default_factory=dict)
    """Where a finding about a group of fields points (`name` lacking its es text): the
    group's first empty cell in that row, the place to type what is missing."""
    columns: list[Column] = field(default_factory=list)
    header_row: int = 1
    rows: list[int] = field(default_factory=list)
    """The sheet row of each card."""
    notes: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Codes a `playset: ignore[...]` note in a notes column silences, by row."""
    diagnostics: list[Diagnostic] = field(default_factory=list)


class _Clash(Exception):
    pass


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(value).strip() if value is not None else ""


def _codes(text: str) -> tuple[str, ...]:
    codes: list[str] = []
    for found in NOTE.finditer(text):
        codes += [c.strip() for c in found.group(1).split(",") if c.strip()]
    return tuple(codes)


def build(grid: Grid, display: str, check: Callable[[Column], str | None] | None = None) -> Table:
    """Read `grid` as a header row and one card per filled row below it. `check` judges a
    header against the deck's model: the diagnostic it returns is reported at the header
    cell, once, and the column is left out (not one finding per card)."""
    table = Table(grid.sheet)
    rows = trim(grid.rows)

    def span(row: int, col: int) -> Span:
        return Span(row, col, sheet=grid.sheet)

    def report(r: Any, row: int, col: int, message: str) -> None:
        table.diagnostics.append(r.at(display, span(row, col), message))

    for row, col in grid.no_value:
        report(
            Y_FORMULA,
            row,
            col,
            "this formula has no saved value to read: open the file in a spreadsheet program"
            " and save it, so each formula's result is stored with it",
        )
    for row, col, error in grid.errors:
        report(
            Y_FORMULA,
            row,
            col,
            f"this cell holds the spreadsheet error {error}, which reads as an empty cell (an"
            " absent field): fix its formula, or clear the cell",
        )
    top = next((i for i, row in enumerate(rows) if any(v is not None for v in row)), None)
    if top is None:
        report(Y_HEADER, 1, 1, "the sheet is empty: row 1 names the fields, one card per row below")
        return table
    table.header_row = hr = top + 1
    merged_cols: set[int] = set()
    used = {c for row in rows[top + 1 :] for c, v in enumerate(row, start=1) if v is not None}
    last = max(len(rows[top]), max(used, default=0))  # a merge past it heads no cell
    for number, (r1, c1, r2, c2) in enumerate(grid.merged):
        if number == MAX_MERGED:
            report(
                Y_HEADER,
                r1,
                c1,
                f"the sheet holds more than {MAX_MERGED:,} merged ranges; those after this one"
                " are not looked at: unmerge the cells (a card sheet needs none)",
            )
            break
        if r1 <= hr <= r2:
            merged_cols.update(range(c1, min(c2, last) + 1))
            report(
                Y_HEADER,
                hr,
                c1,
                f"merged header cells {cell_name(r1, c1)}:{cell_name(r2, c2)}: each column"
                " needs its own header; unmerge them",
            )
    seen: dict[str, int] = {}
    notes_cols: list[int] = []
    for col, value in enumerate(rows[top], start=1):
        text = _text(value)
        if col in merged_cols:
            continue
        if text.startswith("#"):
            notes_cols.append(col)
            continue
        if not text:
            if col in used:
                report(Y_HEADER, hr, col, EMPTY_HEADER)
            continue
        if text in seen:
            report(
                Y_HEADER,
                hr,
                col,
                f"{text!r} heads column {column_letters(seen[text])} already:"
                " each field has one column",
            )
            continue
        seen[text] = col
        path = header.parse(text)
        if isinstance(path, str):
            report(Y_HEADER, hr, col, path)
            continue
        column = Column(col, text, path)
        unknown = check(column) if check is not None else None
        if unknown is not None:
            report(S_UNKNOWN_FIELD, hr, col, unknown)
            continue
        table.columns.append(column)
    for col in used:
        if col > len(rows[top]) and col not in merged_cols:
            report(Y_HEADER, hr, col, EMPTY_HEADER)
    if notes_cols:
        header_codes = _codes(" ".join(_text(rows[top][c - 1]) for c in notes_cols))
        if header_codes:
            table.notes[hr] = header_codes
    headers = {c.col: c.text for c in table.columns}
    for index in range(top + 1, len(rows)):
        row_number = index + 1
        cells = rows[index]

        def at(col: int, cells: list[Any] = cells) -> Any:
            return cells[col - 1] if col <= len(cells) else None

        if notes_cols:
            codes = _codes(" ".join(_text(at(c)) for c in notes_cols))
            if codes:
                table.notes[row_number] = codes
        filled = [c for c in table.columns if at(c.col) is not None]
        if not filled:
            continue
        if len(filled) >= min(2, len(table.columns)) and all(
            _text(at(c.col)) == headers[c.col] for c in filled
        ):
            report(
                Y_HEADER,
                row_number,
                filled[0].col,
                "this row repeats the header: only the first filled row names the fields;"
                " delete this one",
            )
            continue
        _card(table, display, row_number, filled, at)
        _empty_cells(table, row_number, filled)
    return table


def _card(table: Table, display: str, row: int, filled: list[Column], at: Any) -> None:
    """Add the card of one row, its values nested as their header paths say."""
    number = len(table.cards)
    card: dict[Any, Any] = {}
    places: dict[tuple[Any, ...], int] = {}
    for column in filled:
        node = card
        try:
            for depth, seg in enumerate(column.path):
                last = depth == len(column.path) - 1
                if last:
                    if seg in node:
                        raise _Clash
                    node[seg] = at(column.col)
                else:
                    child = node.setdefault(seg, {})
                    if not isinstance(child, dict):
                        raise _Clash
                    node = child
        except _Clash:
            where = Span(row, column.col, sheet=table.sheet)
            message = (
                f"{column.text!r} clashes with another filled cell of this row: a field holds"
                " either a value or sub-fields (or list items), not both; empty one of them"
            )
            table.diagnostics.append(Y_ROW.at(display, where, message))
            continue
        places[column.path] = column.col
    data = _lists(card, (), table, display, row, places)
    table.cards.append(data)
    table.rows.append(row)
    first = filled[0].col
    table.spans[(number,)] = Span(row, first, sheet=table.sheet)
    for column in filled:
        if column.path not in places:
            continue
        path: tuple[str | int, ...] = (number,)
        for seg in column.data_path:
            path = (*path, seg)
            table.spans.setdefault(path, Span(row, column.col, sheet=table.sheet))


def _lists(
    node: Any,
    path: tuple[Any, ...],
    table: Table,
    display: str,
    row: int,
    places: dict[tuple[Any, ...], int],
) -> Any:
    """Turn mappings keyed by list positions into lists: `answers[1]`, `answers[2]`…"""
    if not isinstance(node, dict):
        return node
    out = {
        key: _lists(value, (*path, key), table, display, row, places) for key, value in node.items()
    }
    indexed = [key for key in out if isinstance(key, tuple)]
    if not indexed:
        return out
    col = min((c for p, c in places.items() if p[: len(path)] == path), default=1)
    where = Span(row, col, sheet=table.sheet)
    if len(indexed) != len(out):
        named = header.render(tuple(_plain(path)), tuple(isinstance(s, tuple) for s in path))
        message = f"{named!r} has both list items and named fields in this row"
        table.diagnostics.append(Y_ROW.at(display, where, message))
        out = {key: value for key, value in out.items() if isinstance(key, tuple)}
    items: list[Any] = []
    for position in range(len(indexed)):
        if (position,) not in out:
            named = header.render(tuple(_plain(path)), tuple(isinstance(s, tuple) for s in path))
            message = (
                f"{named}[{position + 1}] is empty but a later item of {named} is filled:"
                " a list has no holes; move the items up"
            )
            table.diagnostics.append(Y_ROW.at(display, where, message))
            break
        items.append(out[(position,)])
    return items


def _plain(path: tuple[Any, ...]) -> list[str | int]:
    return [seg[0] if isinstance(seg, tuple) else seg for seg in path]


def _empty_cells(table: Table, row: int, filled: list[Column]) -> None:
    """Point each field group of the card just read at its first empty cell, if any."""
    number = len(table.cards) - 1
    card = table.cards[number]
    taken = {c.col for c in filled}
    for column in table.columns:
        if column.col in taken:
            continue
        value: Any = card
        for depth, seg in enumerate(column.data_path[:-1]):
            is_key = isinstance(value, dict) and seg in value
            is_item = isinstance(value, list) and isinstance(seg, int) and 0 <= seg < len(value)
            if not (is_key or is_item):
                break
            value = value[seg]
            path = (number, *column.data_path[: depth + 1])
            table.key_spans.setdefault(path, Span(row, column.col, sheet=table.sheet))
