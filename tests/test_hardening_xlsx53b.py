"""The sheet scans that still stepped through every cell in Python (xlsx53's "not fixed"):
the values scan of an XLSX sheet holding any formula or error cell (4 M `<c/>` and one
formula took 2.9 s), the shared-string walk that places the cell passing a limit, and the
scan of an ODS table (1 M empty cells and 1 M empty rows, 3 s). Each now passes over the
cells that cannot matter in one regex step.

The work is counted (cells and rows handled in Python), never timed: each test is red
before the fix on the counts alone. The findings are the ones the scans made before."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from toolkit.content.sheets import prescan


class _Counted:
    """A compiled regex that counts the matches it hands to Python."""

    def __init__(self, pattern: re.Pattern[bytes]) -> None:
        self.pattern = pattern
        self.matches = 0

    def finditer(self, *args: Any) -> Iterator[re.Match[bytes]]:
        for found in self.pattern.finditer(*args):
            self.matches += 1
            yield found

    def match(self, *args: Any) -> re.Match[bytes] | None:
        found = self.pattern.match(*args)
        self.matches += found is not None
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)


@pytest.fixture
def cells(monkeypatch) -> _Counted:
    """The XLSX cells the scans look at one by one in Python."""
    counted = _Counted(prescan._XLSX_CELL)
    monkeypatch.setattr(prescan, "_XLSX_CELL", counted)
    return counted


def _sheet(*rows: bytes) -> bytes:
    return b"<worksheet><sheetData>" + b"".join(rows) + b"</sheetData></worksheet>"


EMPTY = b"<c/>" * 100_000 + b'<c r="A1" s="1"/>' * 50_000 + b"<x:c/>" * 50_000


def test_a_formula_among_empty_cells_is_found_without_stepping_through_them(cells):
    xml = _sheet(b'<row r="1">' + EMPTY + b'</row><row r="2"><c r="C2"><f>1/0</f></c></row>')
    assert prescan.scan_xlsx(xml).no_value == [(2, 3)]
    assert cells.matches <= 2  # was 200,001


def test_an_error_among_empty_cells_is_found_without_stepping_through_them(cells):
    xml = _sheet(
        b'<row r="1">' + EMPTY + b'<c r="D1" t="e"><v>#N/A</v></c></row>',
        b'<row r="2"><c r="A2" t=\'e\'/>' + EMPTY + b"</row>",
    )
    assert prescan.scan_xlsx(xml).errors == [(1, 4, "#N/A"), (2, 1, "an error")]
    assert cells.matches <= 4  # was 400,002


def test_formulas_with_values_and_cells_without_reference_are_not_stepped_through(cells):
    saved = b'<c r="A1"><f>1+1</f><v>2</v></c><c r="B1"><x:f>2</x:f><is><t>x</t></is></c>'
    unplaced = b"<c><f>3</f></c>"
    xml = _sheet(
        b'<row r="1">' + (saved + unplaced) * 50_000 + b'<c r="E1"><f>4</f><v></v></c></row>'
    )
    assert prescan.scan_xlsx(xml).no_value == [(1, 5)]
    assert cells.matches <= 2  # was 150,001


def test_the_shared_string_walk_steps_only_through_cells_that_name_one(cells):
    shared = prescan.SharedStrings([b"<sst><si><t>" + b"a" * 3_000 + b"</t></si></sst>"])
    xml = _sheet(
        b'<row r="1">' + EMPTY + b'<c r="B1" t="s"><v>0</v></c>' + EMPTY + b"</row>",
        b'<row r="2">' + EMPTY + b'<c r="C2" t="s"><v>0</v></c></row>',
    )
    found, repeated = prescan._xlsx_built_at(xml, shared, prescan.MAX_REPEATED - 1_000)
    assert found is not None and found[:2] == (2, 3) and repeated == 3_000
    assert cells.matches <= 4  # was 600,002


def test_an_unplaced_shared_string_cell_after_empty_ones_is_placed_as_before(cells):
    shared = prescan.SharedStrings([b"<sst><si><t>" + b"a" * 3_000 + b"</t></si></sst>"])
    xml = _sheet(
        b"<row>" + b'<c t="s"><v>0</v></c>' + b"<c/>" * 100_000 + b'<c t="s"><v>0</v></c></row>'
    )
    found, _ = prescan._xlsx_built_at(xml, shared, prescan.MAX_REPEATED - 1_000)
    assert found is not None and found[:2] == (1, 100_002)
    assert cells.matches <= 3  # was 100,002


@pytest.fixture
def repeats(monkeypatch) -> list[bytes]:
    """The ODS rows and cells the table scan handles one by one in Python (each asks for
    its repeat)."""
    calls: list[bytes] = []
    repeat = prescan.repeat

    def counted(pattern: re.Pattern[bytes], attrs: bytes) -> int:
        calls.append(attrs)
        return repeat(pattern, attrs)

    monkeypatch.setattr(prescan, "repeat", counted)
    return calls


def _ods(*rows: bytes) -> bytes:
    return b"<office:body><table:table table:name='cards'>" + b"".join(rows) + b"</table:table>"


ODS_EMPTY = (
    b"<table:table-cell/>" * 400
    + b' <table:table-cell table:style-name="ce1"/>\n' * 200
    + b"<table:covered-table-cell/>" * 200
)
ERROR = (
    b'<table:table-cell calcext:value-type="error" office:value-type="string">'
    b"<text:p>#N/A</text:p></table:table-cell>"
)


def test_an_ods_table_passes_over_empty_rows_and_cells_in_one_step(repeats):
    xml = _ods(
        b"<table:table-row>" + ODS_EMPTY + ERROR + b"</table:table-row>",
        b"<table:table-row/>" * 2_000,
        (
            b'<table:table-row table:style-name="ro1">'
            + b"<table:table-cell/>" * 3
            + b"</table:table-row>\n"
        )
        * 2_000,
        b'<table:table-row><table:table-cell table:number-columns-repeated="4"/>'
        + b"<table:table-cell/>" * 200
        + ERROR
        + b"</table:table-row>",
    )
    scan = prescan.scan_ods(xml)
    assert scan.errors == [(1, 801, "#N/A"), (4_002, 205, "#N/A")]
    assert scan.too_large is None
    assert len(repeats) <= 20  # was 25,011 (a call a row, one to three a cell)


def test_a_cell_past_the_columns_after_empty_ones_is_still_refused_where_it_is(repeats):
    filled = b'<table:table-cell office:value-type="float"/>'
    xml = _ods(
        b"<table:table-row>" + b"<table:table-cell/>" * 100_000 + filled + b"</table:table-row>"
    )
    assert prescan.scan_ods(xml).too_large == (
        1,
        100_001,
        f"the sheet has values in more than {prescan.MAX_COLUMNS:,} columns",
    )
    assert len(repeats) <= 4  # was 300,002


def test_the_narrower_regexes_are_built_on_the_scans_own():
    # the runs and narrower cells are the scans' regexes with their tag names cut off
    assert prescan._XLSX_CELL.pattern.startswith(rb"<(?:\w+:)?c\b")
    assert prescan._ODS_CELL.pattern.startswith(prescan._ODS_CELL_TAG)
    assert prescan._ODS_ROW.pattern.startswith(prescan._ODS_ROW_TAG)
