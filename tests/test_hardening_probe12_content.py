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


@pytest.mark.parametrize("container", ["- ", "> "])
def test_a_heading_taller_than_a_page_in_a_list_or_quote_ends_the_build(
    game, container, monkeypatch
):
    # inside a list item or a quote, reportlab keeps the heading with its container and
    # moved both to the next page for ever: `build` never ended (probe 11 bounded only a
    # heading at the top level). MAX_HEADING (probe 53-9) refuses such a heading first; the
    # layout's own guard is tested past it
    from toolkit.content.game import load_game
    from toolkit.render import rulebook_source
    from toolkit.render.artifacts import BuildError
    from toolkit.render.artifacts.rulebook import rulebook_pdf

    monkeypatch.setattr(rulebook_source, "MAX_HEADING", 10_000)

    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "  rulebook:\n    en: rulebook/en.md\n",
        encoding="utf-8",
    )
    (game / "rulebook").mkdir()
    words = " ".join(f"w{i}" for i in range(700))
    text = f"# Rules\n\n{container}# {words}\n"
    (game / "rulebook" / "en.md").write_text(text, encoding="utf-8")
    with pytest.raises(BuildError, match="does not end"):
        rulebook_pdf(load_game(game), "en", "a4", 0.0)
