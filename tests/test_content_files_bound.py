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
    game = load_game(_game(tmp_path, 5, 1))
    found, banks = [d for d in game.diagnostics if d.code == "Y019"]
    assert found.severity.value == "error"
    assert (
        "1 question banks, a game may list at most 0, with its 5 deck files: 4 in all"
        in banks.message
    )
    lines = (tmp_path / "game" / "game.yaml").read_text("utf-8").splitlines()
    decks_at = lines.index("    - decks/cards.yaml") + 1 + 4  # the 5th entry
    assert found.span is not None and found.span.line == decks_at
    assert "5 deck files" in found.message and "at most 4" in found.message
    assert game.decks == [] and game.questions == []  # not read


def test_deck_files_and_question_banks_share_the_bound(tmp_path, monkeypatch):
    """999 decks and 999 banks made each preview save cost 11.7 s (probe 43 S1): the bound
    is on both together."""
    monkeypatch.setattr(game_module, "MAX_CONTENT_FILES", 4)
    game = load_game(_game(tmp_path, 2, 3))
    (found,) = [d for d in game.diagnostics if d.code == "Y019"]
    lines = (tmp_path / "game" / "game.yaml").read_text("utf-8").splitlines()
    banks_at = lines.index("    - questions/bank.yaml") + 1 + 2  # the 3rd bank
    assert found.span is not None and found.span.line == banks_at
    assert "3 question banks, a game may list at most 2, with its 2 deck files: 4 in all" in (
        found.message
    )
    assert len(game.decks) == 2 and game.questions == []


def test_a_list_at_the_bound_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "MAX_CONTENT_FILES", 4)
    game = load_game(_game(tmp_path, 2, 2))
    assert not [d for d in game.diagnostics if d.code == "Y019"]
    assert len(game.decks) == 2 and len(game.questions) == 2
    assert MAX_CONTENT_FILES == 1_000


def test_board_files_have_their_own_smaller_bound(tmp_path, monkeypatch):
    """A board is drawn whole in each language: 1,000 tiny boards took `build` 28 s (probe 43
    B1), so boards have a bound of their own, below the decks'."""
    monkeypatch.setattr(game_module, "MAX_BOARD_FILES", 2)
    root = _game(tmp_path, 1)
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("    - boards/map.yaml\n", "    - boards/map.yaml\n" * 3))
    game = load_game(root)
    (found,) = [d for d in game.diagnostics if d.code == "Y019"]
    assert "3 board files" in found.message and "at most 2" in found.message
    assert game.boards == []
    manifest.write_text(text.replace("    - boards/map.yaml\n", "    - boards/map.yaml\n" * 2))
    assert not [d for d in load_game(root).diagnostics if d.code == "Y019"]
    assert game_module.MAX_BOARD_FILES < MAX_CONTENT_FILES


def test_questions_count_two_faces_each_against_the_work_budget(tmp_path, monkeypatch):
    """Y018 counted deck cards only: a bank of 6,000 questions (36,000 faces to fit in three
    languages) took `validate` 11 s (probe 43 Q1). A question prints two faces."""
    root = _game(tmp_path, 1)
    # in 3 languages: the deck (2 cards), the board (4 entries) and the bank, each file 5
    work = 3 * 5 + 3 * 2 + 3 * 4 + 3 * 2 * 1
    monkeypatch.setattr(game_module, "MAX_WORK", work)
    assert not [d for d in load_game(root).diagnostics if d.code == "Y018"]
    monkeypatch.setattr(game_module, "MAX_WORK", work - 1)
    game = load_game(root)
    (found,) = [d for d in game.diagnostics if d.code == "Y018"]
    assert found.file.endswith("questions/bank.yaml") and "1 questions here" in found.message
    assert "a question 6" in found.message
    assert game.questions[0].model is None  # not read
