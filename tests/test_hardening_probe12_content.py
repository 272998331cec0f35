"""Twelfth hostile probe (issue #33), content surface: what it found, each test red before
its fix."""

from __future__ import annotations

import io
import zipfile

import pytest


@pytest.mark.parametrize(
    "hidden", ["<![CDATA[</table:table-row>]]>", "<!-- </table:table-row> -->"]
)
def test_a_sheet_with_xml_comments_or_cdata_is_refused_before_it_is_read(tmp_path, hidden):
    # the weighing before calamine reads a sheet (and the cell editors) find elements by
    # their tags: a `</table:table-row>` in a CDATA section or a comment ended a row early,
    # hiding a repeated cell from it (a 2 kB ODS took 2.9 GB); spreadsheet programs write
    # neither, so such a file is refused
    from toolkit.content.sheets import workbook
    from toolkit.content.sheets.write import write_ods

    rows = [{"id": k, "name.en": k.upper()} for k in "ab"]
    with zipfile.ZipFile(io.BytesIO(write_ods("cards", ["id", "name.en"], rows))) as z:
        members = {name: z.read(name) for name in z.namelist()}
    xml = members["content.xml"]
    cell = b"<text:p>A</text:p>"
    assert cell in xml
    members["content.xml"] = xml.replace(cell, b"<text:p>A" + hidden.encode() + b"</text:p>", 1)
    path = tmp_path / "cards.ods"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    read = workbook.read_workbook(path, "cards.ods")
    assert isinstance(read, workbook.Refused), read
    assert read.diagnostic.code == "Y011" and "comment or CDATA" in read.diagnostic.message
