"""XLSX and ODS card sheets, read with python-calamine (one Rust reader for both formats):
the first worksheet holds the cards. Before calamine opens a file its zip members are
checked (`archive`) and its sheet XML scanned (`prescan`), so no file can make it unpack or
build more than the content limits allow."""

from __future__ import annotations

import datetime as dt
import io
import math
import posixpath
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

from toolkit.content.sheets import archive, files, prescan
from toolkit.content.sheets.grid import (
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_SHEET_BYTES,
    CellCount,
    Grid,
    Refused,
)
from toolkit.content.sheets.rules import Y_NOT_SHEET, Y_PROTECTED, Y_SHEET_SIZE
from toolkit.content.source import MAX_FILE_BYTES, Y_UNREADABLE, current_repeats
from toolkit.diagnostics import Span
from toolkit.fileio import read_bounded

_SHEET_TAG = re.compile(rb"<(?:\w+:)?sheet\s([^<>]*)>")
_VALUE = rb"""\s*=\s*(?:"([^"]*)"|'([^']*)')"""
"""An attribute's value as XML allows it: either quote, spaces around `=` (calamine reads a
workbook.xml written with single quotes: it was refused as having no worksheet)."""
_REL_ID = re.compile(rb"\b(?:\w+:)?id" + _VALUE)
_RELATIONSHIP = re.compile(rb"<(?:\w+:)?Relationship\s([^<>]*)>")
_ATTR = re.compile(rb"(?<![\w:])([\w:]+)" + _VALUE)
"""An attribute: its name tried from its first character only (no match ends inside a name),
as a name not followed by `=` was scanned again from each of its characters (20 kB: 3 s)."""


def _value(found: re.Match[bytes]) -> bytes:
    """The value of an attribute matched with `_VALUE` (whichever quote it used)."""
    return found.group(found.lastindex or 1) or b""


_CALAMINE_IDS = (b"r:id", b"relationships:id")
"""The attribute names calamine takes a `<sheet>`'s relationship Id from, as written (the
last one written wins); any other `…:id` (`xr:id`) it passes over."""


def _first_sheet_member(source: Path | bytes) -> str | None:
    """The zip member of an XLSX file's first worksheet (the one calamine reads first: its
    `r:id`; an `xr:id` written before it made the scans look at a decoy, probe 38 H2). Only
    the member most likely read: `_other_sheets_too_large` checks every other one."""
    book = archive.read_member(source, "xl/workbook.xml") or b""
    rels = archive.read_member(source, "xl/_rels/workbook.xml.rels") or b""
    sheet = _SHEET_TAG.search(book)
    ids = list(_REL_ID.finditer(sheet.group(1))) if sheet else []
    named = [found for found in ids if found.group(0).startswith(_CALAMINE_IDS)]
    if not ids:
        return None
    rid = named[-1] if named else ids[0]
    member = None
    for rel in _RELATIONSHIP.finditer(rels):  # of two relationships of one Id, the last
        attrs = {found.group(1): _value(found) for found in _ATTR.finditer(rel.group(1))}
        if attrs.get(b"Id") == _value(rid):
            target = attrs.get(b"Target", b"").decode("utf-8", "replace")
            member = target.lstrip("/") if target.startswith("/") else "xl/" + target
    return member


def _sheet_ids(data: bytes, names: list[str]) -> set[str]:
    """The relationship Ids, lowercased, that the `<sheet>` list of the workbook names (each
    id attribute of each `<sheet>`: `r:id`, `xr:id`, …, as written and as references read),
    in each member named `xl/workbook.xml` in any case."""
    ids: set[str] = set()
    for name in names:
        book = archive.read_member(data, name) or b""
        for sheet in _SHEET_TAG.finditer(book):
            for found in _REL_ID.finditer(sheet.group(1)):
                raw = _value(found)
                ids.update({raw.decode("utf-8", "replace").lower(), _unescape(raw).lower()})
    return ids


def _sheet_targets(data: bytes) -> set[str]:
    """The zip members, lowercased, that a relationship of the workbook names whose Id a
    `<sheet>` of xl/workbook.xml names: the only members the reader may open as a worksheet
    (a relationship no sheet names, whatever its type, is never read as one: 60 members of
    1 MB named by `Type="x"` relationships were scanned, 3.2 s a 349 kB workbook, probe 37
    M2). Each target is taken every way a reader may resolve it (under `xl/` or not, `/`
    and `..` folded, character references read or not); the reader finds a member by its
    name in any case, so the relationships are read from each member named
    `xl/_rels/workbook.xml.rels` so, and the sheets from each named `xl/workbook.xml` so."""
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        members = [m.filename for m in book.infolist()]
    ids = _sheet_ids(data, [name for name in members if name.lower() == _BOOK])
    targets: set[str] = set()
    for name in (name for name in members if name.lower() == _RELS):
        rels = archive.read_member(data, name) or b""
        for rel in _RELATIONSHIP.finditer(rels):
            attrs = [_value(found) for found in _ATTR.finditer(rel.group(1))]
            named = {v.decode("utf-8", "replace").lower() for v in attrs}
            named |= {_unescape(v).lower() for v in attrs}
            if not named & ids:
                continue
            for found in _TARGET.finditer(rel.group(1)):
                raw = _value(found).decode("utf-8", "replace")
                for target in {raw, _unescape(_value(found))}:
                    for path in (target, target.lstrip("/"), "xl/" + target):
                        targets.update({path.lower(), posixpath.normpath(path).lower()})
    return targets


_BOOK = "xl/workbook.xml"
_RELS = "xl/_rels/workbook.xml.rels"
_TARGET = re.compile(rb"\bTarget" + _VALUE)


def _other_sheets_too_large(
    data: bytes, first: str | None, targets: set[str], before: int
) -> tuple[tuple[int, int, str] | None, int]:
    """Where any other worksheet of the file holds something past the limits, and the most
    characters one of them repeats from shared strings: which sheet calamine reads first is
    its own reading of workbook.xml and its relationships (an `xr:id` before the `r:id`, or
    two relationships of one Id, made it read another sheet than the one scanned: 9.5 GB),
    so every member a relationship names (`_sheet_targets`) that holds sheet data gets the
    checks of the first sheet: rows and area, filled cells and shared-string repeats (with
    the repeats left out, a 37 kB workbook whose decoy was scanned built 1.8 G characters
    from its real sheet: 3.6 GB, 19 s, probe 38 H2). Members no relationship names are
    never read as a sheet, and are not scanned (63 of them, 1 MB each of empty cells, took
    20 s)."""
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        names = [
            m.filename
            for m in book.infolist()
            if m.filename != first and m.filename.lower() in targets
        ]
    shared: prescan.SharedStrings | None = None
    most = 0
    for name in dict.fromkeys(names):
        xml = archive.read_member(data, name) or b""
        if b"sheetData" not in xml:
            continue
        found = prescan.scan_xlsx(xml, values=False).too_large or prescan.xlsx_cells(xml)
        repeated = 0
        if found is None:
            shared = shared if shared is not None else _shared_strings(data)
            found, repeated = prescan.xlsx_repeats(xml, shared, before)
        if found is not None:
            row, col, why = found
            return (row, col, f"{why} (in {name})"), repeated
        most = max(most, repeated)
    return None, most


def _hidden_markup(data: bytes) -> str | None:
    """The first XML part of the workbook holding a comment or CDATA section, if any: the
    scans before calamine reads the file, and the cell editors, find elements by their tags,
    and a `</table:table-row>` or `</si>` inside a comment ended an element early (a 2 kB
    sheet then took 2.9 GB). Spreadsheet programs write neither."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            names = [m.filename for m in book.infolist() if m.filename.lower().endswith(".xml")]
    except (zipfile.BadZipFile, OSError, ValueError):
        return None  # not a zip: archive.inspect says what it is
    for name in names:
        xml = archive.read_member(data, name) or b""
        if b"<!--" in xml or b"<![CDATA[" in xml:
            return name
    return None


def _shared_names(data: bytes) -> list[str]:
    """The members that may be the workbook's shared-string table (whichever one the reader
    takes)."""
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        return [m.filename for m in book.infolist() if "sharedstrings" in m.filename.lower()]


def _over_game_scans(data: bytes, scanned: set[str], display: str) -> Refused | None:
    """Y013 when the members of `data` the scans read (`scanned`, lowercased) would take the
    game's spreadsheets past `archive.MAX_GAME_SCANNED` together, else None (and charged)."""
    repeats = current_repeats()
    size = archive.unpacked_size(data, scanned)
    if repeats.sheet_bytes + size <= archive.MAX_GAME_SCANNED:
        repeats.sheet_bytes += size
        return None
    before = repeats.sheet_bytes
    message = (
        f"its sheets unpack to {size:,} bytes, and the game's spreadsheets read before it to"
        f" {before:,}: over {archive.MAX_GAME_SCANNED:,} bytes of sheet data, the content"
        " limit for all of a game's spreadsheets together (delete empty formatted rows and"
        " unused sheets, or put fewer cards in sheets)"
    )
    return Refused(Y_SHEET_SIZE.at(display, Span(), message))


def _too_much_text(data: bytes, groups: list[set[str]], display: str) -> Refused | None:
    """Y013 when the cells of `data` hold more than `prescan.MAX_TEXT` characters of text:
    the most any member of each group (lowercased names: the shared-string tables, the
    sheets the reader may read first) holds, added up. Said before the reader builds them,
    as a YAML file's size is before it is parsed; a file whose members are no larger than
    the bound is not counted (a character takes a byte at least)."""
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        members = book.infolist()
    picked = [[m for m in members if m.filename.lower() in group] for group in groups]
    if sum(max((m.file_size for m in group), default=0) for group in picked) <= prescan.MAX_TEXT:
        return None
    held = sum(
        max(
            (prescan.written_text(archive.read_member(data, m.filename) or b"") for m in group),
            default=0,
        )
        for group in picked
    )
    if held <= prescan.MAX_TEXT:
        return None
    message = (
        f"its cells hold {held:,} characters of text; the limit is {prescan.MAX_TEXT:,} a"
        f" card sheet, as a YAML content file holds at most {MAX_FILE_BYTES:,} bytes (each"
        " text is read by every check: split the cards over more than one file)"
    )
    return Refused(Y_SHEET_SIZE.at(display, Span(), message))


def _shared_strings(data: bytes) -> prescan.SharedStrings:
    """The workbook's shared-string tables: each member named so (whichever one the reader
    takes)."""
    names = _shared_names(data)
    return prescan.SharedStrings([archive.read_member(data, name) or b"" for name in names])


_NAME = re.compile(rb"\bname" + _VALUE)
_TABLE_NAME = re.compile(rb"<table:table(?=[\s>])[^<>]*?\btable:name" + _VALUE)


def _unescape(raw: bytes) -> str:
    """A sheet or table name as calamine reads it (character references too: `&#99;ards`
    is the sheet `cards`, which the places of the findings before calamine name)."""
    return prescan.xml_text(raw)


def _first_sheet_name(book: bytes) -> str:
    """The first worksheet's name from xl/workbook.xml (for a place before calamine reads)."""
    sheet = _SHEET_TAG.search(book)
    found = _NAME.search(sheet.group(1)) if sheet else None
    return _unescape(_value(found)) if found else "Sheet1"


def _first_table_name(content: bytes) -> str:
    found = _TABLE_NAME.search(content)
    return _unescape(_value(found)) if found else "Sheet1"


def _cell(value: Any) -> Any:
    """A calamine value as content holds it: whole numbers as int (a spreadsheet stores
    every number as a float), dates as ISO text, empty as None."""
    if value == "" or value is None:
        return None
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        # -0.0 stays -0.0 (as 0 it printed otherwise after a round trip)
        return value if value == 0 and math.copysign(1.0, value) < 0 else int(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return value


def read_workbook(path: Path, display: str, inside: Path | None = None) -> Grid | Refused:
    """The first worksheet of an XLSX or ODS file, read once (every look below is at the
    bytes checked; with `inside`, a file opened outside that folder is refused)."""
    suffix = path.suffix.lower()

    def refuse(r: Any, span: Span, message: str) -> Refused:
        return Refused(r.at(display, span, message))

    repeats = current_repeats()
    before = repeats.before(prescan.MAX_REPEATED)
    try:
        refused = files.unreadable(path, display)
        if refused is not None:
            return refused
        data = read_bounded(path, MAX_SHEET_BYTES, inside=inside)
        if len(data) > MAX_SHEET_BYTES:  # it grew after the check
            message = f"file is over the limit of {MAX_SHEET_BYTES:,} bytes"
            return refuse(Y_SHEET_SIZE, Span(), message)
        problem = archive.inspect(data, suffix)
        if problem is not None:
            r = (
                Y_PROTECTED
                if problem.protected
                else Y_SHEET_SIZE
                if problem.too_large
                else Y_NOT_SHEET
            )
            return refuse(r, Span(), problem.message)
        hidden = _hidden_markup(data)
        if hidden is not None:
            message = (
                f"{hidden} holds an XML comment or CDATA section, which no spreadsheet program"
                " writes and the size check cannot look inside: open the file in your"
                " spreadsheet program and save it again"
            )
            return refuse(Y_NOT_SHEET, Span(), message)
        if suffix == ".xlsx":
            member = _first_sheet_member(data)
            xml = archive.read_member(data, member) if member else None
            if xml is None:
                return refuse(Y_NOT_SHEET, Span(), "not an XLSX workbook: it has no worksheet")
            targets = _sheet_targets(data)
            scanned = targets | {(member or "").lower()} | {n.lower() for n in _shared_names(data)}
            refused = _over_game_scans(data, scanned, display) or _too_much_text(
                data,
                [{n.lower() for n in _shared_names(data)}, targets | {(member or "").lower()}],
                display,
            )
            if refused is not None:
                return refused
            scan = prescan.scan_xlsx(xml)
            first = _first_sheet_name(archive.read_member(data, "xl/workbook.xml") or b"")
            if scan.too_large is None:
                scan.too_large = prescan.xlsx_cells(xml)
            if scan.too_large is None:
                found, scan.repeated = prescan.xlsx_repeats(xml, _shared_strings(data), before)
                scan.too_large = found
            if scan.too_large is None:  # the reader builds one sheet: the most it repeats
                found, repeated = _other_sheets_too_large(data, member, targets, before)
                scan.too_large, scan.repeated = found, max(scan.repeated, repeated)
        else:
            refused = _over_game_scans(data, {"content.xml"}, display) or _too_much_text(
                data, [{"content.xml"}], display
            )
            if refused is not None:
                return refused
            content = archive.read_member(data, "content.xml") or b""
            scan = prescan.scan_ods(content, before)
            first = _first_table_name(content)
    except OSError as exc:
        return refuse(Y_UNREADABLE, Span(), f"cannot read file: {exc.strerror or exc}")
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError) as exc:
        return refuse(Y_NOT_SHEET, Span(), f"not a readable {suffix} file: {_first_line(exc)}")
    if scan.too_large is not None:  # refused before calamine builds the table in memory
        row, col, why = scan.too_large
        if why == prescan.NESTED_TABLE:
            return refuse(Y_NOT_SHEET, Span(row, col, sheet=first), why)
        repeated = scan.repeated > prescan.MAX_REPEATED - before
        if repeated and repeats.passed:  # said at the file that passed the bound
            return Refused(Y_SHEET_SIZE.at(display, Span(), why), quiet=True)
        repeats.passed = repeats.passed or repeated
        return refuse(
            Y_SHEET_SIZE,
            Span(row, col, sheet=first),
            f"{why}, the content limit for {'a game' if repeated and before else 'a card sheet'}"
            + (" (empty formatted rows count: delete them)" if "rows" in why else ""),
        )
    repeats.spent += scan.repeated
    if repeats.sheet_area > prescan.MAX_GAME_AREA:  # refused before calamine opens it
        message = (
            f"the game's sheets read before it span more than {prescan.MAX_GAME_AREA:,} cells"
            " from A1 to their last filled rows and columns, which the reader builds one by"
            " one, empty or not: the content limit for all of a game's spreadsheets together"
            " (delete the filled cells far from the cards)"
        )
        return refuse(Y_SHEET_SIZE, Span(), message)
    import python_calamine as calamine

    try:
        book = calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = book.sheet_names
        if not names:
            return refuse(Y_NOT_SHEET, Span(), "the workbook has no sheet")
        sheet = book.get_sheet_by_index(0)
        name = str(sheet.name)
        end_row, end_col = sheet.end or (0, 0)
        if end_row >= MAX_ROWS or end_col >= MAX_COLUMNS:
            row, col = min(end_row + 1, MAX_ROWS + 1), min(end_col + 1, MAX_COLUMNS + 1)
            return refuse(
                Y_SHEET_SIZE,
                Span(row, col, sheet=name),
                f"the sheet reaches row {end_row + 1:,}, column {end_col + 1:,}; the limits"
                f" are {MAX_ROWS:,} rows and {MAX_COLUMNS:,} columns",
            )
        area = (end_row + 1) * (end_col + 1) if sheet.end else 0
        if repeats.sheet_area + area > prescan.MAX_GAME_AREA:
            message = (
                f"from A1 to its last filled row and column it spans {area:,} cells, and the"
                f" game's sheets read before it {repeats.sheet_area:,}: over"
                f" {prescan.MAX_GAME_AREA:,}, which the reader builds one by one, empty or not,"
                " the content limit for all of a game's spreadsheets together (delete the"
                " filled cells far from the cards)"
            )
            repeats.sheet_area = prescan.MAX_GAME_AREA + 1  # no later sheet is built
            return refuse(Y_SHEET_SIZE, Span(end_row + 1, end_col + 1, sheet=name), message)
        repeats.sheet_area += area
        raw = sheet.to_python(skip_empty_area=False)
        merged = [
            (r1 + 1, c1 + 1, r2 + 1, c2 + 1)
            for (r1, c1), (r2, c2) in (sheet.merged_cell_ranges or [])
        ]
        book.close()
    except calamine.PasswordError:
        return refuse(Y_PROTECTED, Span(), "the file is password-protected: save it without one")
    except Exception as exc:  # calamine's errors name no common base but Exception
        return refuse(Y_NOT_SHEET, Span(), f"not a readable {suffix} file: {_first_line(exc)}")
    except BaseException as exc:  # a panic in the Rust reader: pyo3's PanicException
        if type(exc).__name__ != "PanicException":
            raise
        return refuse(Y_NOT_SHEET, Span(), f"not a readable {suffix} file: {_first_line(exc)}")
    rows = [[_cell(value) for value in row] for row in raw]
    count = CellCount(display, name)
    for number, cells in enumerate(rows, start=1):
        too_many = count.add(number, cells)
        if too_many is not None:
            return too_many
    return Grid(name, rows, merged or scan.merged, scan.no_value, scan.errors)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__
