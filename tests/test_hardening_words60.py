"""Long words in the card texts the rulebook's card reference prints are priced as the
rulebook's own are (probe 60-16: 10 cards whose text is one 3,899-letter word, printed by no
face, took `build --only rulebook` 13.3 s a language; validate was clean)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import diagnostics_json


def _game(tmp_path: Path, run_cli, text: str) -> Path:
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    deck = root / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Draw a card.", text, 1), "utf-8")
    return root


def _r010(root: Path, run_cli) -> list[dict]:
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in diagnostics_json(result.output) if d["code"] == "R010"]


def test_a_card_text_word_longer_than_a_rulebook_word_is_said_at_the_card(tmp_path, run_cli):
    from toolkit.render.rulebook_source import MAX_WORD

    found = _r010(_game(tmp_path, run_cli, "x" * (MAX_WORD + 1)), run_cli)
    assert len(found) == 1, found
    assert found[0]["file"].endswith("decks/cards.yaml")
    assert f"a word of {MAX_WORD + 1:,} characters" in found[0]["message"]


def test_long_card_text_words_count_with_the_rulebook_s(tmp_path, run_cli, monkeypatch):
    from toolkit.render import rulebook_source

    words = " ".join(["y" * 40] * 10)  # 10 words of 40 letters: 16,000
    assert _r010(_game(tmp_path, run_cli, words), run_cli) == []
    monkeypatch.setattr(rulebook_source, "MAX_LONG_WORDS", 15_000)
    found = _r010(tmp_path / "g", run_cli)
    assert len(found) == 1 and "take the rulebook's past 15,000" in found[0]["message"], found
