"""Edit single cells of a sheet file and nothing else: the CSV text around a field, the XLSX
worksheet XML around a `<c>` element, the ODS content XML around a `<table:table-cell>`;
every other byte (and every other zip member) stays as it was. The PO import writes
translations into sheet decks this way."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
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
    raw = data.decode("utf-8")
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    text = raw.removeprefix(bom)
    sep = delimiter(text.split("\n", 1)[0])
    fields = _csv_fields(text, sep)
    planned: list[tuple[int, int, str]] = []
    for (row, col), value in values.items():
        new = _csv_value(value, sep)
        if (row, col) in fields:
            planned.append((*fields[(row, col)], new))
            continue
        last = max((c for r, c in fields if r == row), default=0)
        if not last:
            raise CellEditRefused(f"row {row} is not in the file")
        end = fields[(row, last)][1]
        planned.append((end, end, sep * (col - last) + new))
    for start, end, new in sorted(planned, reverse=True):
        text = text[:start] + new + text[end:]
    return (bom + text).encode("utf-8")


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


def _edit_xlsx(xml: bytes, values: dict[Cell, str]) -> bytes:
    for (row, col), value in values.items():
        ref = cell_name(row, col)
        # the reader (calamine) takes a reference in either case (`c2` is C2)
        cell = re.compile(
            rb'<c\s[^<>]*?\br="(?i:'
            + ref.encode()
            + rb')"[^<>]*?(?:/>|>'
            + element_body(rb"c\b")
            + rb")"
        )
        found = cell.search(xml)
        if found is not None:
            style = _STYLE.search(found.group(0).split(b">", 1)[0])
            new = _xlsx_cell(ref, value, b' s="' + style.group(1) + b'"' if style else b"")
            xml = xml[: found.start()] + new + xml[found.end() :]
            continue
        line = re.compile(rb'<row\s[^<>]*?\br="' + str(row).encode() + rb'"[^<>]*?(/?)>')
        head = line.search(xml)
        if head is None:
            raise CellEditRefused(f"row {row} is not in the sheet")
        new = _xlsx_cell(ref, value, b"")
        if head.group(1):  # <row …/>: open it
            opened = head.group(0)[:-2] + b">" + new + b"</row>"
            xml = xml[: head.start()] + opened + xml[head.end() :]
            continue
        close = xml.index(b"</row>", head.end())
        at = close
        for other in re.finditer(rb'<c\s[^<>]*?\br="([A-Za-z]+)\d+"', xml[head.end() : close]):
            if _letters_col(other.group(1)) > col:
                at = head.end() + other.start()
                break
        xml = xml[:at] + new + xml[at:]
    return xml


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
    for (row, col), value in values.items():
        table = _TABLE.search(xml)
        if table is None:
            raise CellEditRefused("the spreadsheet has no table")
        base = table.start(1)
        body = table.group(1)
        number = 1
        for found in _ROW.finditer(body):
            count = repeat(ROWS_REPEATED, found.group(1))
            if number <= row < number + count:
                if count > 1:
                    raise CellEditRefused(f"row {row} is one of {count} repeated rows")
                start, end = base + found.start(), base + found.end()
                xml = xml[:start] + _edit_ods_row(found, col, value) + xml[end:]
                break
            number += count
        else:
            raise CellEditRefused(f"row {row} is not in the sheet")
    return xml


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
