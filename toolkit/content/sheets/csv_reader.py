"""CSV card sheets as spreadsheet programs save them: UTF-8 with or without a byte-order
mark, cells split by `,` or `;` (or a tab), found from the header line.

A CSV file has no types, so a cell is read as a YAML plain value would be: `3` is a number,
`true` a yes/no, anything else text. A leading apostrophe keeps a cell text (`'3`), as in a
spreadsheet's own input line; `playset convert` writes it where text would read otherwise,
and before a text a spreadsheet program would run as a formula (`=…`, `@…`).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from toolkit.content.sheets import files
from toolkit.content.sheets.grid import (
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_SHEET_BYTES,
    CellCount,
    Grid,
    Refused,
)
from toolkit.content.sheets.rules import Y_NOT_SHEET, Y_SHEET_SIZE
from toolkit.content.source import Y_ENCODING, Y_UNREADABLE
from toolkit.diagnostics import Span
from toolkit.fileio import read_bounded

_INT = re.compile(r"[-+]?[0-9]{1,4000}")  # exact, as YAML reads it (int() takes 4,300 digits)
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")
FIELD_LIMIT = 100_000
"""Characters one cell may hold (csv's own default is 131,072)."""


def typed(text: str) -> Any:
    """A CSV cell's value: None when empty, else as a YAML plain scalar reads."""
    if text == "":
        return None
    if text.startswith("'"):
        return text[1:]
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text) and len(text) < 40:
        return float(text)
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return text


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet program that opens a CSV file takes for the start of a formula (a
card text `=HYPERLINK(…)` or `@SUM(…)` ran as one): such a text is written after an
apostrophe, which `typed` reads as "text" and the program shows as text."""


def as_text(value: Any) -> str:
    """How `typed` reads `value` back: the cell text to write for it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    if text != "" and (typed(text) != text or text.startswith(FORMULA_START)):
        return "'" + text
    return text


def delimiter(header: str) -> str:
    """The separator a header line uses: the most frequent of `,` `;` and tab outside quotes."""
    bare = re.sub(r'"[^"]*"', "", header)
    counts = {sep: bare.count(sep) for sep in (",", ";", "\t")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ","


def read_csv(path: Path, display: str, inside: Path | None = None) -> Grid | Refused:
    def refuse(r: Any, span: Span, message: str) -> Refused:
        return Refused(r.at(display, span, message))

    try:
        refused = files.unreadable(path, display)
        if refused is not None:
            return refused
        raw = read_bounded(path, MAX_SHEET_BYTES, inside=inside)
    except OSError as exc:
        return refuse(Y_UNREADABLE, Span(), f"cannot read file: {exc.strerror or exc}")
    if len(raw) > MAX_SHEET_BYTES:  # it grew after the check
        return refuse(Y_SHEET_SIZE, Span(), f"file is over the limit of {MAX_SHEET_BYTES:,} bytes")
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        return refuse(
            Y_NOT_SHEET, Span(), "this is a spreadsheet file, not CSV text: name it .xlsx or .ods"
        )
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        return refuse(
            Y_ENCODING,
            Span(line, exc.start - (before.rfind(b"\n") + 1) + 1),
            f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save the CSV as UTF-8",
        )
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        return refuse(Y_NOT_SHEET, Span(line, 1), "a NUL byte: this is not CSV text")
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(first), strict=False)
    rows: list[list[Any]] = []
    count = CellCount(display, "")
    old_limit = csv.field_size_limit()
    csv.field_size_limit(FIELD_LIMIT)
    try:
        for record in reader:
            if len(rows) >= MAX_ROWS:
                if any(record):
                    return refuse(
                        Y_SHEET_SIZE,
                        Span(len(rows) + 1, 1, sheet=""),
                        f"more than {MAX_ROWS:,} rows: the content limit for a card sheet",
                    )
                continue
            if len(record) > MAX_COLUMNS and any(record[MAX_COLUMNS:]):
                return refuse(
                    Y_SHEET_SIZE,
                    Span(len(rows) + 1, MAX_COLUMNS + 1, sheet=""),
                    f"more than {MAX_COLUMNS:,} columns: the content limit for a card sheet",
                )
            rows.append([typed(cell) for cell in record[:MAX_COLUMNS]])
            too_many = count.add(len(rows), rows[-1])
            if too_many is not None:
                return too_many
    except csv.Error as exc:
        return refuse(Y_NOT_SHEET, Span(reader.line_num or 1, 1), f"not readable as CSV: {exc}")
    finally:
        csv.field_size_limit(old_limit)
    return Grid("", rows)
