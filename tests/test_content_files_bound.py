"""A game lists at most `MAX_CONTENT_FILES` deck files and as many question banks (Y019, at
the first entry past the bound, and the list is not read): each content file costs the
checks a share of the game's frame and its own units, ~3 ms a one-card deck, and 2,000
one-card decks took `validate` 6 s with a cold cache (probe 42 N1). The bundled games list
fewer than 30."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import FIXTURES, copy_game
from toolkit.content import game as game_module
from toolkit.content.game import MAX_CONTENT_FILES, load_game


def _game(tmp_path: Path, decks: int, banks: int = 1) -> Path:
    root = copy_game(FIXTURES / "base", tmp_path / "game")
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n" * decks)
    text = text.replace("    - questions/bank.yaml\n", "    - questions/bank.yaml\n" * banks)
    manifest.write_text(text, encoding="utf-8")
    return root


def test_a_list_past_the_bound_is_said_at_its_first_entry_past_it_and_not_read(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(game_module, "MAX_CONTENT_FILES", 4)
    game = load_game(_game(tmp_path, 5, 5))
    found = [d for d in game.diagnostics if d.code == "Y019"]
    assert [d.severity.value for d in found] == ["error", "error"]
    lines = (tmp_path / "game" / "game.yaml").read_text("utf-8").splitlines()
    decks_at = lines.index("    - decks/cards.yaml") + 1 + 4  # the 5th entry
    banks_at = lines.index("    - questions/bank.yaml") + 1 + 4
    assert [d.span.line for d in found if d.span] == [decks_at, banks_at]
    assert "5 deck files" in found[0].message and "at most 4" in found[0].message
    assert game.decks == [] and game.questions == []  # not read


def test_a_list_at_the_bound_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "MAX_CONTENT_FILES", 4)
    game = load_game(_game(tmp_path, 4, 4))
    assert not [d for d in game.diagnostics if d.code == "Y019"]
    assert len(game.decks) == 4 and len(game.questions) == 4
    assert MAX_CONTENT_FILES == 1_000
