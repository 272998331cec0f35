"""A spreadsheet as read: the cells of its one card sheet, row 1 first, as the program that
saved it typed them, plus what the cells alone cannot say (merged ranges, formulas saved
without a value) and any refusal at its place."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolkit.content.sheets.rules import Y_SHEET_SIZE
from toolkit.content.source import MAX_NODES
from toolkit.diagnostics import Diagnostic, Span

MAX_ROWS = 20_000
"""Rows a card sheet may use (a deck of 20,000 cards is far past any printed game)."""
MAX_COLUMNS = 1_000
MAX_SHEET_BYTES = 16 * 1024 * 1024
"""A sheet file's size on disk; a zip's members are checked again before unpacking."""
MAX_CELLS = MAX_NODES
"""Filled cells a card sheet may hold: the values a YAML file may hold, since each becomes a
card value that every check handles (the row and column limits bound the reader only: one
ODS cell repeated over 1,000 rows × 993 columns, 13 kB, took `validate` 104 s and 1.3 GB)."""


@dataclass
class Grid:
    """The card sheet of one file. `rows[r][c]` is the cell at row r+1, column c+1; an empty
    cell is None. `sheet` is the worksheet's name ("" in a CSV file)."""

    sheet: str
    rows: list[list[Any]] = field(default_factory=list)
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    """Merged ranges, 1-based and inclusive: (first row, first column, last row, last column)."""
    no_value: list[tuple[int, int]] = field(default_factory=list)
    """(row, column) of formula cells saved without a computed value."""
    errors: list[tuple[int, int, str]] = field(default_factory=list)
    """(row, column, error) of cells that hold a spreadsheet error (`#DIV/0!`): the reader
    shows them empty."""


@dataclass
class Refused:
    """A file that yields no grid: the one diagnostic that says why."""

    diagnostic: Diagnostic
    quiet: bool = False
    """Refused for the text it repeats after another file of the game passed that bound
    (`source.GameRepeats`): that file's finding says it, this one says nothing more."""


def trim(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows without their trailing empty cells, and without trailing empty rows: a styled but
    empty area of a sheet is no card."""
    out = []
    for row in rows:
        end = len(row)
        while end and row[end - 1] is None:
            end -= 1
        out.append(row[:end])
    while out and not out[-1]:
        out.pop()
    return out


class CellCount:
    """Filled cells counted row by row, so a reader refuses a sheet at the cell that passes
    `MAX_CELLS` (a CSV file before reading the rest of it)."""

    def __init__(self, display: str, sheet: str) -> None:
        self.display, self.sheet, self.filled = display, sheet, 0

    def add(self, row: int, cells: list[Any]) -> Refused | None:
        """Count the cells of sheet row `row`; the refusal when they pass the limit."""
        before = self.filled
        self.filled += len(cells) - cells.count(None)
        if self.filled <= MAX_CELLS:
            return None
        col, seen = 0, before
        while seen <= MAX_CELLS:  # the filled cell of this row that passes the limit
            col += 1
            seen += cells[col - 1] is not None
        message = (
            f"the sheet holds more than {MAX_CELLS:,} filled cells, the content limit for a card"
            f" sheet (a YAML file holds at most {MAX_NODES:,} values)"
        )
        return Refused(Y_SHEET_SIZE.at(self.display, Span(row, col, sheet=self.sheet), message))
