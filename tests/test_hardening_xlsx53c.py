"""Probe 38 H2: an `xr:id` written before the `r:id` of the first `<sheet>` made the full
checks of the first sheet (filled cells, text repeated from shared strings) run on a decoy
member, while calamine read the sheet of the `r:id`, which only the rows/area scan saw: a
37 kB workbook built 1.8 G characters (3.6 GB, 19 s). The first sheet is now the one
calamine takes, and every member a `<sheet>` names gets the full checks."""

from __future__ import annotations

import io
import zipfile

import pytest

from tests.test_hardening_probe9_content import WORKSHEET, _xlsx
from toolkit.content.sheets import grid, prescan, workbook

DECOY = '<sheet name="cards" sheetId="1" xmlns:xr="urn:x" xr:id="rDecoy" r:id="rId1"/>'
TEXT = "ab " * 100_000  # 300,000 characters, shared by every cell below


def _header_sheet() -> bytes:
    """The decoy: the header row of `_xlsx` alone."""
    return zipfile.ZipFile(io.BytesIO(_xlsx(""))).read("xl/worksheets/sheet1.xml")


def _decoyed(rows: int, sheet_tag: str = DECOY) -> bytes:
    """The minimal XLSX whose first sheet (`r:id`) repeats one 300,000-character shared
    string in `rows` rows, its `<sheet>` written with `sheet_tag`, and a small decoy
    member named by `rDecoy`."""
    cells = "".join(
        f'<row r="{r}"><c r="B{r}" t="s"><v>0</v></c></row>' for r in range(2, rows + 2)
    )
    base = zipfile.ZipFile(io.BytesIO(_xlsx(cells)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name in base.namelist():
            data = base.read(name)
            if name == "xl/workbook.xml":
                data = data.replace(
                    b'<sheet name="cards" sheetId="1" r:id="rId1"/>', sheet_tag.encode()
                )
            if name == "xl/_rels/workbook.xml.rels":
                extra = (
                    f'<Relationship Id="rDecoy" Type="{WORKSHEET}" Target="worksheets/decoy.xml"/>'
                )
                data = data.replace(b"</Relationships>", extra.encode() + b"</Relationships>")
            book.writestr(name, data)
        book.writestr("xl/worksheets/decoy.xml", _header_sheet())
        book.writestr(
            "xl/sharedStrings.xml",
            f'<sst count="1" uniqueCount="1"><si><t>{TEXT}</t></si></sst>',
        )
    return out.getvalue()


def test_the_first_sheet_is_the_one_of_its_r_id():
    assert workbook._first_sheet_member(_decoyed(2)) == "xl/worksheets/sheet1.xml"


@pytest.mark.parametrize(
    "sheet_tag",
    [
        DECOY,
        # any id attribute a reader might take: each member it names gets the checks
        '<sheet name="cards" sheetId="1" xmlns:xr="urn:x" r:id="rDecoy" xr:id="rId1"/>',
        '<sheet name="cards" sheetId="1" xmlns:q="urn:x" q:id="rDecoy" relationships:id="rId1"/>',
    ],
)
def test_text_repeated_in_the_sheet_calamine_reads_is_refused(tmp_path, monkeypatch, sheet_tag):
    # 20 cells × 300,000 characters: past MAX_REPEATED (4 M) only in the real sheet
    assert 19 * len(TEXT) > prescan.MAX_REPEATED
    given: list[int] = []
    repeats = prescan.xlsx_repeats

    def counted(xml: bytes, *args, **kwargs):
        given.append(len(xml))
        return repeats(xml, *args, **kwargs)

    monkeypatch.setattr(prescan, "xlsx_repeats", counted)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(_decoyed(20, sheet_tag))
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013", read
    assert "repeat" in read.diagnostic.message
    assert max(given) > 500  # the real sheet's XML (20 rows), not only the decoy's


def test_a_sheet_under_the_bound_still_reads(tmp_path):
    path = tmp_path / "cards.xlsx"
    path.write_bytes(_decoyed(2))
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Grid), read
    assert read.rows[1][1] == TEXT.strip() or read.rows[1][1] == TEXT
