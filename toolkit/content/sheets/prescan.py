"""A look at the card sheet's XML before the spreadsheet reader builds its table: how many
rows and columns hold something (a repeated row or cell would be built out in memory, a
million times over), and which formulas were saved without their value (the reader shows
those as empty cells, and an empty cell is an absent field: the card would change silently).

Regular expressions over bytes, each linear in the XML's size whatever it holds (no part
runs past a `<`, `element_body`), so a sheet of a few megabytes is scanned in milliseconds;
the archive's sizes were checked before (`archive.inspect`)."""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice

from toolkit.content.sheets.grid import MAX_CELLS, MAX_COLUMNS, MAX_ROWS
from toolkit.content.source import MAX_FILE_BYTES, MAX_REPEATED


@dataclass
class Scan:
    """What a scan found: cells whose formula has no saved value, or the first place past
    the limits (and why)."""

    no_value: list[tuple[int, int]] = field(default_factory=list)
    errors: list[tuple[int, int, str]] = field(default_factory=list)
    """Cells holding a spreadsheet error (`#DIV/0!`, `Err:502`): the reader shows them empty,
    so a card would lose that field silently."""
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    """Merged ranges of an ODS sheet (calamine reports XLSX ones only)."""
    too_large: tuple[int, int, str] | None = None
    repeated: int = 0
    """Characters of text the sheet read builds by repetition (`MAX_REPEATED`), up to the
    cell refused if it was refused."""


def element_body(name: bytes) -> bytes:
    """A regex of an element's body up to its end tag that never runs past another start or
    end tag of the same name (possessively: no backtracking into it), so each match attempt
    stops at the next such tag and a scan of the whole XML stays linear in its size. A body
    of `(.*?)</c>` looked for the end tag from every unclosed start tag to the end of the
    file: 300,000 `<c>` (6 kB zipped) took hours."""
    return rb"((?:[^<]++|<(?!/?" + name + rb"))*+)</" + name + rb">"


_EQ = rb"\s*=\s*[\"']"
"""An attribute's `=` and opening quote as XML allows them (and calamine reads them): either
quote, spaces around `=`; a scan that knew only `r="…"` missed `r='XFD20000'`."""
_QUOTE = rb"[\"']"

_XLSX_ROW = re.compile(rb"<(?:\w+:)?row\b([^<>]*)>")
_XLSX_R = re.compile(rb"\br" + _EQ + rb"(\d+)" + _QUOTE)
_XLSX_CELL = re.compile(rb"<(?:\w+:)?c\b([^<>]*?)(?:/>|>" + element_body(rb"(?:\w+:)?c\b") + rb")")
_XLSX_REF = re.compile(rb"\br" + _EQ + rb"([A-Za-z]{1,3})(\d+)" + _QUOTE)
_XLSX_VALUE = re.compile(rb"<(?:\w+:)?v>[^<]|<(?:\w+:)?is>")


_XLSX_ERROR = re.compile(rb"\bt" + _EQ + rb"e" + _QUOTE)
_XLSX_SHOWN = re.compile(rb"<(?:\w+:)?v>([^<]{1,40})<")
_ODS_SHOWN = re.compile(rb"<text:p[^>]*>([^<]{1,40})<")


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").replace("&amp;", "&").strip() or "an error"


def _column(letters: bytes) -> int:
    col = 0
    for ch in letters:
        col = col * 26 + ch - 64
    return col


_XLSX_EMPTY = rb"<(?:c|\w+:c)\b[^<>]*/>"
"""An empty cell (`<c/>`, `<c r="B2" s="1"/>`): it moves the place of the next cell, but
holds nothing that a limit counts."""
_XLSX_PLACE = re.compile(
    rb"("
    + _XLSX_EMPTY
    + rb"(?:"
    + _XLSX_EMPTY
    + rb"|[^<]++|<(?!(?:\w+:)?(?:row|c)\b[^<>]*>))*+)"
    + rb"|<(?:\w+:)?(row|c)\b([^<>]*)>"
)
"""A run of empty cells (with whatever else lies between them but a row or another cell),
taken in one step; else a row or a cell that may hold something. One step a cell took 1.2 µs
in Python: 63 members of 262,000 `<c/>` (29 kB zipped) took 20 s."""
_XLSX_NOT_EMPTY = re.compile(rb"<(?!(?:\w+:)?c\b[^<>]*/>)")
"""A `<` in a run of empty cells that starts none of them."""
_XLSX_LAST_REF = re.compile(
    rb".*<(?:\w+:)?c\b[^<>]*?\br" + _EQ + rb"([A-Za-z]+)(\d+)" + _QUOTE + rb"[^<>]*/>", re.S
)
"""The last cell of a run of empty cells that has a reference (its first one, as
`_XLSX_PLACE_REF` finds it)."""
_XLSX_PLACE_REF = re.compile(rb"\br" + _EQ + rb"([A-Za-z]+)(\d+)" + _QUOTE)


_LETTER = rb"[A-Za-z]"
_XLSX_FAR = re.compile(
    rb"\sr"
    + _EQ
    + rb"(?:(?:"
    + _LETTER
    + rb"{4,}|[B-Zb-z]"
    + _LETTER
    + rb"{2}|[Aa][M-Zm-z]"
    + _LETTER
    + rb"|[Aa][Ll][M-Zm-z])\d|"
    + _LETTER
    + rb"+0*(?:[1-9]\d{5,}|[3-9]\d{4}|2[1-9]\d{3}"
    + rb"|20[1-9]\d\d|200[1-9]\d|2000[1-9])"
    + _QUOTE
    + rb")"
)
_XLSX_UNPLACED = re.compile(rb"<(?:\w+:)?c(?=[\s/>])(?![^<>]*\sr\s*=)")
"""A reference past column ALL (1,000) or row 20,000; with a cell without one
(`_XLSX_UNPLACED`), the only sheets whose cells are placed one by one (in Python, 6 µs a
cell: 3 s for a 17 MB sheet; these two regexes take 0.25 s)."""


_XLSX_WIDE = re.compile(rb"\sr" + _EQ + rb"([A-Za-z]{2,3})\d")
"""A reference past column Z."""


def _xlsx_limits(xml: bytes, scan: Scan, unplaced: bool) -> None:
    """Find the first cell that may hold something (any but an empty `<c …/>`) past
    `MAX_ROWS` or `MAX_COLUMNS`, else the first past `MAX_AREA`, placed as calamine places
    it (its `r`, else the cell after the one before, in the row after the one before), in
    one walk over the cells.

    Past the rows or columns: calamine allocates every cell up to the farthest before it
    says how far its sheet reaches (one cell at XFD20000 took 9.5 GB; XFD1048576 aborted the
    process). Past the area (its row × its column, and the farthest before it): the reader
    builds every cell from A1 to the last row and column that hold something. A sheet whose
    cells are placed by their references and reach no column past `MAX_AREA // MAX_ROWS`
    (200) is within it, seen in one search of the columns past Z (15 ms in a sheet of
    200,000 cells); others are placed cell by cell."""
    places = unplaced or _XLSX_FAR.search(xml) is not None
    area = unplaced
    if not area:
        letters = set(_XLSX_WIDE.findall(xml))
        cols = max((_column(found.upper()) for found in letters), default=26)
        area = cols * MAX_ROWS > MAX_AREA
    if not places and not area:
        return
    far_row = far_col = 0
    past_area = None
    for row, col, attrs in _xlsx_placed(xml):
        if attrs.endswith(b"/"):
            continue
        if places and (row > MAX_ROWS or col > MAX_COLUMNS):
            which = f"{MAX_ROWS:,} rows" if row > MAX_ROWS else f"{MAX_COLUMNS:,} columns"
            scan.too_large = (row, col, f"the sheet has values in more than {which}")
            return
        if area and past_area is None:
            far_row, far_col = max(far_row, row), max(far_col, col)
            if far_row * far_col > MAX_AREA:
                past_area = _area_too_large(row, col)
                if not places:
                    break
    scan.too_large = past_area


def _xlsx_placed(xml: bytes, end: int | None = None) -> Iterator[tuple[int, int, bytes]]:
    """The row, column and attributes of each cell of the sheet (up to offset `end`),
    placed as calamine places it; a run of empty cells is one, its last (attributes `/`)."""
    row, col = 0, 0
    for found in _XLSX_PLACE.finditer(xml, 0, len(xml) if end is None else end):
        run = found.group(1)
        if run is not None:
            last = _XLSX_LAST_REF.match(run) if b"=" in run else None
            if last is not None:
                row, col = int(last.group(2)), _column(last.group(1).upper())
                run = run[last.end() :]
            col += _empty_cells(run)
            yield row, col, b"/"
            continue
        attrs = found.group(3)
        if found.group(2) == b"row":
            number = _XLSX_R.search(attrs)
            row, col = int(number.group(1)) if number else row + 1, 0
            continue
        ref = _XLSX_PLACE_REF.search(attrs)
        if ref:
            row, col = int(ref.group(2)), _column(ref.group(1).upper())
        else:
            col += 1
        yield row, col, attrs


def _empty_cells(run: bytes) -> int:
    """The empty cells in (a part of) a run of them: each begins with a `<`, and anything
    else between them rarely holds one."""
    count = run.count(b"<")
    if count and count != run.count(b"<c/>"):
        count -= len(_XLSX_NOT_EMPTY.findall(run))
    return count


def _xlsx_place(xml: bytes, cell: re.Match[bytes]) -> tuple[int, int]:
    """Where the cell `cell` (a match in `xml`) is: its reference, else as calamine places a
    cell without one (a sheet may leave them all out)."""
    ref = _XLSX_REF.search(cell.group(1))
    if ref:
        return int(ref.group(2)), _column(ref.group(1).upper())
    last = (1, 1)
    for row, col, _ in _xlsx_placed(xml, cell.end()):
        last = (row, col)
    return last


_XLSX_CELL_START = re.compile(rb"<(?:\w+:)?c\b([^<>]*)>")


def xlsx_cells(xml: bytes) -> tuple[int, int, str] | None:
    """Where an XLSX sheet holds more than `MAX_CELLS` values (a `<v>` not empty, an inline
    `<is>`), or None: said before the reader builds them (20 MB of sheet XML, 100 kB zipped
    at the archive's ratio bound, made it build 1.3 M cells, 2 s and 160 MB, before they
    were counted). An upper bound of the reader's count, which leaves out empty texts: a
    card sheet holds none in a value."""
    if sum(xml.count(tag) for tag in (b"<v>", b"<is>", b":v>", b":is>")) <= MAX_CELLS:
        return None  # the tags counted (and the end tags of prefixed ones): fewer values
    past = next(islice(_XLSX_VALUE.finditer(xml), MAX_CELLS, None), None)
    if past is None:
        return None
    at = past.start()
    starts = list(_XLSX_CELL_START.finditer(xml, max(at - 4_096, 0), at))
    ref = _XLSX_REF.search(starts[-1].group(1)) if starts else None
    if ref:
        row, col = int(ref.group(2)), _column(ref.group(1).upper())
    else:  # placed as the reader places a cell without its reference
        row, col, _ = deque(_xlsx_placed(xml, at), maxlen=1).pop()
    return row, col, f"the sheet holds more than {MAX_CELLS:,} filled cells"


_XLSX_CELL_END = _XLSX_CELL.pattern[len(rb"<(?:\w+:)?c\b") :]
"""What `_XLSX_CELL` matches after a cell's tag name: its attributes and body."""
_XLSX_HAS_REF = rb"(?=[^<>]*?\br" + _EQ + rb"[A-Za-z]{1,3}\d+" + _QUOTE + rb")"
_XLSX_BODY_TAG = rb"/?(?:\w+:)?c\b"
_XLSX_MATTERS = re.compile(
    rb"<(?:\w+:)?c\b"
    + _XLSX_HAS_REF
    + rb"(?:(?=[^<>]*?\bt"
    + _EQ
    + rb"e"
    + _QUOTE
    + rb")"
    + _XLSX_CELL_END
    + rb"|[^<>]*+(?<!/)>(?=(?:[^<:]++|<(?!"
    + _XLSX_BODY_TAG
    + rb"|f)|:(?!f))*+(?:<f|:f))(?:[^<]++|<(?!"
    + _XLSX_BODY_TAG
    + rb"|(?:\w+:)?v>[^<]|(?:\w+:)?is>))*+</(?:\w+:)?c\b>)"
)
"""A cell (as `_XLSX_CELL` finds it) with a reference that is an error (`t="e"`) or holds a
formula (`<f` or `:f` in its body) without a value: the cells `scan_xlsx` reports; the
others are passed over in C, where a step a cell in Python took 2.9 s for 4 M `<c/>` and
one formula."""
_XLSX_SHARED_CELL = re.compile(
    rb"<(?:\w+:)?c\b(?=[^<>]*?\bt" + _EQ + rb"s" + _QUOTE + rb")" + _XLSX_CELL_END
)
"""A cell (as `_XLSX_CELL` finds it) that may name a shared string (`t="s"`)."""


def _xlsx_cells_at(xml: bytes, cells: re.Pattern[bytes]) -> Iterator[re.Match[bytes]]:
    """The cells of the sheet that `_XLSX_CELL.finditer` finds where `cells` (a narrower
    `_XLSX_CELL`) matches: no cell holds the start of another, so a cell is where it begins
    whichever cells before it were skipped, and those are skipped in C."""
    for found in cells.finditer(xml):
        cell = _XLSX_CELL.match(xml, found.start())
        if cell is not None:  # always: `cells` matches where it does
            yield cell


def scan_xlsx(xml: bytes, values: bool = True) -> Scan:
    """What the sheet XML holds past the limits, and (with `values`) its formulas saved
    without a value and its error cells."""
    scan = Scan()
    for count, match in enumerate(_XLSX_ROW.finditer(xml), start=1):
        if count > MAX_ROWS:
            number = _XLSX_R.search(match.group(1))
            row = int(number.group(1)) if number else count
            scan.too_large = (row, 1, f"the sheet has more than {MAX_ROWS:,} rows")
            return scan
    unplaced = _XLSX_UNPLACED.search(xml) is not None
    _xlsx_limits(xml, scan, unplaced)
    if scan.too_large is not None or not values:
        return scan
    errors = _XLSX_ERROR.search(xml) is not None
    if b"<f" not in xml and b":f" not in xml and not errors:
        return scan
    for cell in _xlsx_cells_at(xml, _XLSX_MATTERS):
        body = cell.group(2) or b""
        if errors and _XLSX_ERROR.search(cell.group(1)):
            ref = _XLSX_REF.search(cell.group(1))
            shown = _XLSX_SHOWN.search(body)
            if ref:
                what = _text(shown.group(1)) if shown else "an error"
                scan.errors.append((int(ref.group(2)), _column(ref.group(1).upper()), what))
            continue
        if b"<f" not in body and b":f" not in body:
            continue
        if _XLSX_VALUE.search(body):
            continue
        ref = _XLSX_REF.search(cell.group(1))
        if ref:
            scan.no_value.append((int(ref.group(2)), _column(ref.group(1).upper())))
    return scan


_ODS_TABLE = re.compile(rb"<table:table(?=[\s>])[^<>]*>")
_ODS_ROW = re.compile(
    rb"<table:table-row(?=[\s/>])([^<>]*?)(?:/>|>"
    + element_body(rb"table:table-row(?=[\s/>])")
    + rb")"
)
_ODS_CELL = re.compile(
    rb"<table:(?:covered-)?table-cell(?=[\s/>])([^<>]*?)(?:/>|>"
    + element_body(rb"table:(?:covered-)?table-cell(?=[\s/>])")
    + rb")"
)
_ODS_INERT_ATTRS = rb"(?:[^<>/rsvf]++|/(?!>)|r(?!epeated)|s(?!panned)|v(?!alue-type)|f(?!ormula))*+"
"""The attributes of a cell or row that says nothing of its place or value: no repeat, span,
value type or formula (an upper bound of those the scan reads: their names hold these)."""
_ODS_CELL_TAG = rb"<table:(?:covered-)?table-cell(?=[\s/>])"
_ODS_INERT_CELL = _ODS_CELL_TAG + _ODS_INERT_ATTRS + rb"/>"
"""An empty cell that moves the next one a column, and does nothing else."""
_ODS_CELL_OR_RUN = re.compile(
    _ODS_CELL_TAG
    + rb"(?:("
    + _ODS_INERT_ATTRS
    + rb"/>(?:"
    + _ODS_INERT_CELL
    + rb"|[^<]++)*+)|"
    + _ODS_CELL.pattern[len(_ODS_CELL_TAG) :]
    + rb")"
)
"""A run of empty cells (text between them), taken in one step (their count: their `<`);
else a cell as `_ODS_CELL` finds it. Each begins with the tag, which the regex engine looks
for as a whole."""
_ODS_ROW_TAG = rb"<table:table-row(?=[\s/>])"
_ODS_INERT_ROW_END = (
    _ODS_INERT_ATTRS + rb"(?:/>|>(?:" + _ODS_INERT_CELL + rb"|[^<]++)*+</table:table-row>)"
)
"""A row of a single row's height whose cells are all empty, as `_ODS_ROW` finds it, after
its tag name."""
_ODS_ROW_OR_RUN = re.compile(
    _ODS_ROW_TAG
    + rb"(?:("
    + _ODS_INERT_ROW_END
    + rb"(?:"
    + _ODS_ROW_TAG
    + _ODS_INERT_ROW_END
    + rb"|[^<]++)*+)|"
    + _ODS_ROW.pattern[len(_ODS_ROW_TAG) :]
    + rb")"
)
"""A run of rows that hold nothing (their count: their start tags), taken in one step (a
step a cell in Python: 1 M empty cells took seconds); else a row as `_ODS_ROW` finds it."""
_VALUE = rb"""\s*=\s*(?:"([^"<]*)"|'([^'<]*)')"""
"""An attribute's whole value, either quote: read through `xml_text`, since calamine reads
an ODS attribute's character references (`table:number-rows-repeated="&#51;0000"` is 30,000
rows to it; the scan, which knew only digits, saw no repeat at all)."""
ROWS_REPEATED = re.compile(rb"table:number-rows-repeated" + _VALUE)
COLUMNS_REPEATED = re.compile(rb"table:number-columns-repeated" + _VALUE)
_COLUMNS_SPANNED = re.compile(rb"table:number-columns-spanned" + _VALUE)
_ROWS_SPANNED = re.compile(rb"table:number-rows-spanned" + _VALUE)
_ODS_VALUE_TYPE = re.compile(rb"calcext:value-type" + _VALUE)
_REFERENCE = re.compile(r"&(?:#([0-9]{1,8})|#x([0-9A-Fa-f]{1,7})|(amp|lt|gt|quot|apos));")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_DIGITS = re.compile(r"\+?[0-9]+")
"""A count as calamine reads one (Rust's integer parse takes a leading `+`: a repeat of
"+400000" rows was built cell by cell, unseen by a scan that knew only digits)."""


def xml_text(raw: bytes) -> str:
    """An attribute value as an XML parser reads it: its character references (`&#51;`,
    `&#x33;`) and the five predefined entities replaced (an unknown one left as written)."""

    def one(found: re.Match[str]) -> str:
        decimal, hexadecimal, name = found.groups()
        if name:
            return _ENTITIES[name]
        code = int(decimal) if decimal else int(hexadecimal, 16)
        return chr(code) if 0 < code <= 0x10FFFF else found.group(0)

    return _REFERENCE.sub(one, raw.decode("utf-8", "replace"))


def _attribute(pattern: re.Pattern[bytes], attrs: bytes) -> str | None:
    found = pattern.search(attrs)
    if found is None:
        return None
    raw = found.group(1) if found.group(1) is not None else found.group(2)
    return xml_text(raw).strip()


def repeat(pattern: re.Pattern[bytes], attrs: bytes) -> int:
    value = _attribute(pattern, attrs)
    return min(int(value), 10**9) if value is not None and _DIGITS.fullmatch(value) else 1


MAX_BUILT = 256_000_000
"""What the reader may build of a sheet in memory, weighed as `CELL_WEIGHT` a filled cell
plus the characters of its text: a cell repeated (ODS), a run of spaces written as one
`<text:s text:c="300000000"/>` (ODS) or a long shared string named by many cells (XLSX) is
built out whole. A 4 kB ODS of 19,000 × 100 repeated cells of 1,000 letters, all within the
row and column limits, passed 5 GB; 30,000 XLSX cells naming one 30,000-letter string, 1.8 GB.
A deck of 20,000 cards of 10 fields of 1,000 letters weighs 213 M."""
CELL_WEIGHT = 64
MAX_AREA = MAX_BUILT // CELL_WEIGHT
"""Cells the reader may build from A1 to a sheet's last row and column that hold something
(4 M): it builds each one, empty or not. Two values of a 5 kB XLSX, at A1 and ALL20000,
took it 1.7 s and 980 MB; an ODS the same (an upper bound for an ODS file's other tables,
built from their first value)."""


MAX_GAME_AREA = 2 * MAX_AREA
"""Cells the reader may build of all of a game's sheets together, each from A1 to its last
row and column (two sheets at `MAX_AREA`): 40 workbooks of 2 kB, each spanning just under
`MAX_AREA` with one far value, took validate 10.5 s and 2.5 s of system time (probe 52-11).
A deck of 20,000 cards of 30 columns spans 600,000."""


def _area_too_large(row: int, col: int) -> tuple[int, int, str]:
    return (
        row,
        col,
        f"from A1 to its last filled row and column it spans more than {MAX_AREA:,} cells,"
        " which the reader builds one by one, empty or not: delete the filled cells far from"
        " the cards",
    )


_ODS_SPACES = re.compile(rb"<text:s(?=[\s/>])([^<>]*)")
_SPACE_COUNT = re.compile(rb"text:c" + _VALUE)


def _built_too_much(row: int, col: int) -> tuple[int, int, str]:
    return (
        row,
        col,
        f"its cells would take more than {MAX_BUILT // 1_000_000:,} M characters in memory"
        " (a repeated cell and a shared string are built out once per cell)",
    )


def _repeated_too_much(row: int, col: int, how: str, before: int) -> tuple[int, int, str]:
    """The refusal of the cell at which what the sheet repeats (with the `before` characters
    the game's files read before it repeated) passes `MAX_REPEATED`."""
    over = " ("
    if before:
        over = f" over the game's content files ({before:,} in the files read before this one;"
    return (
        row,
        col,
        f"its cells repeat more than {MAX_REPEATED:,} characters of text{over}{how}; each copy"
        " is a text every check reads: identical cards are one row with a `copies` column)",
    )


_MARKUP = re.compile(rb"<[^<>]*>")


def _ods_repeated(body: bytes, copies: int) -> int:
    """The characters of text a cell builds by repetition (`MAX_REPEATED`): what its
    `copies` hold (each its text and the spaces its `<text:s text:c="N"/>` stand for) less
    what is written once (its text, a space for each `<text:s/>`)."""
    written = len(_MARKUP.sub(b"", body).decode("utf-8", "replace"))
    spaces = marks = 0
    if b"<text:s" in body:
        for found in _ODS_SPACES.finditer(body):
            spaces += repeat(_SPACE_COUNT, found.group(1))
            marks += 1
    return copies * (written + spaces) - (written + marks)


def _ods_text_weight(body: bytes) -> int:
    """What a cell's text weighs once read: its bytes (markup included: an upper bound) and
    the spaces its `<text:s text:c="N"/>` stand for."""
    weight = len(body)
    if b"<text:s" in body:
        for found in _ODS_SPACES.finditer(body):
            weight += repeat(_SPACE_COUNT, found.group(1))
    return weight


NESTED_TABLE = (
    "the sheet holds a table inside a cell, which no spreadsheet program writes and the size"
    " check cannot follow (a 1.8 kB sheet built 2.4 GB behind one); open the file in your"
    " spreadsheet program and save it again"
)


def scan_ods(xml: bytes, before: int = 0) -> Scan:
    """Scan every table of an ODS content.xml: calamine reads the first sheet, but builds
    every table's cells when it opens the file (a second table of 400,000 repeated rows took
    1.2 GB, unseen by a scan of the first). `before`: the characters of text the game's files
    read before this one repeated (its first table may repeat what they left of
    `MAX_REPEATED`)."""
    scan = Scan()
    weight = 0
    for index, table in enumerate(_ODS_TABLE.finditer(xml)):
        end = xml.find(b"</table:table>", table.end())
        inner = _ODS_TABLE.search(xml, table.end(), end if end >= 0 else len(xml))
        if inner is not None:  # a table in a cell: its end is not the outer one's (probe 61-6)
            scan.too_large = (1, 1, NESTED_TABLE)
            return scan
        name = None
        if index:
            found = re.search(rb"\btable:name" + _VALUE, table.group(0))
            raw = (found.group(1) or found.group(2) or b"") if found else b""
            name = xml_text(raw)
        stop = end if end >= 0 else len(xml)
        counted = None if index else before  # what the sheet read repeats, its first table
        weight = _scan_ods_table(xml, table.end(), stop, scan, weight, counted)
        if scan.too_large is not None:
            if name is not None:
                row, col, why = scan.too_large
                scan.too_large = (row, col, f"{why} (in the sheet {name!r})")
            return scan
    return scan


def _scan_ods_table(
    xml: bytes, start: int, end: int, scan: Scan, weight: int, before: int | None
) -> int:
    """Scan one table (`xml[start:end]`) into `scan` (its cells' findings and what they
    repeat only for the first, the sheet read, whose `before` is not None: what the game's
    files read before it repeated); `weight`: what the tables before it weigh (`MAX_BUILT`);
    returns it with this table's."""
    first = before is not None
    limit = MAX_REPEATED - (before or 0)
    row, cells = 1, 0
    far_row = far_col = 0  # the last row and column that hold something (`MAX_AREA`)
    for found in _ODS_ROW_OR_RUN.finditer(xml, start, end):
        if found.group(1) is not None:  # a run of rows that hold nothing
            row += 1 + found.group(1).count(b"<table:table-row")
            continue
        rows = repeat(ROWS_REPEATED, found.group(2))
        col = 1
        spans: list[tuple[int, int]] = []  # the filled cells of one of its rows
        for cell in _ODS_CELL_OR_RUN.finditer(found.group(3) or b""):
            if cell.group(1) is not None:  # a run of cells that hold nothing
                col += 1 + cell.group(1).count(b"<")
                continue
            attrs, body = cell.group(2), cell.group(3) or b""
            cols = repeat(COLUMNS_REPEATED, attrs)
            filled = b"office:value-type" in attrs or b"<text:p" in body
            if filled and row + rows - 1 > MAX_ROWS:
                scan.too_large = (
                    MAX_ROWS + 1 if row <= MAX_ROWS else row,
                    col,
                    f"the sheet has values in more than {MAX_ROWS:,} rows",
                )
                return weight
            if filled and col + cols - 1 > MAX_COLUMNS:
                scan.too_large = (
                    row,
                    max(col, MAX_COLUMNS + 1),
                    f"the sheet has values in more than {MAX_COLUMNS:,} columns",
                )
                return weight
            if filled:
                far_row, far_col = max(far_row, row + rows - 1), max(far_col, col + cols - 1)
                if far_row * far_col > MAX_AREA:
                    scan.too_large = _area_too_large(row, col)
                    return weight
                weight += (CELL_WEIGHT + _ods_text_weight(body)) * cols * rows
                if weight > MAX_BUILT:
                    scan.too_large = _built_too_much(row, col)
                    return weight
            if filled and first and (cols * rows > 1 or b"<text:s" in body):
                scan.repeated += _ods_repeated(body, cols * rows)
                if scan.repeated > limit:
                    how = "a repeated cell is copied into each row and column it spans, a"
                    how += ' <text:s text:c="N"/> into N spaces'
                    scan.too_large = _repeated_too_much(row, col, how, before or 0)
                    return weight
            if first:
                _ods_cell_findings(scan, attrs, body, row, col)
                if filled:
                    spans.append((col, cols))
            col += cols
        if spans:
            cells += rows * sum(cols for _, cols in spans)
            if cells > MAX_CELLS:
                scan.too_large = _too_many_cells(row, rows, spans, cells)
                return weight
        row += rows
    return weight


def _too_many_cells(
    row: int, rows: int, spans: list[tuple[int, int]], cells: int
) -> tuple[int, int, str]:
    """The refusal of the filled cell past `MAX_CELLS` (counted row by row, as the reader's
    count does) in the `rows` rows from `row` whose filled cells are `spans` (column, count),
    the sheet's filled cells up to their last being `cells`: said before the reader builds
    them (a 2 kB ODS of one cell repeated over 1,000 columns and 3,999 rows made it build 4 M
    cells, 430 MB, before they were counted)."""
    wide = sum(cols for _, cols in spans)
    left = MAX_CELLS - (cells - rows * wide)  # filled cells that fit from `row` on
    row += left // wide
    left %= wide
    for col, cols in spans:
        if left < cols:
            return row, col + left, f"the sheet holds more than {MAX_CELLS:,} filled cells"
        left -= cols
    raise AssertionError("the cell past the limit is in these rows")


def _ods_cell_findings(scan: Scan, attrs: bytes, body: bytes, row: int, col: int) -> None:
    """A cell's merge, error and formula without a value, into `scan`."""
    wide = repeat(_COLUMNS_SPANNED, attrs)
    tall = repeat(_ROWS_SPANNED, attrs)
    if wide > 1 or tall > 1:
        scan.merged.append((row, col, row + tall - 1, col + wide - 1))
    if _attribute(_ODS_VALUE_TYPE, attrs) == "error":
        shown = _ODS_SHOWN.search(body)
        scan.errors.append((row, col, _text(shown.group(1)) if shown else "an error"))
    elif b"table:formula=" in attrs and b"office:value-type" not in attrs:
        scan.no_value.append((row, col))


_SHARED_ITEM = re.compile(
    rb"<(?:\w+:)?si(?=[\s/>])[^<>]*?(?:/>|>" + element_body(rb"(?:\w+:)?si(?=[\s/>])") + rb")"
)
_SHARED_TYPE = re.compile(rb"\bt" + _EQ + rb"s" + _QUOTE)
_SHARED_INDEX = re.compile(rb"<(?:\w+:)?v>\s*\+?([0-9]{1,12})\s*<")


_SHARED_TEXT = re.compile(rb"<(?:\w+:)?t(?=[\s>])[^<>]*(?<!/)>([^<]*)<")
_SHARED_CELL = re.compile(
    rb"<(?:\w+:)?c\b[^<>]*?\bt" + _EQ + rb"s" + _QUOTE + rb"[^<>]*(?<!/)>"
    rb"\s*<(?:\w+:)?v>\s*\+?0*([0-9]{1,12})\s*<"
)
"""A cell naming a shared string as spreadsheet programs write it (`<c r="B2" t="s"><v>0`):
counted in one pass (`xlsx_built`), where a match per cell (`_XLSX_CELL`) took 2 s for
200,000 cells."""


class SharedStrings:
    """An XLSX file's shared-string tables (each member named so: whichever one the reader
    takes) and what each string weighs: its item's bytes, markup included (an upper bound
    of what it takes in memory), and, asked for one at a time, the characters of its text
    (`<t>`, entities as written: an upper bound too)."""

    def __init__(self, tables: list[bytes]) -> None:
        self.tables = tables
        self.items = [[found.span(1) for found in _SHARED_ITEM.finditer(xml)] for xml in tables]
        if len(self.items) == 1:
            self.weights = [end - start for start, end in self.items[0]]
        else:
            longest = max((len(items) for items in self.items), default=0)
            self.weights = [
                max((end - start for start, end in self.at(index)), default=0)
                for index in range(longest)
            ]
        self.texts: dict[int, int] = {}

    def at(self, index: int) -> list[tuple[int, int]]:
        return [items[index] for items in self.items if index < len(items)]

    def text(self, index: int) -> int:
        """The characters of string `index`'s text (the longest, of several tables)."""
        known = self.texts.get(index)
        if known is None:
            known = 0
            for xml, items in zip(self.tables, self.items, strict=True):
                start, end = items[index] if index < len(items) else (0, 0)
                body = xml[start:end] if start >= 0 else b""
                chars = sum(len(t.decode("utf-8", "replace")) for t in _SHARED_TEXT.findall(body))
                known = max(known, chars)
            self.texts[index] = known
        return known


def xlsx_built(xml: bytes, shared: SharedStrings) -> tuple[int, int, str] | None:
    """Where the cells of an XLSX sheet that name shared strings would take more than
    `MAX_BUILT` in memory, or repeat more than `MAX_REPEATED` characters of text, or None:
    the reader gives each cell its own copy of the string."""
    return xlsx_repeats(xml, shared)[0]


def xlsx_repeats(
    xml: bytes, shared: SharedStrings, before: int = 0
) -> tuple[tuple[int, int, str] | None, int]:
    """`xlsx_built`, the game's files read before this one having repeated `before`
    characters of text, and the characters this sheet repeats (up to the cell refused)."""
    weights = shared.weights
    if not weights:
        return None, 0
    named = len(_SHARED_TYPE.findall(xml))
    if named < 2:
        return None, 0
    most = max(weights)  # no less than the string's characters
    if named * (CELL_WEIGHT + most) > MAX_BUILT:
        return _xlsx_built_at(xml, shared, before)
    indexes = _SHARED_CELL.findall(xml)
    if len(indexes) != named:  # a `t="s"` not written as programs write cells
        return _xlsx_built_at(xml, shared, before)
    repeated = 0  # an upper bound: each index is written without its leading zeros
    for raw, times in Counter(indexes).items():
        if times > 1 and (index := int(raw)) < len(weights):
            repeated += (times - 1) * shared.text(index)
    if repeated > MAX_REPEATED - before:
        return _xlsx_built_at(xml, shared, before)
    return None, repeated


def _xlsx_built_at(
    xml: bytes, shared: SharedStrings, before: int
) -> tuple[tuple[int, int, str] | None, int]:
    """`xlsx_repeats` cell by cell: the place of the cell that passes a limit."""
    weights = shared.weights
    limit = MAX_REPEATED - before
    weight = repeated = 0
    seen: set[int] = set()
    for cell in _xlsx_cells_at(xml, _XLSX_SHARED_CELL):
        if not _SHARED_TYPE.search(cell.group(1)):
            continue
        index = _SHARED_INDEX.search(cell.group(2) or b"")
        at = int(index.group(1)) if index else len(weights)
        if at >= len(weights):
            weight += CELL_WEIGHT
        elif at in seen:
            weight += CELL_WEIGHT + weights[at]
            repeated += shared.text(at)
        else:
            weight += CELL_WEIGHT + weights[at]
            seen.add(at)
        if weight > MAX_BUILT or repeated > limit:
            row, col = _xlsx_place(xml, cell)
            if weight > MAX_BUILT:
                return _built_too_much(row, col), repeated
            how = "a shared string is copied into each cell that names it"
            return _repeated_too_much(row, col, how, before), repeated
    return None, repeated


MAX_TEXT = MAX_FILE_BYTES
"""Characters of text a card sheet's cells may hold as written (its shared strings, inline
strings and values), the bound a YAML content file's size puts on its text: an XLSX file's
members may unpack to 100 times its size (`archive.MAX_RATIO`), and a 284 kB workbook of
18 M distinct characters passed every other bound and made `validate` run 10 s (its glossary
walk, fit and parity read each one). What a sheet repeats is `MAX_REPEATED`'s."""
_MARKUP_OR_SPACE = re.compile(rb"<[^<>]*>(?:\s++(?=<))?")
"""A tag, and the blanks after it up to the next tag (an indented XML file's): not a cell's
text."""


def written_text(xml: bytes) -> int:
    """The characters of text `xml` holds between its tags (entities as written, blanks
    between two tags left out): an upper bound of what the reader makes texts of, counted
    in C (one pass that removes the markup, one that decodes)."""
    return len(_MARKUP_OR_SPACE.sub(b"", xml).decode("utf-8", "replace"))
