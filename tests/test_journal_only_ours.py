"""`convert --out DIR/x.csv` and `i18n add-language --out DIR` finish a killed run of their
own in DIR, and nothing else: a journal planted in a folder of the user's made convert
replace `DIR/docs/thesis.txt` with a planted temporary (probe 20 H2)."""

from __future__ import annotations

import json
from pathlib import Path

from toolkit.journal import OUTPUT_JOURNAL
from toolkit.scaffold.new import new_game


def _planted(folder: Path) -> Path:
    (folder / "docs").mkdir(parents=True)
    thesis = folder / "docs" / "thesis.txt"
    thesis.write_text("my thesis")
    (folder / "docs" / ".thesis.txt.abcd1234.tmp").write_text("EVIL")
    (folder / OUTPUT_JOURNAL).write_text(
        json.dumps([["docs", ".thesis.txt.abcd1234.tmp", "thesis.txt"]])
    )
    return thesis


def test_convert_finishes_no_journal_naming_files_it_does_not_write(run_cli, tmp_path):
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    thesis = _planted(tmp_path / "dl")
    result = run_cli(
        "convert",
        str(game / "decks" / "cards.yaml"),
        "--to",
        "csv",
        "--out",
        str(tmp_path / "dl" / "x.csv"),
    )
    assert result.exit_code == 0, result.output
    assert thesis.read_text() == "my thesis"
    assert (tmp_path / "dl" / "x.csv").exists()


def test_add_language_finishes_no_journal_naming_files_it_does_not_write(run_cli, tmp_path):
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    thesis = _planted(tmp_path / "dl")
    result = run_cli("i18n", "add-language", "de", str(game), "--out", str(tmp_path / "dl"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "dl" / "de.po").exists()
    assert thesis.read_text() == "my thesis", result.output
