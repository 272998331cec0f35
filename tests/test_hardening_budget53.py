"""Probe 37 M2 and M3: work a game's sheets and icons may take, bounded for the game.

M2: an XLSX's members named by a relationship no `<sheet>` of xl/workbook.xml names (of
`Type="x"`) were scanned as sheets, 1 MB each, and each workbook of a game had its own
unpack limit: three 349 kB workbooks took `validate` 9.5 s. M3: an icon's attribute
selectors could spend the whole per-file step bound (~1 s) reading attribute values, and
every listed icon is loaded: eleven 85 kB icons took 9.2 s.

The work is counted (bytes scanned, steps priced), never timed: each test is red before the
fix on the counts alone."""

from __future__ import annotations

import zipfile

from tests.test_hardening_probe9_content import WORKSHEET
from tests.test_hardening_xlsx53 import EMPTY_SHEET, _read_counting, _scanned, _with_members
from toolkit.content.sheets import archive, grid, workbook
from toolkit.content.source import game_repeats

SHEET_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'


def test_members_only_a_relationship_of_another_type_names_are_not_scanned(tmp_path, monkeypatch):
    # named by relationships (of the worksheet type, or any other), but by no `<sheet>`:
    # calamine never reads them as a sheet
    body = EMPTY_SHEET[:200_000] + b"</row></sheetData></worksheet>"
    members = {f"xl/worksheets/x{i}.xml": body for i in range(5)}
    rels = "".join(
        f'<Relationship Id="rX{i}" Type="{"x" if i % 2 else WORKSHEET}"'
        f' Target="worksheets/x{i}.xml"/>'
        for i in range(5)
    )
    data = _with_members(members, rels=rels, method=zipfile.ZIP_STORED)
    sizes = _read_counting(tmp_path, monkeypatch, data)
    assert sum(sizes) < 2_000, sizes  # the first sheet only: its header row


def _named_sheets(count: int) -> bytes:
    """A workbook whose sheet list names `count` more sheets of ~1 MB of empty cells each."""
    body = EMPTY_SHEET[:1_000_000] + b"</row></sheetData></worksheet>"
    members = {f"xl/worksheets/x{i}.xml": body for i in range(count)}
    rels = "".join(
        f'<Relationship Id="rX{i}" Type="{WORKSHEET}" Target="worksheets/x{i}.xml"/>'
        for i in range(count)
    )
    sheets = "".join(
        f'<sheet {SHEET_NS} name="x{i}" sheetId="{i + 2}" r:id="rX{i}"/>' for i in range(count)
    )
    return _with_members(members, rels=rels, method=zipfile.ZIP_STORED, sheets=sheets)


def test_a_games_workbooks_share_one_bound_of_bytes_scanned(tmp_path, monkeypatch):
    # each workbook is within its own limits; together they pass the game's
    monkeypatch.setattr(archive, "MAX_GAME_SCANNED", 12_000_000)
    data = _named_sheets(5)  # ~5 MB of sheets each
    assert archive.inspect(data, ".xlsx") is None
    sizes = _scanned(monkeypatch)
    reads = []
    with game_repeats() as repeats:
        for n in range(4):
            path = tmp_path / f"w{n}.xlsx"
            path.write_bytes(data)
            reads.append(workbook.read_workbook(path, f"decks/w{n}.xlsx"))
    assert [isinstance(r, grid.Grid) for r in reads] == [True, True, False, False], reads
    refused = reads[2]
    assert isinstance(refused, grid.Refused) and refused.diagnostic.code == "Y013"
    assert refused.diagnostic.file == "decks/w2.xlsx"
    message = refused.diagnostic.message
    assert "all of a game's spreadsheets together" in message and "12,000,000" in message
    assert sum(sizes) <= 12_000_000 and repeats.sheet_bytes <= 12_000_000
    assert sum(sizes) > 9_000_000  # the first two were scanned whole


def test_a_workbook_alone_has_the_games_bound_to_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "MAX_GAME_SCANNED", 12_000_000)
    path = tmp_path / "w.xlsx"
    path.write_bytes(_named_sheets(5))
    for _ in range(3):  # outside a game each read is the file's own
        assert isinstance(workbook.read_workbook(path, "w.xlsx"), grid.Grid)


def _icon(tmp_path, rules: int) -> tuple:
    icons = tmp_path / "icons"
    icons.mkdir(exist_ok=True)
    css = "".join(f"[a~=x{i}]{{fill:red}}" for i in range(rules))
    rect = f'<rect a="{"b " * 4_000}" width="1" height="1"/>' * 10
    path = icons / f"s{rules}.svg"
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><style>{css}</style>'
        f"{rect}</svg>"
    )
    return path, icons


def test_attribute_selectors_read_at_most_a_tenth_of_a_files_steps(tmp_path):
    # probe 37 M3: 250 `[a~=x]` on ten 8,000-character values (85 kB, 78,000 steps, ~1 s)
    # were accepted; the reading now has its own bound, ~0.1 s an icon
    from toolkit.render import svg_guard

    assert svg_guard.MAX_READING <= svg_guard.MAX_MATCHING
    for rules in (64, 250):  # 20,000 and 78,000 steps of reading
        refusal = svg_guard.check(*_icon(tmp_path, rules))
        assert refusal is not None, rules
        assert "read long attribute values" in refusal.message
        assert f"more than {svg_guard.MAX_READING:,} steps" in refusal.message
    assert svg_guard.check(*_icon(tmp_path, 30)) is None  # 9,400 steps
