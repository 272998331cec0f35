"""Edit single cells of a sheet file and nothing else: the CSV text around a field, the XLSX
worksheet XML around a `<c>` element, the ODS content XML around a `<table:table-cell>`;
every other byte (and every other zip member) stays as it was. The PO import writes
translations into sheet decks this way."""

from __future__ import annotations

import io
import re
import zipfile
from bisect import bisect_right
from pathlib import Path
from typing import AnyStr
from xml.sax.saxutils import escape

from toolkit.content.sheets.csv_reader import as_text, delimiter
from toolkit.content.sheets.grid import MAX_SHEET_BYTES
from toolkit.content.sheets.prescan import (
    COLUMNS_REPEATED,
    ROWS_REPEATED,
    element_body,
    repeat,
)
from toolkit.content.sheets.workbook import _first_sheet_member
from toolkit.content.sheets.write import xlsx_text
from toolkit.diagnostics.diagnostic import cell_name
from toolkit.fileio import read_bounded

Cell = tuple[int, int]
"""(row, column), 1-based."""


class CellEditRefused(ValueError):
    """A cell that cannot be edited in place (inside a repeated ODS row, say)."""


def edit_cells(path: Path, values: dict[Cell, str], *, inside: Path | None) -> bytes:
    """The file's new bytes with each cell holding its new text; read again only from
    inside the game folder `inside` (a sheet switched to a link out of the game since it
    was loaded is refused, not read, edited and written into the game)."""
    suffix = path.suffix.lower()
    try:
        data = read_bounded(path, MAX_SHEET_BYTES, inside=inside)
    except OSError as exc:
        raise CellEditRefused(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > MAX_SHEET_BYTES:
        raise CellEditRefused(f"the file is over the limit of {MAX_SHEET_BYTES:,} bytes")
    if suffix == ".csv":
        return _edit_csv(data, values)
    if suffix == ".xlsx":
        member = _first_sheet_member(data)
        if member is None:
            raise CellEditRefused("the workbook has no worksheet")
        return _rezip(data, member, lambda xml: _edit_xlsx(xml, values))
    return _edit_zip_ods(data, values)


def _rezip(data: bytes, name: str, change: object) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            body = source.read(member.filename)
            if member.filename == name:
                body = change(body)  # type: ignore[operator]
            target.writestr(member, body, compress_type=member.compress_type)
    return out.getvalue()


# --- CSV -------------------------------------------------------------------------------------


def _csv_fields(text: str, sep: str) -> dict[Cell, tuple[int, int]]:
    """Where each field's text lies: (start, end) offsets by cell."""
    fields: dict[Cell, tuple[int, int]] = {}
    i, row, col, n = 0, 1, 1, len(text)
    while i <= n:
        start = i
        if i < n and text[i] == '"':
            i += 1
            while i < n:
                if text[i] == '"':
                    if i + 1 < n and text[i + 1] == '"':
                        i += 2
                        continue
                    i += 1
                    break
                i += 1
        while i < n and text[i] not in (sep, "\r", "\n"):
            i += 1
        fields[(row, col)] = (start, i)
        if i >= n:
            break
        if text[i] == sep:
            col += 1
            i += 1
            continue
        i += 2 if text.startswith("\r\n", i) else 1
        row, col = row + 1, 1
    return fields


def _csv_value(value: str, sep: str) -> str:
    text = as_text(value)
    if any(ch in text for ch in (sep, '"', "\r", "\n")) or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def _edit_csv(data: bytes, values: dict[Cell, str]) -> bytes:
    """Every edit planned on the fields found once, then the text written once: a cell past
    the end of its row goes after the row's last field. (Each edit copied the whole text, and
    each missing cell looked over every field of the file for its row's last one.)"""
    raw = data.decode("utf-8")
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    text = raw.removeprefix(bom)
    sep = delimiter(text.split("\n", 1)[0])
    fields = _csv_fields(text, sep)
    last: dict[int, int] = {}
    for row, col in fields:  # columns come in order within a row: the last one stays
        last[row] = col
    planned: list[tuple[int, int, int, str]] = []  # (start, end, 0 replaced / 1 added, new)
    past_end: dict[int, list[tuple[int, str]]] = {}  # a short row's new cells, by row
    for (row, col), value in sorted(values.items()):
        new = _csv_value(value, sep)
        if (row, col) in fields:
            planned.append((*fields[(row, col)], 0, new))
            continue
        if not last.get(row, 0):
            raise CellEditRefused(f"row {row} is not in the file")
        past_end.setdefault(row, []).append((col, new))
    for row, cells in past_end.items():
        # written after the row's last field in the order of their columns, each after as
        # many separators as the columns between (two new cells of one row were put in the
        # order of their texts, each counting its columns from the row's end)
        end_col = last[row]
        end = fields[(row, end_col)][1]
        added = []
        for col, new in sorted(cells):
            added.append(sep * (col - end_col) + new)
            end_col = col
        planned.append((end, end, 1, "".join(added)))  # after the last field, edited or not
    ordered = [(start, end, new) for start, end, _, new in sorted(planned)]
    return (bom + _splice(text, ordered)).encode("utf-8")


def _splice(text: AnyStr, planned: list[tuple[int, int, AnyStr]]) -> AnyStr:
    """`text` with each (start, end, new) of `planned` (in order, none overlapping another
    but at a shared start) put in place, in one join."""
    pieces: list[AnyStr] = []
    at = 0
    for start, end, new in planned:
        if start < at:
            raise CellEditRefused("two edited cells overlap in the file")
        pieces.append(text[at:start])
        pieces.append(new)
        at = max(at, end)
    pieces.append(text[at:])
    return text[:0].join(pieces)


# --- XLSX ------------------------------------------------------------------------------------


_STYLE = re.compile(rb'\ss="(\d+)"')


def _xlsx_cell(ref: str, value: str, style: bytes) -> bytes:
    text = escape(xlsx_text(value)).encode("utf-8")
    return (
        b'<c r="'
        + ref.encode()
        + b'"'
        + style
        + b' t="inlineStr"><is><t xml:space="preserve">'
        + text
        + b"</t></is></c>"
    )


_XLSX_CELL_TAG = re.compile(rb"<c\s[^<>]*")
_XLSX_CELL = re.compile(rb"<c\s[^<>]*?(?:/>|>" + element_body(rb"c\b") + rb")")
_XLSX_ROW_TAG = re.compile(rb"<row\s[^<>]*?(/?)>")
_R_ATTRIBUTE = re.compile(rb'\br="(?=([^"<>]*)")')
_COLUMN_REF = re.compile(rb'<c\s[^<>]*?\br="([A-Za-z]+)\d+"')


def _edit_xlsx(xml: bytes, values: dict[Cell, str]) -> bytes:
    """Every cell and row found in one pass over the worksheet XML, the output written in one
    join. A cell is the first `<c>` whose `r` names it (in either case: the reader, calamine,
    takes `c2` as C2); a cell not in the file goes into its row before the first cell of a
    later column (its `<row/>` opened if need be). (Each edit searched the whole XML from its
    start with a pattern of its own and copied it: 16,000 cells of a 274 kB file took 195 s.)"""
    refs = {cell_name(row, col).encode(): (row, col) for row, col in values}
    starts: dict[bytes, list[int]] = {}
    for tag in _XLSX_CELL_TAG.finditer(xml):
        for attribute in _R_ATTRIBUTE.finditer(tag.group(0)):
            ref = attribute.group(1).upper()
            if ref in refs:
                starts.setdefault(ref, []).append(tag.start())
    found: dict[Cell, re.Match[bytes]] = {}
    for ref, at in starts.items():
        for start in at:
            cell = _XLSX_CELL.match(xml, start)
            if cell is not None:
                found[refs[ref]] = cell
                break
    planned: list[tuple[int, int, bytes]] = []
    missing: dict[int, list[tuple[int, str]]] = {}
    for (row, col), value in values.items():
        cell = found.get((row, col))
        if cell is None:
            missing.setdefault(row, []).append((col, value))
            continue
        style = _STYLE.search(cell.group(0).split(b">", 1)[0])
        new = _xlsx_cell(
            cell_name(row, col), value, b' s="' + style.group(1) + b'"' if style else b""
        )
        planned.append((cell.start(), cell.end(), new))
    if missing:
        heads = _xlsx_rows(xml, set(missing))
        for row in [r for (r, c) in values if (r, c) not in found]:  # the first refused first
            if row not in heads:
                raise CellEditRefused(f"row {row} is not in the sheet")
        for row, cells in missing.items():
            planned.extend(_xlsx_fill_row(xml, heads[row], row, cells))
    return _splice(xml, sorted(planned))


def _xlsx_rows(xml: bytes, rows: set[int]) -> dict[int, re.Match[bytes]]:
    """The first `<row>` start tag of each of `rows`."""
    wanted = {str(row).encode(): row for row in rows}
    heads: dict[int, re.Match[bytes]] = {}
    for head in _XLSX_ROW_TAG.finditer(xml):
        for attribute in _R_ATTRIBUTE.finditer(head.group(0)):
            row = wanted.get(attribute.group(1))
            if row is not None and row not in heads:
                heads[row] = head
    return heads


def _xlsx_fill_row(
    xml: bytes, head: re.Match[bytes], row: int, cells: list[tuple[int, str]]
) -> list[tuple[int, int, bytes]]:
    """The new cells of one row, each (in the order they come) before the first cell, there
    or new, of a later column."""
    opened = bool(head.group(1))  # <row …/>: opened around its new cells
    close = head.end() if opened else xml.index(b"</row>", head.end())
    # (column, the offset of the first old cell after it or the row's end, a new cell)
    line: list[tuple[int, int, bytes]] = [
        (_letters_col(other.group(1)), other.start(), b"")
        for other in _COLUMN_REF.finditer(xml, head.end(), close)
    ]
    for col, value in cells:
        at = next((i for i, item in enumerate(line) if item[0] > col), len(line))
        anchor = line[at][1] if at < len(line) else close
        line.insert(at, (col, anchor, _xlsx_cell(cell_name(row, col), value, b"")))
    if opened:
        body = b"".join(new for _, _, new in line)
        return [(head.start(), head.end(), head.group(0)[:-2] + b">" + body + b"</row>")]
    pieces: dict[int, list[bytes]] = {}
    for _, anchor, new in line:
        if new:
            pieces.setdefault(anchor, []).append(new)
    return [(anchor, anchor, b"".join(new)) for anchor, new in pieces.items()]


def _letters_col(letters: bytes) -> int:
    col = 0
    for ch in letters.upper():
        col = col * 26 + ch - 64
    return col


# --- ODS -------------------------------------------------------------------------------------


# Linear in the XML's size whatever it holds: no part runs past a `<` (see element_body).
_ROW = re.compile(
    rb"<table:table-row(?=[\s/>])([^<>]*?)(?:/>|>"
    + element_body(rb"table:table-row(?=[\s/>])")
    + rb")"
)
_CELL = re.compile(
    rb"<table:(?:covered-)?table-cell(?=[\s/>])([^<>]*?)(?:/>|>"
    + element_body(rb"table:(?:covered-)?table-cell(?=[\s/>])")
    + rb")"
)
_TABLE = re.compile(rb"<table:table(?=[\s>])[^<>]*>" + element_body(rb"table:table(?=[\s>])"))
_COLUMNS_REPEATED_ATTRIBUTE = re.compile(rb"\s" + COLUMNS_REPEATED.pattern)
"""A cell's repeat, as the reader reads it (either quote, spaces around `=`, character
references, a `+`: `prescan.repeat`): an editor that knew only `="3"` counted a row
repeated as `='3'` once and wrote a translation into another card's row."""
_ODS_STYLE = re.compile(rb'\stable:style-name="[^"]*"')


def _ods_cell(value: str, style: bytes) -> bytes:
    lines = b"".join(
        b"<text:p>" + escape(line).encode("utf-8") + b"</text:p>" for line in value.split("\n")
    )
    return (
        b"<table:table-cell"
        + style
        + b' office:value-type="string">'
        + lines
        + b"</table:table-cell>"
    )


def _edit_zip_ods(data: bytes, values: dict[Cell, str]) -> bytes:
    return _rezip(data, "content.xml", lambda xml: _edit_ods(xml, values))


def _edit_ods(xml: bytes, values: dict[Cell, str]) -> bytes:
    """The first table's rows counted in one pass, each edited row rebuilt (once per cell
    edited in it, in order) and the output written in one join. (Each edit searched the
    whole XML for the table and walked its rows to the target: a 25 kB file of 4,000 rows
    took 45 s.)"""
    if not values:
        return xml
    table = _TABLE.search(xml)
    if table is None:
        raise CellEditRefused("the spreadsheet has no table")
    base = table.start(1)
    firsts: list[int] = []  # the first row number of each row element (repeated or not)
    rows: list[tuple[int, re.Match[bytes]]] = []
    number = 1
    for found in _ROW.finditer(table.group(1)):
        count = repeat(ROWS_REPEATED, found.group(1))
        if count > 0:
            firsts.append(number)
            rows.append((count, found))
        number += count
    edits: dict[int, list[tuple[int, str]]] = {}
    for (row, col), value in values.items():
        at = bisect_right(firsts, row) - 1
        if at < 0 or row >= firsts[at] + rows[at][0]:
            raise CellEditRefused(f"row {row} is not in the sheet")
        if rows[at][0] > 1:
            raise CellEditRefused(f"row {row} is one of {rows[at][0]} repeated rows")
        edits.setdefault(at, []).append((col, value))
    planned: list[tuple[int, int, bytes]] = []
    for at, cells in edits.items():
        found = rows[at][1]
        new = found.group(0)
        for col, value in cells:
            new = _edit_ods_row(found, col, value)
            again = _ROW.match(new)
            assert again is not None  # a row as _edit_ods_row writes it
            found = again
        planned.append((base + rows[at][1].start(), base + rows[at][1].end(), new))
    return _splice(xml, sorted(planned))


def _edit_ods_row(found: re.Match[bytes], col: int, value: str) -> bytes:
    attrs, inner = found.group(1), found.group(2) or b""
    out: list[bytes] = []
    number, done = 1, False
    for cell in _CELL.finditer(inner):
        count = repeat(COLUMNS_REPEATED, cell.group(1))
        if not done and number <= col < number + count:
            style_found = _ODS_STYLE.search(cell.group(1))
            style = style_found.group(0) if style_found else b""
            plain = _COLUMNS_REPEATED_ATTRIBUTE.sub(b"", cell.group(0), count=1)
            before, after = col - number, number + count - 1 - col
            if before:
                out.append(_repeated(plain, before))
            out.append(_ods_cell(value, style))
            if after:
                out.append(_repeated(plain, after))
            done = True
        else:
            out.append(cell.group(0))
        number += count
    if not done:
        if col > number:
            out.append(b'<table:table-cell table:number-columns-repeated="%d"/>' % (col - number))
        out.append(_ods_cell(value, b""))
    return b"<table:table-row" + attrs + b">" + b"".join(out) + b"</table:table-row>"


def _repeated(cell: bytes, count: int) -> bytes:
    if count == 1:
        return cell
    name = (
        b"<table:covered-table-cell" if cell.startswith(b"<table:covered") else b"<table:table-cell"
    )
    return name + b' table:number-columns-repeated="%d"' % count + cell[len(name) :]
