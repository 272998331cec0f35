"""A table inside an ODS cell is refused before the reader opens the sheet (probe 61-6, 61-7):
the size scan took the nested table's end for the card table's, so the rows after it were
never counted (a 1.8 kB sheet built 2.4 GB) nor their formulas looked at (a card's `copies:
=2*3` read as 1, validate clean)."""

from __future__ import annotations

import zipfile

from tests.conftest import diagnostics_json

NESTED = (
    '<table:table-row><table:table-cell><table:table table:name="n"><table:table-row>'
    "<table:table-cell/></table:table-row></table:table></table:table-cell></table:table-row>"
)


def test_a_table_inside_a_cell_is_refused(tmp_path, run_cli):
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    result = run_cli("convert", str(root / "decks" / "cards.yaml"), "--to", "ods")
    assert result.exit_code == 0, result.output
    sheet = root / "decks" / "cards.ods"
    assert sheet.is_file()
    (root / "decks" / "cards.yaml").unlink()  # the sheet is the deck now
    manifest = root / "game.yaml"
    text = manifest.read_text("utf-8")
    assert "decks/cards.yaml" in text
    manifest.write_text(text.replace("decks/cards.yaml", "decks/cards.ods"), "utf-8")
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    assert not [d for d in diagnostics_json(result.output) if d["code"].startswith("Y")]

    with zipfile.ZipFile(sheet) as book:
        parts = {name: book.read(name) for name in book.namelist()}
    xml = parts["content.xml"]
    end = xml.rfind(b"</table:table>")
    parts["content.xml"] = xml[:end] + NESTED.encode() + xml[end:]
    with zipfile.ZipFile(sheet, "w") as book:
        book.writestr("mimetype", parts.pop("mimetype"), compress_type=zipfile.ZIP_STORED)
        for name, data in parts.items():
            book.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "Y011"]
    assert len(found) == 1 and "a table inside a cell" in found[0]["message"], found
