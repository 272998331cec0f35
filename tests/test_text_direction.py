"""P017: a right-to-left text (Hebrew, Arabic) printed left to right reads backwards, and
validate said nothing when the font had the glyphs (probe 14, issue #33)."""

from __future__ import annotations

import pytest

from tests.conftest import diagnostics_json


def _findings(run_cli, game):
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in diagnostics_json(result.output) if d["code"] == "P017"]


@pytest.mark.parametrize(
    ("text", "script"),
    [("Dash שלום", "Hebrew"), ("نقاط", "Arabic"), ("ދިވެހި", "Thaana")],
)
def test_a_card_text_in_a_right_to_left_script_is_said_where_it_is(run_cli, game, text, script):
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("en: Dash", f"en: {text}"))
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"], d["col"]) for d in found] == [(str(deck), 14, 11)]
    assert f"is {script} script" in found[0]["message"]


def test_a_rulebook_line_in_a_right_to_left_script_is_said_at_its_first_letter(run_cli, game):
    manifest = game / "game.yaml"
    (game / "rules.md").write_text("# Rules\n\nPlay.\n\nSee: קח קלף אחד\n", encoding="utf-8")
    yaml = manifest.read_text(encoding="utf-8")
    assert "files:\n" in yaml
    manifest.write_text(yaml.replace("files:\n", "files:\n  rulebook:\n    en: rules.md\n", 1))
    found = _findings(run_cli, game)
    assert [(d["line"], d["col"]) for d in found] == [(5, 6)], found


@pytest.mark.parametrize(
    "text",
    # digits, punctuation and marks take the direction around them; an LRM is no letter
    ["Dash 42 – ok", "Dash \u200e", "Dash \u05b0"],
)
def test_no_finding_without_right_to_left_letters(run_cli, game, text):
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("en: Dash", f"en: {text}"))
    assert _findings(run_cli, game) == []
