"""Fourth probe of issue 33's surfaces, the file system: what a hostile game folder could
still make Playset read, write, or wait on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

# --- sheets: XML the prescan and the cell editor read in linear time ----------------------

_SCANS = r"""
from toolkit.content.sheets import edit, prescan, workbook

n = 300_000
prescan.scan_xlsx(b"<f/>" + b"<c>" * n)
prescan.scan_xlsx(b"<row " * n)
prescan.scan_ods(b"<table:table>" + b"<table:table-row>" * n + b"</table:table>")
prescan.scan_ods(b"<table:table><table:table-row>" + b"<table:table-cell>" * n)
prescan.scan_ods(b"<table:table " * n)
for pattern in (workbook._SHEET_TAG, workbook._RELATIONSHIP, workbook._TABLE_NAME):
    pattern.search(b"<sheet <Relationship <table:table " * n)
edit._edit_xlsx(b'<row r="1">' + b"<c " * n + b"</row>", {(1, 1): "x"})
try:
    edit._edit_ods(b"<table:table>" + b"<table:table-row>" * n, {(1, 1): "x"})
except edit.CellEditRefused:
    pass
print("done")
"""


def test_sheet_xml_of_many_unclosed_tags_is_scanned_in_linear_time():
    # `(.*?)</c>` (and `[^>]*` before a `>` that never comes) looked for the end from every
    # unclosed start tag to the end of the XML: 300,000 `<c>` in a 6 kB XLSX took hours in
    # validate (8,000 took 3.7 s); each scan below now takes well under a second. The
    # limit is no measure of speed: it tells a scan that ends from one that does not.
    done = subprocess.run(
        [sys.executable, "-c", _SCANS],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout.strip() == "done", done.stderr


# --- sheet decks: the keys file beside the sheet ------------------------------------------


def _sheet_game(tmp_path: Path, run_cli) -> Path:
    """A `playset new` game whose deck is a CSV sheet with its keys file beside it."""
    assert run_cli("new", "sheety", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "sheety"
    deck = game / "decks" / "cards.yaml"
    assert run_cli("convert", str(deck), "--to", "csv").exit_code == 0
    deck.unlink()
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("decks/cards.yaml", "decks/cards.csv"))
    return game


def test_a_keys_file_linked_outside_the_game_is_neither_read_nor_written(
    tmp_path, run_cli, monkeypatch
):
    # the sheet was containment-checked, its keys file was not: an outside file's text was
    # printed on every card, and `i18n import` rewrote the outside file through the link
    import json

    game = _sheet_game(tmp_path, run_cli)
    keys = game / "decks" / "cards.deck.yaml"
    outside = tmp_path / "private.yaml"
    outside.write_text(keys.read_text().replace("Action cards", "SECRETWORD"))
    keys.unlink()
    keys.symlink_to(outside)
    before = outside.read_bytes()
    monkeypatch.chdir(game)
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 2  # a file that cannot be read (Y010)
    assert "SECRETWORD" not in result.stdout
    found = {(d["file"], d["code"]): d["message"] for d in json.loads(result.stdout)}
    assert "leads outside the game folder" in found["decks/cards.deck.yaml", "Y010"]
    po = tmp_path / "fr.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "decks/cards.csv:name"\nmsgid "SECRETWORD"\nmsgstr "WRITTEN"\n'
    )
    assert run_cli("i18n", "import", str(po), "--game", str(game)).exit_code == 1
    assert outside.read_bytes() == before


def test_convert_writes_through_no_link_beside_the_deck_and_waits_on_no_fifo(
    tmp_path, run_cli, monkeypatch
):
    import os

    assert run_cli("new", "conv", "--into", str(tmp_path)).exit_code == 0
    decks = tmp_path / "conv" / "decks"
    monkeypatch.chdir(decks)
    outside = tmp_path / "notes.txt"
    outside.write_text("mine\n")
    (decks / "cards.deck.yaml").symlink_to(outside)
    result = run_cli("convert", "cards.yaml", "--to", "csv", "--force")
    assert result.exit_code == 1 and "symbolic link" in result.output
    assert outside.read_text() == "mine\n"
    assert not (decks / "cards.csv").exists()  # nothing written: the whole change refused
    (decks / "cards.deck.yaml").unlink()
    os.mkfifo(decks / "cards.csv")  # compared with what would be written: never opened
    result = run_cli("convert", "cards.yaml", "--to", "csv")
    assert result.exit_code == 1 and "already exists" in result.output
    result = run_cli("convert", "cards.yaml", "--to", "csv", "--force")
    assert result.exit_code == 1 and "FIFO with no reader" in result.output
    assert not (decks / "cards.deck.yaml").exists()  # refused before any file was replaced
