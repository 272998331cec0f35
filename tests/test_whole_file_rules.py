"""Rules about a whole file or folder (R007 no manifest, Y006 size limit), and proof that
G311 cannot be produced (documented as unreachable in toolkit/ruledocs/examples/G311.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import FIXTURES, build_case, copy_game, diagnostics_json
from toolkit.checks import run_checks
from toolkit.content.game import bundled_games, load_game
from toolkit.content.source import MAX_FILE_BYTES


def test_g311_is_caught_by_the_schema_first(tmp_path):
    root = tmp_path / "muckle-stoater"
    copy_game(bundled_games()["muckle-stoater"], root)
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "max_rounds: 1000" in text
    manifest.write_text(text.replace("max_rounds: 1000", "max_rounds: 0"), encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "max_rounds" in row)
    found = [(d.code, Path(d.file).name, d.line) for d in run_checks(load_game(root))]
    assert found == [("S004", "game.yaml", line)]


def test_r007_folder_without_manifest(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    (game / "game.yaml").unlink()
    monkeypatch.chdir(game)
    result = run_cli("validate", ".", "--format", "json")
    assert result.exit_code == 1, result.output
    found = diagnostics_json(result.stdout)
    assert [(d["code"], d["line"], d["col"]) for d in found] == [("R007", 1, 1)]
    assert found[0]["file"].endswith("game.yaml")


def test_y006_file_over_the_size_limit(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    padding = "# padding\n" * (MAX_FILE_BYTES // 10 + 1)
    deck.write_text(text + padding, encoding="utf-8")
    assert deck.stat().st_size > MAX_FILE_BYTES
    monkeypatch.chdir(game)
    result = run_cli("validate", ".", "--format", "json")
    assert result.exit_code == 1, result.output
    found = diagnostics_json(result.stdout)
    got = [(d["code"], d["file"], d["line"], d["col"]) for d in found]
    assert got == [("Y006", "decks/cards.yaml", 1, 1)], json.dumps(found)
