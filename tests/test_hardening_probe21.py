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


def test_a_parameter_written_in_doubled_braces_is_r006(run_cli, tmp_path):
    # probe 21 M4: `{{points}}` prints "{points}" (doubled braces print a brace) on the card
    # and in the rulebook's card reference, validate clean; the same in a board's phrase
    game = _starter(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "en: Score {points} points." in text
    deck.write_text(text.replace("en: Score {points} points.", "en: Score {{points}} points."))
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "R006"]
    assert len(found) == 1 and found[0]["message"].startswith(
        "{{points}} (en) prints '{points}' as written: `{{` and `}}` print a brace; write"
        " {points} to print the value"
    ), found
    # probe 22 M2: a misspelt name, a format spec or a conversion print as written too
    for written in ("{{point}}", "{{points:>3}}", "{{points!r}}"):
        deck.write_text(text.replace("en: Score {points} points.", f"en: Score {written} pts."))
        result = run_cli("validate", str(game), "--no-cache", "--format", "json")
        found = [d for d in json.loads(result.stdout) if d["code"] == "R006"]
        assert len(found) == 1 and found[0]["message"].startswith(f"{written} (en) prints"), found
    # three braces print the value between braces, as meant
    deck.write_text(text.replace("en: Score {points} points.", "en: Score {{{points}}} pts."))
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    assert [d for d in json.loads(result.stdout) if d["code"] == "R006"] == []


def test_a_deck_strings_place_is_searched_among_its_cards_alone():
    # probe 22 H2: each string naming an unknown icon searched every string of the deck
    # (5,000 sheet rows: 97 s); the strings are grouped by card
    from toolkit.checks.card_reference import _Leaves

    leaves = _Leaves([(("cards", i, "text", "en"), f"t{i}") for i in range(1000)])
    assert leaves.under(("cards", 7, "text")) == [(("cards", 7, "text", "en"), "t7")]
    assert leaves.under(("cards", 7)) == [(("cards", 7, "text", "en"), "t7")]
    assert len(leaves.under(("name",))) == 1000  # a deck's own string: all of them


def test_a_po_msgstr_writing_a_parameter_in_doubled_braces_is_refused(run_cli, tmp_path):
    # probe 22 (Low): `i18n import` applied `Marquez {{points}} points.`, which the next
    # validate refused (R006) in the YAML
    import polib

    game = _starter(tmp_path)
    path = tmp_path / "fr.po"
    assert run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(path)).exit_code == 0
    po = polib.pofile(str(path))
    (entry,) = [e for e in po if e.msgid == "Score {points} points."]
    entry.msgstr = "Marquez {{points}} points ({points})."  # the placeholder kept too
    po.save(str(path))
    before = (game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 1, result.stderr
    assert "{{points}} (fr) prints '{points}' as written" in result.stderr, result.stderr
    assert (game / "decks" / "cards.yaml").read_text(encoding="utf-8") == before
