"""One sheet deck as a Document: the keys file's data with the sheet's rows under `cards`
(or `questions`), every value with its span, a cell's in the sheet or a line's in the keys
file, so validation and every check that follows see a deck as any YAML deck."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from toolkit.content.sheets import keys_file
from toolkit.content.sheets.csv_reader import read_csv
from toolkit.content.sheets.grid import Grid, Refused
from toolkit.content.sheets.model import HeaderCheck
from toolkit.content.sheets.rules import Y_KEYS_FILE
from toolkit.content.sheets.table import Table, build
from toolkit.content.sheets.workbook import read_workbook
from toolkit.content.source import Document, load_document
from toolkit.content.suggest import tips_run
from toolkit.diagnostics import Diagnostic, Span
from toolkit.diagnostics.suppress import note_sheet
from toolkit.fileio import not_regular


@dataclass
class SheetDocument(Document):
    """A sheet deck's Document, with the field names its unknown headers seem typos of."""

    near: set[str] = field(default_factory=set)
    keys: Document | None = None
    """The keys file beside the sheet (id, kind, name…), as read."""
    rows_key: str = "cards"
    card_rows: list[int] = field(default_factory=list)
    """The sheet row of each card."""
    columns: dict[tuple[str | int, ...], int] = field(default_factory=dict)
    """The column of each header, by the path it names inside a card."""

    def cell_of(self, path: tuple[Any, ...]) -> tuple[int, int] | None:
        """The (row, column) holding the value at `path`, filled or empty; None when the
        path is no card field or the sheet has no column for it."""
        if len(path) < 3 or path[0] != self.rows_key or not isinstance(path[1], int):
            return None
        if not 0 <= path[1] < len(self.card_rows):
            return None
        col = self.columns.get(tuple(path[2:]))
        return (self.card_rows[path[1]], col) if col is not None else None

    def quiet(self, diags: list[Diagnostic]) -> list[Diagnostic]:
        """The validation findings less each card's "missing field" for a field whose header
        is misspelt: the header's one S002 says it, with the name it meant."""
        kept = []
        for d in diags:
            if d.span.sheet is None:
                kept.append(d)
            elif not (d.code == "S003" and _names(d, self.near)):
                kept.append(replace(d, message=_in_sheet_words(d.message)))
        return kept


def _in_sheet_words(message: str) -> str:
    """A YAML hint said for a cell: a number stored as text is retyped, not unquoted."""
    head, sep, tail = message.partition(", not a text: write ")
    if sep and tail.endswith(" without quotes"):
        bare = tail.removesuffix(" without quotes")
        return f"{head}, not a text: the cell holds {bare} as text; enter it as a number"
    return message


def _names(d: Diagnostic, fields: set[str]) -> bool:
    return any(f"'{name}'" in d.message for name in fields)


def quiet(doc: Document | None, diags: list[Diagnostic]) -> list[Diagnostic]:
    """Validation findings of a loaded file, as `SheetDocument.quiet` trims a sheet's."""
    return doc.quiet(diags) if isinstance(doc, SheetDocument) else diags


def read_grid(path: Path, display: str, inside: Path | None = None) -> Grid | Refused:
    """The card sheet of a CSV, XLSX or ODS file (with `inside`, one that lies inside that
    folder once opened: see fileio.read_bounded)."""
    if path.suffix.lower() == ".csv":
        return read_csv(path, display, inside)
    return read_workbook(path, display, inside)


def load_sheet(
    path: Path,
    display: str,
    rows_key: str,
    adapter: TypeAdapter[Any] | None = None,
    inside: Path | None = None,
) -> tuple[Document | None, list[Diagnostic]]:
    """Read a sheet deck and its keys file; None and the reasons when it cannot be read.
    With `inside` (the game folder), neither is read from outside it: a keys file linked
    elsewhere is refused as a linked deck is (its keys were printed on every card)."""
    keys = keys_file(path)
    keys_display = str(Path(display).with_name(keys.name))
    refused = _keys_refused(keys, keys_display, path, display)
    if refused is not None:
        return None, [refused]
    side, diags = load_document(keys, keys_display, inside=inside)
    if side is None:
        return None, diags
    if not isinstance(side.data, dict):
        message = "the keys file must be a mapping (id: …, kind: …, name: …)"
        return None, [Y_KEYS_FILE.at(keys_display, side.span(()), message)]
    if rows_key in side.data:
        message = f"{rows_key!r} is the sheet {path.name}, one per row: remove it from this file"
        return None, [Y_KEYS_FILE.at(keys_display, side.key_span((rows_key,)), message)]
    grid = read_grid(path, display, inside)
    if isinstance(grid, Refused):
        return None, [] if grid.quiet else [grid.diagnostic]
    check = HeaderCheck(adapter, side.data, rows_key) if adapter is not None else None
    with tips_run():  # the headers' 'did you mean's: the game's load, or this sheet's
        table = build(grid, display, check)
    note_sheet(display, table.sheet, table.notes)
    doc = _document(path, display, side, table, rows_key)
    doc.near = check.near if check is not None else set()
    doc.keys, doc.rows_key, doc.card_rows = side, rows_key, table.rows
    doc.columns = {c.data_path: c.col for c in table.columns}
    return doc, table.diagnostics


def _keys_refused(keys: Path, keys_display: str, sheet: Path, display: str) -> Diagnostic | None:
    """Y017 when the keys file beside a sheet is missing (at the sheet), or is no regular
    file (at it: a folder or a FIFO was said to be missing; a FIFO is never opened)."""
    try:
        mode = os.stat(keys).st_mode
    except OSError as exc:
        if os.path.lexists(keys):  # a link to nothing, a folder it may not look into
            why = "it is a link to no file" if isinstance(exc, FileNotFoundError) else exc.strerror
            message = f"{keys.name} beside {sheet.name} cannot be read: {why or exc}"
            return Y_KEYS_FILE.at(keys_display, Span(), message)
        message = (
            f"no {keys.name} beside {sheet.name}: a sheet holds the cards, one per row, and"
            f" {keys.name} the deck's own keys (id, kind, name, size, layout)"
        )
        return Y_KEYS_FILE.at(display, Span(), message)
    if stat.S_ISREG(mode):
        return None
    message = (
        f"{keys.name} beside {sheet.name} cannot be read: {not_regular(mode)}; it must be a"
        " YAML file of the deck's own keys (id, kind, name, size, layout)"
    )
    return Y_KEYS_FILE.at(keys_display, Span(), message)


def _document(
    path: Path, display: str, side: Document, table: Table, rows_key: str
) -> SheetDocument:
    def beside(span: Span) -> Span:
        return replace(span, file=side.display)

    spans = {p: beside(s) for p, s in side.spans.items()}
    key_spans = {p: beside(s) for p, s in side.key_spans.items()}
    spans[()] = beside(side.span(()))
    top = Span(table.header_row, 1, sheet=table.sheet)
    spans[(rows_key,)] = key_spans[(rows_key,)] = top
    for sub, span in table.spans.items():
        spans[(rows_key, *sub)] = span
        if len(sub) > 1:
            key_spans[(rows_key, *sub)] = table.key_spans.get(sub, span)
    data = {**side.data, rows_key: table.cards}
    return SheetDocument(path, display, data, spans, key_spans, set(side.shared), "", {})
