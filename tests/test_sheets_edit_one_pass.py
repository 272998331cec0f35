"""The sheet cell editor writes all of a file's edits in one pass (issue #33, probe 40 H1):
the same bytes as the editor of one cell at a time (kept below as the reference), and work
that grows with the file, not with the file times the edits."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from toolkit.content.sheets import edit
from toolkit.content.sheets.csv_reader import delimiter
from toolkit.content.sheets.edit import (
    _ROW,
    _STYLE,
    _TABLE,
    CellEditRefused,
    _csv_fields,
    _csv_value,
    _edit_ods_row,
    _letters_col,
    _xlsx_cell,
)
from toolkit.content.sheets.prescan import ROWS_REPEATED, element_body, repeat
from toolkit.diagnostics.diagnostic import cell_name

Cell = tuple[int, int]

# --- the editor of one cell at a time, as it was (the reference) ------------------------------


def old_edit_csv(data: bytes, values: dict[Cell, str]) -> bytes:
    """One cell at a time, in the order of rows and columns, the fields found again after
    each (the old editor planned every cell on the fields as they were, and wrote two new
    cells of one short row in the order of their texts: `c1,a1` + col 3 `x` + col 4 `y`
    became `c1,a1,,y,x`)."""
    raw = data.decode("utf-8")
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    text = raw.removeprefix(bom)
    sep = delimiter(text.split("\n", 1)[0])
    for (row, col), value in sorted(values.items()):
        fields = _csv_fields(text, sep)
        new = _csv_value(value, sep)
        if (row, col) in fields:
            start, end = fields[(row, col)]
        else:
            last = max((c for r, c in fields if r == row), default=0)
            if not last:
                raise CellEditRefused(f"row {row} is not in the file")
            start = end = fields[(row, last)][1]
            new = sep * (col - last) + new
        text = text[:start] + new + text[end:]
    return (bom + text).encode("utf-8")


def old_edit_xlsx(xml: bytes, values: dict[Cell, str]) -> bytes:
    for (row, col), value in values.items():
        ref = cell_name(row, col)
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
        if head.group(1):
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


def old_edit_ods(xml: bytes, values: dict[Cell, str]) -> bytes:
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


# --- generated sheets and edits --------------------------------------------------------------


def _word(rng: random.Random) -> str:
    return "".join(
        rng.choice(["a", "b", "é", " ", ",", '"', ";", "<", "&", "z\nz"])
        for _ in range(rng.randint(0, 5))
    )


def _edits(rng: random.Random, rows: int, cols: int) -> dict[Cell, str]:
    cells = {
        (rng.randint(1, rows + (1 if rng.random() < 0.1 else 0)), rng.randint(1, cols + 2))
        for _ in range(rng.randint(0, 2 * rows))
    }
    return {cell: _word(rng) for cell in rng.sample(sorted(cells), len(cells))}


def _csv(rng: random.Random) -> tuple[bytes, int, int]:
    sep = rng.choice([",", ";"])
    end = rng.choice(["\n", "\r\n"])
    rows, cols = rng.randint(1, 12), rng.randint(1, 5)
    lines = [sep.join(f"h{c}" for c in range(cols))]
    for _ in range(rows - 1):
        lines.append(sep.join(_csv_value(_word(rng), sep) for _ in range(rng.randint(1, cols))))
    text = end.join(lines) + (end if rng.random() < 0.5 else "")
    bom = "\ufeff" if rng.random() < 0.3 else ""
    return (bom + text).encode("utf-8"), rows, cols


def _xlsx(rng: random.Random) -> tuple[bytes, int, int]:
    rows, cols = rng.randint(1, 12), rng.randint(1, 5)
    out = [b"<worksheet><sheetData>"]
    for row in range(1, rows + 1):
        if rng.random() < 0.1:
            continue  # no such row
        present = sorted(rng.sample(range(1, cols + 1), rng.randint(0, cols)))
        if not present and rng.random() < 0.5:
            out.append(b'<row r="%d" spans="1:3"/>' % row)
            continue
        out.append(b'<row r="%d">' % row)
        for col in present:
            ref = cell_name(row, col).encode()
            if rng.random() < 0.2:
                ref = ref.lower()
            style = b' s="%d"' % rng.randint(0, 3) if rng.random() < 0.4 else b""
            kind = rng.random()
            if kind < 0.2:
                out.append(b'<c r="' + ref + b'"' + style + b"/>")
            elif kind < 0.6:
                out.append(b'<c r="' + ref + b'"' + style + b"><v>%d</v></c>" % col)
            else:
                out.append(b'<c r="' + ref + b'"' + style + b' t="inlineStr"><is><t>x</t></is></c>')
        out.append(b"</row>")
    out.append(b"</sheetData></worksheet>")
    return b"".join(out), rows, cols


def _ods(rng: random.Random) -> tuple[bytes, int, int]:
    rows, cols = rng.randint(1, 12), rng.randint(1, 5)
    out = [b'<office:spreadsheet><table:table table:name="a"><table:table-column/>']
    row = 1
    while row <= rows:
        if rng.random() < 0.1:
            count = rng.randint(2, 3)
            out.append(
                b'<table:table-row table:number-rows-repeated="%d">' % count
                + b"<table:table-cell/></table:table-row>"
            )
            row += count
            continue
        if rng.random() < 0.1:
            out.append(b"<table:table-row/>")
            row += 1
            continue
        out.append(b'<table:table-row table:style-name="ro1">')
        col = 1
        while col <= rng.randint(0, cols):
            count = rng.choice([1, 1, 2, 3])
            style = b' table:style-name="ce1"' if rng.random() < 0.3 else b""
            many = b' table:number-columns-repeated="%d"' % count if count > 1 else b""
            if rng.random() < 0.2:
                out.append(b"<table:covered-table-cell" + many + b"/>")
            elif rng.random() < 0.3:
                out.append(b"<table:table-cell" + style + many + b"/>")
            else:
                out.append(
                    b"<table:table-cell"
                    + style
                    + many
                    + b' office:value-type="string"><text:p>v</text:p></table:table-cell>'
                )
            col += count
        out.append(b"</table:table-row>")
        row += 1
    out.append(b"</table:table></office:spreadsheet>")
    return b"".join(out), rows, cols


def _outcome(function: Any, data: bytes, values: dict[Cell, str]) -> object:
    try:
        return function(data, values)
    except (CellEditRefused, ValueError) as exc:
        return (type(exc), str(exc))


@pytest.mark.parametrize(
    ("make", "old", "new"),
    [
        (_csv, old_edit_csv, edit._edit_csv),
        (_xlsx, old_edit_xlsx, edit._edit_xlsx),
        (_ods, old_edit_ods, edit._edit_ods),
    ],
    ids=["csv", "xlsx", "ods"],
)
def test_one_pass_writes_the_same_bytes_as_one_cell_at_a_time(
    make: Any, old: Any, new: Any
) -> None:
    rng = random.Random(33)
    for _ in range(600):
        data, rows, cols = make(rng)
        values = _edits(rng, rows, cols)
        assert _outcome(new, data, values) == _outcome(old, data, values), (data, values)
        # and without the cells refused (a row not there, a repeated ODS row)
        kept = {c: v for c, v in values.items() if isinstance(_outcome(old, data, {c: v}), bytes)}
        assert _outcome(new, data, kept) == _outcome(old, data, kept), (data, kept)


# --- the work: regex bytes scanned, fields looked at ------------------------------------------


class _Counting:
    """A compiled pattern that counts the bytes its searches run over."""

    def __init__(self, pattern: re.Pattern[bytes], counter: list[int]) -> None:
        self._pattern, self._counter = pattern, counter

    def _span(self, string: bytes, pos: int, endpos: int | None) -> int:
        return (len(string) if endpos is None else min(endpos, len(string))) - pos

    def search(self, string: bytes, pos: int = 0, endpos: int | None = None) -> Any:
        found = self._pattern.search(string, pos, len(string) if endpos is None else endpos)
        self._counter[0] += (found.end() - pos) if found else self._span(string, pos, endpos)
        return found

    def match(self, string: bytes, pos: int = 0, endpos: int | None = None) -> Any:
        found = self._pattern.match(string, pos, len(string) if endpos is None else endpos)
        self._counter[0] += (found.end() - pos) if found else 0
        return found

    def finditer(self, string: bytes, pos: int = 0, endpos: int | None = None) -> Any:
        self._counter[0] += self._span(string, pos, endpos)
        return self._pattern.finditer(string, pos, len(string) if endpos is None else endpos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)


class _CountingRe:
    def __init__(self, counter: list[int]) -> None:
        self._counter = counter

    def compile(self, pattern: bytes, flags: int = 0) -> _Counting:
        return _Counting(re.compile(pattern, flags), self._counter)

    def finditer(self, pattern: bytes, string: bytes) -> Any:
        return self.compile(pattern).finditer(string)

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)


def _count_regex_work(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counter = [0]
    for name, value in list(vars(edit).items()):
        if isinstance(value, re.Pattern):
            monkeypatch.setattr(edit, name, _Counting(value, counter))
    monkeypatch.setattr(edit, "re", _CountingRe(counter))
    return counter


ROWS = 2000


def test_xlsx_edits_scan_the_worksheet_a_few_times_not_once_a_cell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = b"".join(
        b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>c%d</t></is></c>'
        b'<c r="C%d" t="inlineStr"><is><t>a%d</t></is></c></row>' % ((n,) * 5)
        for n in range(1, ROWS + 1)
    )
    xml = b"<worksheet><sheetData>" + rows + b"</sheetData></worksheet>"
    values = {(n, col): f"z{n}" for n in range(1, ROWS + 1) for col in (2, 3)}  # B missing
    counter = _count_regex_work(monkeypatch)
    out = edit._edit_xlsx(xml, values)
    assert out.count(b"z1999<") == 2
    assert counter[0] < 10 * len(xml), counter[0] / len(xml)


def test_ods_edits_walk_the_table_once_not_once_a_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    cell = b'<table:table-cell office:value-type="string"><text:p>a</text:p></table:table-cell>'
    body = b"<table:table-row>" + cell * 2 + b"</table:table-row>"
    xml = (
        b'<office:spreadsheet><table:table table:name="a">'
        + body * ROWS
        + b"</table:table></office:spreadsheet>"
    )
    values = {(n, col): f"z{n}" for n in range(1, ROWS + 1) for col in (2, 3)}
    counter = _count_regex_work(monkeypatch)
    out = edit._edit_ods(xml, values)
    assert out.count(b"<text:p>z1999</text:p>") == 2
    assert counter[0] < 10 * len(xml), counter[0] / len(xml)


class _CountingFields(dict):  # type: ignore[type-arg]
    looked = 0

    def __iter__(self) -> Any:
        for key in super().__iter__():
            _CountingFields.looked += 1
            yield key


def test_csv_cells_missing_look_at_each_field_once(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "id,name.fr,name.en,name.es\n" + "".join(f"c{n},a{n},a{n}\n" for n in range(ROWS))
    fields = _csv_fields
    monkeypatch.setattr(edit, "_csv_fields", lambda t, s: _CountingFields(fields(t, s)))
    _CountingFields.looked = 0
    out = edit._edit_csv(text.encode(), {(n, 4): f"z{n}" for n in range(2, ROWS + 2)})
    assert out.decode().splitlines()[-1] == f"c{ROWS - 1},a{ROWS - 1},a{ROWS - 1},z{ROWS + 1}"
    assert _CountingFields.looked < 3 * (4 * ROWS), _CountingFields.looked


def test_two_new_cells_of_one_short_row_go_to_their_columns() -> None:
    """One import filling two missing fields of one card put them in the order of their
    texts, each counted from the row's end: `c1,a1` became `c1,a1,,y,x`."""
    sheet = b"id,a,b,c,d\nc1,a1\nc2,a2,\n"
    out = edit._edit_csv(sheet, {(2, 3): "x", (2, 4): "y", (3, 4): "y", (3, 5): "z"})
    assert out == b"id,a,b,c,d\nc1,a1,x,y\nc2,a2,,y,z\n"
