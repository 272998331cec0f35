"""A sheet made by `playset convert` beside its deck leaves a keys file the manifest does not
list (R008): the finding names the sheet to list, as the keys file is read with it."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import FIXTURES


def test_an_unlisted_keys_file_names_its_sheet(run_cli, tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    assert run_cli("convert", str(game / "decks" / "cards.yaml"), "--to", "ods").exit_code == 0
    result = run_cli("validate", str(game), "--no-cache")
    assert "decks/cards.deck.yaml is not listed under files.decks" in result.stdout
    assert "keys of the sheet cards.ods: list the sheet" in result.stdout


def test_a_plain_unlisted_file_says_no_more(run_cli, tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    (game / "decks" / "other.deck.yaml").write_text("id: other\n")  # no sheet beside it
    result = run_cli("validate", str(game), "--no-cache")
    assert "decks/other.deck.yaml is not listed under files.decks in game.yaml\n" in result.stdout
