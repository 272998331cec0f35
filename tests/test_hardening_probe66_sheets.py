"""Probe 66: a workbook's members are read through one reading of its directory."""

from __future__ import annotations

import io
import zipfile

from tests.test_hardening_probe9_content import _xlsx
from toolkit.content.sheets import archive, grid, workbook
from toolkit.content.source import game_repeats


def test_a_workbook_of_many_members_is_read_through_one_directory(tmp_path, monkeypatch):
    # probe 66-2: each member was read through a new ZipFile, which reads the whole
    # directory: 4,000 empty members (371 kB) took validate 24.9 s
    data = _xlsx('<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c></row>')
    grown = io.BytesIO(data)
    with zipfile.ZipFile(grown, "a") as book:
        for n in range(400):
            book.writestr(f"xl/extra{n}.xml", "")
    path = tmp_path / "w.xlsx"
    path.write_bytes(grown.getvalue())
    opened: list[object] = []
    real = archive._zip
    monkeypatch.setattr(archive, "_zip", lambda source: opened.append(source) or real(source))
    with game_repeats():
        read = workbook.read_workbook(path, "decks/w.xlsx")
    assert not isinstance(read, grid.Refused), read
    assert len(opened) < 10, len(opened)
