"""Probe 35 H1: an XLSX whose extra zip members, each under 1 MB and never read as a sheet,
held 1 MB of empty cells `<c/>` apiece (63 of them, 29.5 kB zipped) took `validate` 20 s:
the members were each below the ratio floor, every member holding `sheetData` was scanned,
and each empty cell was placed by a step in Python.

The work is counted (bytes scanned, cells stepped through), never timed: each test is red
before the fix on the counts alone."""

from __future__ import annotations

import io
import zipfile

import pytest

from tests.test_hardening_probe9_content import WORKSHEET, _xlsx
from toolkit.content.sheets import archive, grid, prescan, workbook

EMPTY_SHEET = b"<worksheet><sheetData><row>" + b"<c/>" * 262_000 + b"</row></sheetData></worksheet>"


def _with_members(
    members: dict[str, bytes],
    rels: str = "",
    method: int = zipfile.ZIP_DEFLATED,
    sheets: str = "",
) -> bytes:
    """The minimal XLSX of `_xlsx`, its header only, with `members` added (zipped with
    `method`), `rels` added to its workbook relationships and `sheets` to its sheet list."""
    base = zipfile.ZipFile(io.BytesIO(_xlsx("")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name in base.namelist():
            data = base.read(name)
            if name == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", rels.encode() + b"</Relationships>")
            if name == "xl/workbook.xml":
                data = data.replace(b"</sheets>", sheets.encode() + b"</sheets>")
            book.writestr(name, data)
        for name, data in members.items():
            book.writestr(name, data, compress_type=method)
    return out.getvalue()


def _scanned(monkeypatch) -> list[int]:
    """The sizes of the sheet XML `prescan.scan_xlsx` is given from now on."""
    sizes: list[int] = []
    scan = prescan.scan_xlsx

    def counted(xml: bytes, values: bool = True) -> prescan.Scan:
        sizes.append(len(xml))
        return scan(xml, values)

    monkeypatch.setattr(prescan, "scan_xlsx", counted)
    return sizes


@pytest.mark.parametrize(
    "method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA], ids=["deflate", "lzma"]
)
def test_small_members_that_unpack_far_beyond_the_archive_are_refused(
    tmp_path, monkeypatch, method
):
    # each member is under RATIO_FLOOR (1 MB), the archive together unpacks to 28 MB (63 MB
    # in the probe) from less than 100 kB: refused as a whole before any sheet is scanned
    assert len(EMPTY_SHEET) < archive.RATIO_FLOOR
    members = {f"xl/worksheets/x{i}.xml": EMPTY_SHEET for i in range(28)}
    data = _with_members(members, method=method)
    problem = archive.inspect(data, ".xlsx")
    assert problem is not None and problem.too_large, problem
    assert "zip bomb" in problem.message and f"over {archive.MAX_RATIO}" in problem.message

    sizes = _scanned(monkeypatch)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(data)
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013"
    assert "zip bomb" in read.diagnostic.message and read.diagnostic.file == "decks/cards.xlsx"
    assert sizes == []


def test_a_real_sized_workbook_is_not_taken_for_a_bomb():
    # 2 MB of ordinary cells, zipped: well under the archive's ratio
    rows = "".join(
        f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>card {n}</t></is></c>'
        f'<c r="B{n}"><v>{n * 7 % 13}</v></c></row>'
        for n in range(2, 20_000)
    )
    data = _xlsx(rows)
    assert archive.inspect(data, ".xlsx") is None


def test_members_no_relationship_names_are_not_scanned(tmp_path, monkeypatch):
    # within every size bound (stored uncompressed), but no relationship of the workbook
    # names them: the reader never opens them as a sheet, and they are not scanned
    members = {
        f"xl/worksheets/x{i}.xml": EMPTY_SHEET[:200_000] + b"</row></sheetData>" for i in range(5)
    }
    sizes = _read_counting(tmp_path, monkeypatch, _with_members(members, method=zipfile.ZIP_STORED))
    assert sum(sizes) < 2_000, sizes  # the first sheet only: its header row


def _read_counting(tmp_path, monkeypatch, data: bytes) -> list[int]:
    """The sizes of the sheet XML scanned in reading a workbook of `data` (within the
    archive's bounds, read as a grid)."""
    assert archive.inspect(data, ".xlsx") is None
    sizes = _scanned(monkeypatch)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(data)
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Grid), read
    return sizes


@pytest.mark.parametrize(
    "target",
    [
        "worksheets/far.xml",
        "/xl/worksheets/far.xml",
        "xl/worksheets/far.xml",
        "worksheets/../worksheets/FAR.xml",
        "worksheets/f&#97;r.xml",
    ],
)
def test_a_member_a_relationship_names_is_scanned(tmp_path, target):
    # whatever Id a sheet names, however the target is written: the reader may open it as a
    # sheet (probe 37 M2: only the relationships a `<sheet>` names, budget53)
    far = (
        b'<worksheet><sheetData><row r="20000"><c r="XFD20000"><v>1</v></c></row>'
        b"</sheetData></worksheet>"
    )
    rel = f'<Relationship Id="rId9" Type="{WORKSHEET}" Target="{target}"/>'
    sheet = '<sheet name="far" sheetId="9" xr:id="rId9"/>'
    path = tmp_path / "cards.xlsx"
    path.write_bytes(_with_members({"xl/worksheets/far.xml": far}, rels=rel, sheets=sheet))
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013", read
    assert "far.xml" in read.diagnostic.message


def _steps(monkeypatch) -> list[int]:
    """How many places `prescan._xlsx_placed` yields from now on (one a step in Python)."""
    steps = [0]
    placed = prescan._xlsx_placed

    def counted(xml, end=None):
        for found in placed(xml, end):
            steps[0] += 1
            yield found

    monkeypatch.setattr(prescan, "_xlsx_placed", counted)
    return steps


GAPS = ["", "\n  ", "<x/>", "</c>", "<c"]
"""What may lie between the empty cells of a run: nothing, text, another element, an end
tag, a `<c` that is no cell."""


@pytest.mark.parametrize("gap", [*GAPS, "<c a='1'/>", '<c r="B1"/>'])
def test_runs_of_empty_cells_are_placed_in_one_step(monkeypatch, gap):
    cells = (gap + "<c/>") * 100_000
    xml = f"<worksheet><sheetData><row>{cells}</row></sheetData></worksheet>".encode()
    steps = _steps(monkeypatch)
    scan = prescan.scan_xlsx(xml)
    assert scan.too_large is None
    assert steps[0] <= 3, steps


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize(
    ("cells", "where"),
    [
        # 999 empty cells, a value in column 1,000: within the limit
        ("<c/>" * 999 + "<c><v>1</v></c>", None),
        ("<c/>" * 1000 + "<c><v>1</v></c>", (1, 1001)),
        # an empty cell with a reference places the ones after it
        ("<c/>" * 5000 + '<c r="C1" s="2"/>' + "<c/>" * 996 + "<c><v>1</v></c>", None),
        ("<c/>" * 5000 + '<c r="C1" s="2"/>' + "<c/>" * 997 + "<c><v>1</v></c>", (1, 1001)),
        # its first reference, as the reader's, and the row it names
        ('<c/><c r="B20001" r="A1"/><c><v>1</v></c>', (20001, 3)),
        # the row after the one an empty cell names
        ('<c r="A19999"/></row><row><c/>' + "<c/>" * 3 + "<c><v>1</v></c>", None),
        ('<c r="A20000"/></row><row><c/>' + "<c/>" * 3 + "<c><v>1</v></c>", (20001, 5)),
    ],
)
def test_cells_after_a_run_of_empty_ones_are_placed_as_the_reader_places_them(gap, cells, where):
    cells = cells.replace("<c/>", gap + "<c/>")
    xml = f"<worksheet><sheetData><row>{cells}</row></sheetData></worksheet>".encode()
    found = prescan.scan_xlsx(xml).too_large
    assert (found[:2] if found else None) == where, found
