"""The one record every check produces: where, which rule, how bad, what to do."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    """How bad a finding is; errors and warnings make a run exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Span:
    """A 1-based line/column range in a file (end is inclusive-exclusive like an editor).

    In a spreadsheet the line is the row and the column the column number: `sheet` then names
    the worksheet ("" for a CSV file, which has one), and the place is shown as a cell,
    `Market!C7`. `file` is set when a value of a document comes from another file than the
    document's own (a sheet deck's keys live in a YAML file beside the sheet)."""

    line: int = 1
    col: int = 1
    end_line: int | None = None
    end_col: int | None = None
    sheet: str | None = None
    file: str | None = None

    @property
    def cell(self) -> str | None:
        """The spreadsheet cell, `Market!C7` (`C7` in a CSV file), or None outside a sheet."""
        if self.sheet is None:
            return None
        name = cell_name(self.line, self.col)
        if not self.sheet:
            return name
        sheet = self.sheet
        if not sheet.replace("_", "").isalnum():  # as spreadsheets quote such names
            sheet = "'" + sheet.replace("'", "''") + "'"
        return f"{sheet}!{name}"


def _span_maker() -> Any:
    """A maker of `Span(line, col, end_line, end_col)` that sets the slots directly: the
    frozen dataclass's `__init__` sets each of its six fields through `object.__setattr__`,
    ~1.5 µs a span, and reading a 100-card deck makes ~2,300 spans (a value and a key each).
    The last two fields get their defaults; a Span of other fields is made by its class."""
    names = tuple(f.name for f in fields(Span))
    if names != ("line", "col", "end_line", "end_col", "sheet", "file"):
        return lambda line, col, end_line, end_col: Span(line, col, end_line, end_col)
    set_line, set_col, set_end_line, set_end_col, set_sheet, set_file = (
        getattr(Span, name).__set__ for name in names
    )
    sheet, file = (f.default for f in fields(Span)[4:])
    new = object.__new__

    def span_at(line: int, col: int, end_line: int | None, end_col: int | None) -> Span:
        span = new(Span)
        set_line(span, line)
        set_col(span, col)
        set_end_line(span, end_line)
        set_end_col(span, end_col)
        set_sheet(span, sheet)
        set_file(span, file)
        return span

    return span_at


span_at = _span_maker()
"""`Span(line, col, end_line, end_col)`, equal to it in every field (see `_span_maker`)."""


def column_letters(col: int) -> str:
    """Spreadsheet column letters of a 1-based column number: 1 → A, 27 → AA."""
    letters = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters or "A"


def cell_name(row: int, col: int) -> str:
    """A cell's A1 name from its 1-based row and column: (7, 3) → C7."""
    return f"{column_letters(col)}{row}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding at one place in one file."""

    file: str
    code: str
    message: str
    severity: Severity = Severity.ERROR
    span: Span = field(default_factory=Span)

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def col(self) -> int:
        return self.span.col

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.file, self.span.line, self.span.col, self.code)

    @property
    def place(self) -> str:
        """Where, as text output shows it: `path:line:col`, or `path:Market!C7` in a sheet."""
        cell = self.span.cell
        if cell is not None:
            return f"{self.file}:{cell}"
        return f"{self.file}:{self.span.line}:{self.span.col}"

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "file": self.file,
            "line": self.span.line,
            "col": self.span.col,
            "end_line": self.span.end_line,
            "end_col": self.span.end_col,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
        }
        if self.span.sheet is not None:  # line is the row, col the column
            out["sheet"] = self.span.sheet
            out["cell"] = self.span.cell
        return out
