"""Probe 21's smaller findings (issue #33), each test red before its fix."""

from __future__ import annotations

import json
from pathlib import Path

from toolkit.scaffold.new import new_game


def _starter(tmp_path: Path) -> Path:
    folder = tmp_path / "g"
    new_game(folder, "g", ["fr", "es", "en"])
    return folder


def test_an_arrow_a_card_face_prints_is_p002_at_the_text_that_writes_it(run_cli, tmp_path):
    # `→` (which the rulebook prints as its stand-in, so content texts are not searched for
    # it) was P002 at the card's `- id:` line; `⇒` at the text itself
    game = _starter(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "      en: Draw a card.\n" in text
    deck.write_text(text.replace("en: Draw a card.", "en: Draw → a card."), encoding="utf-8")
    line = text[: text.index("      en: Draw a card.")].count("\n") + 1
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [(d["code"], d["line"]) for d in json.loads(result.stdout) if d["code"] == "P002"]
    assert found == [("P002", line)], result.stdout
