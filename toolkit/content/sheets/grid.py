"""A spreadsheet as read: the cells of its one card sheet, row 1 first, as the program that
saved it typed them, plus what the cells alone cannot say (merged ranges, formulas saved
without a value) and any refusal at its place."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolkit.diagnostics import Diagnostic

MAX_ROWS = 20_000
"""Rows a card sheet may use (a deck of 20,000 cards is far past any printed game)."""
MAX_COLUMNS = 1_000
MAX_SHEET_BYTES = 16 * 1024 * 1024
"""A sheet file's size on disk; a zip's members are checked again before unpacking."""


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
