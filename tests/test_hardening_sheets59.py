"""A game's sheets share one bound of cells the reader builds (probe 52-11): each sheet may
span `MAX_AREA` cells from A1 to its last value, and 40 workbooks of 2 kB, each with one
value far out, took validate 10.5 s and 2.5 s of system time; now the game's sheets together
span at most `MAX_GAME_AREA`."""

from __future__ import annotations

from openpyxl import Workbook

from toolkit.content.sheets import grid, prescan, workbook
from toolkit.content.source import game_repeats


def _far_sheet(path, row: int, column: int) -> None:
    """A workbook of a header, one card and one value at (row, column)."""
    book = Workbook()
    sheet = book.active
    sheet.append(["id", "name.en"])
    sheet.append(["c1", "One"])
    sheet.cell(row=row, column=column, value="far")
    book.save(path)


def test_a_games_sheets_share_one_bound_of_cells_built(tmp_path, monkeypatch):
    monkeypatch.setattr(prescan, "MAX_GAME_AREA", 12_000)
    reads = []
    with game_repeats() as repeats:
        for n in range(4):
            path = tmp_path / f"w{n}.xlsx"
            _far_sheet(path, 200, 26)  # 5,200 cells from A1 to Z200
            reads.append(workbook.read_workbook(path, f"decks/w{n}.xlsx"))
        assert repeats.sheet_area > 12_000
    assert [isinstance(r, grid.Grid) for r in reads] == [True, True, False, False], reads
    refused = reads[2]
    assert isinstance(refused, grid.Refused) and refused.diagnostic.code == "Y013"
    assert refused.diagnostic.file == "decks/w2.xlsx"
    message = refused.diagnostic.message
    assert "spans 5,200 cells, and the game's sheets read before it 10,400" in message
    assert "all of a game's spreadsheets together" in message
    later = reads[3]  # refused before the reader opens it
    assert isinstance(later, grid.Refused) and later.diagnostic.file == "decks/w3.xlsx"
    assert "the game's sheets read before it span more than 12,000 cells" in (
        later.diagnostic.message
    )


def test_a_sheet_read_alone_has_the_games_cells_to_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(prescan, "MAX_GAME_AREA", 12_000)
    path = tmp_path / "w.xlsx"
    _far_sheet(path, 200, 26)
    for _ in range(3):  # outside a game each read is the file's own
        assert isinstance(workbook.read_workbook(path, "w.xlsx"), grid.Grid)
