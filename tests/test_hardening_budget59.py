"""budget59: one game of at most 1 MB could spend every per-surface budget at once (probe 50
P50-15: ~9 s of a cold `validate`). The bounds that cost most per byte of input were trimmed
so that all of them together stay near 5 s; each test stands at a new edge, and counts work,
never time."""

from __future__ import annotations

from tests.test_hardening_probe9_content import _xlsx
from tests.test_hardening_xlsx53 import _scanned
from toolkit.content.sheets import archive, grid, workbook
from toolkit.content.source import game_repeats


def _rows(size: int) -> str:
    """Rows of empty styled cells, each cell named (so they zip ~8 times, under the ratio
    bound), `size` characters at least."""
    rows, total, number = [], 0, 2
    while total < size:
        cells = "".join(f'<c r="{a}{b}{number}" s="1"/>' for a in "AB" for b in "ABCDEFGHIJ")
        rows.append(f'<row r="{number}">{cells}</row>')
        total += len(rows[-1])
        number += 1
    return "".join(rows)


def test_a_games_sheets_scan_at_most_16_mb_together(tmp_path, monkeypatch):
    # 63 workbooks of 1 MB of empty styled cells (each under the ratio floor, 5 kB zipped,
    # 330 kB in all) took validate 4 s at 64 MB; a sheet past 16 MB is refused before any scan
    data = _xlsx(_rows(16 * 1024 * 1024))
    assert archive.inspect(data, ".xlsx") is None  # within the file's own bounds
    sizes = _scanned(monkeypatch)
    path = tmp_path / "w.xlsx"
    path.write_bytes(data)
    with game_repeats():
        read = workbook.read_workbook(path, "decks/w.xlsx")
    assert isinstance(read, grid.Refused), read
    assert read.diagnostic.code == "Y013" and read.diagnostic.file == "decks/w.xlsx"
    assert "over 16,777,216 bytes of sheet data" in read.diagnostic.message
    assert "delete empty formatted rows" in read.diagnostic.message
    assert sizes == []  # refused by its sizes: nothing scanned
