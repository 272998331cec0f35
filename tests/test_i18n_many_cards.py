"""The PO export's per-card work is looked up once for all cards (probe 41 H3: a card
searched every deck's cards for its own and stat'ed its layout, and every text resolved its
file's place anew): the same entries and notes as each card worked out on its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES, copy_game
from toolkit.checks.printfit import capacities, capacity
from toolkit.content.game import load_game
from toolkit.i18n.fields import fields
from toolkit.i18n.po import export_po, export_pot

BIG = """\
id: big
kind: actions
name: {fr: Grandes, es: Grandes, en: Big}
size: tarot
cards:
  - id: giant
    name: {fr: Géant, es: Gigante, en: Giant}
    text: {fr: Avancez de dix cases., es: Avanza diez casillas., en: Move ten spaces.}
  - id: titan
    name: {fr: Titan, es: Titán, en: Titan}
"""


@pytest.fixture
def two_decks(tmp_path: Path) -> Path:
    """The base game with a second deck of bigger cards (more room on each face)."""
    root = copy_game(FIXTURES / "base", tmp_path / "game")
    (root / "decks" / "big.yaml").write_text(BIG, encoding="utf-8")
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n    - decks/big.yaml\n"),
        encoding="utf-8",
    )
    return root


def _notes(root: Path, lang: str) -> dict[str, str]:
    return {e.msgctxt: e.comment for e in export_po(load_game(root), lang)}


def _only(root: Path, deck: str) -> Path:
    """The game with one deck listed."""
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    other = "big" if deck == "cards" else "cards"
    manifest.write_text(text.replace(f"    - decks/{other}.yaml\n", ""), encoding="utf-8")
    return root


def test_each_card_is_given_the_room_of_its_own_decks_face(two_decks, tmp_path):
    both = _notes(two_decks, "es")
    giant, sprint = "decks/big.yaml:cards[giant].text", "decks/cards.yaml:cards[sprint].text"
    assert "fits about" in both[giant] and "fits about" in both[sprint]
    assert both[giant] != both[sprint]  # a tarot card's box holds more than a poker card's
    for deck in ("cards", "big"):
        alone = copy_game(two_decks, tmp_path / deck)
        one = _notes(_only(alone, deck), "es")
        assert one and all(both[key] == notes for key, notes in one.items())


def test_capacities_answer_as_capacity_for_every_card_and_none_for_a_stranger(two_decks):
    game = load_game(two_decks)
    room = capacities(game, "en")
    cards = [card for deck in game.valid(game.decks) for card in deck.cards]
    assert len(cards) > 3
    for card in cards:
        for field in ("name", "text"):
            assert room(card, field) == capacity(game, card, field, "en")
    assert {room(card, "name") for card in cards} - {None}
    stranger = cards[0].model_copy()  # equal to a card of the game, but not one of them
    assert room(stranger, "name") is None


def test_field_names_name_each_texts_own_file(two_decks):
    game = load_game(two_decks)
    named = {entry.name.split(":", 1)[0] for entry in fields(game)}
    assert {"game.yaml", "glossary.yaml", "decks/cards.yaml", "decks/big.yaml"} <= named
    root = two_decks.resolve()
    for entry in fields(game):
        doc = entry.text.file.doc
        assert doc is not None
        assert entry.name.split(":", 1)[0] == doc.path.resolve().relative_to(root).as_posix()


def test_the_template_has_no_room_notes_and_the_same_keys(two_decks):
    game = load_game(two_decks)
    pot = export_pot(game)
    po = export_po(game, "es")
    assert [e.msgctxt for e in pot] == [e.msgctxt for e in po]
    assert not any("fits about" in e.comment for e in pot)


def _cards(root: Path, deck: str, count: int) -> None:
    """`count` more cards at the end of a deck file."""
    path = root / "decks" / f"{deck}.yaml"
    extra = "".join(
        f"  - {{id: more{i}, name: {{fr: a{i}, es: b{i}, en: c{i}}}}}\n" for i in range(count)
    )
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")


def test_the_decks_past_the_games_work_budget_are_not_read(two_decks, monkeypatch, run_cli):
    import toolkit.content.game as game_module

    # in 3 languages: the base deck of 6 cards (5 + 18 units), the big deck of 2 (5 + 6),
    # the board (5 + 4 entries of 3) and the bank (5 + 6 for its question)
    monkeypatch.setattr(game_module, "MAX_WORK", 62)
    _cards(two_decks, "cards", 6 - 2)  # the base deck holds 2 cards, the big deck 2
    game = load_game(two_decks)
    assert not [d for d in game.diagnostics if d.code == "Y018"]  # at the budget
    _cards(two_decks, "big", 10)  # 12 cards: 23 + 41 units, past it at the 12th
    game = load_game(two_decks)
    (found,) = [d for d in game.diagnostics if d.code == "Y018"]
    assert found.severity == "error" and found.file.endswith("decks/big.yaml")
    assert "this file takes it to 64 units, at most 62 (in 3 languages" in found.message
    assert "12 cards here (23 units in the files read before it)" in found.message
    doc = game.decks[1].doc
    assert doc is not None and found.span.line == doc.span(("cards", 11)).line  # the 12th
    assert game.decks[0].model is not None and game.decks[1].model is None
    status = run_cli("i18n", "status", str(two_decks))
    assert "Y018" in status.output
    refused = run_cli("i18n", "export", str(two_decks), "--lang", "es")
    assert refused.exit_code == 1 and "Y018" in refused.output


def test_the_work_budget_counts_each_language(two_decks, monkeypatch):
    import toolkit.content.game as game_module

    # 3 languages: 4 files of 5, 4 cards of 3, a question of 6, 4 board entries of 3: 50
    monkeypatch.setattr(game_module, "MAX_WORK", 50)
    assert not [d for d in load_game(two_decks).diagnostics if d.code == "Y018"]
    manifest = two_decks / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("languages: [fr, es, en]", "languages: [fr, es, en, de]"))
    # 4 languages: 4 files of 6, 4 cards of 4, a question of 8, 4 entries of 4: 64
    (found,) = [d for d in load_game(two_decks).diagnostics if d.code == "Y018"]
    assert "this file takes it to 64 units, at most 50 (in 4 languages" in found.message
    assert found.file.endswith("questions/bank.yaml")  # 56 units before it


def test_rules_units_leave_out_the_rules_texts_the_manifest_marks_localized():
    # the marked texts come from the manifest's own walk now (every file was walked for them)
    from tests.conftest import REPO
    from toolkit.i18n.units import kind_units

    game = load_game(REPO / "content" / "drinking-heroes")
    fields = [u.key for u in kind_units("field", game, "es")]
    rules = [u.key for u in kind_units("rules", game, "es")]
    assert [k for k in fields if k.startswith("game.yaml:rules.monster_types")]
    assert not [k for k in rules if "monster_types" in k]


def test_a_language_the_cards_leave_no_room_for_is_not_added(two_decks, monkeypatch, run_cli):
    import toolkit.content.game as game_module

    manifest = two_decks / "game.yaml"
    before = manifest.read_text(encoding="utf-8")
    # 4 files, 4 cards, a question of two faces and 4 board entries: 50 units, 64 with de
    monkeypatch.setattr(game_module, "MAX_WORK", 63)
    out = two_decks.parent / "po"
    refused = run_cli("i18n", "add-language", "de", str(two_decks), "--out", str(out))
    assert refused.exit_code == 1
    assert (
        "6 faces a language (4 cards, 1 questions of two faces) from 4 content files: in 4"
        " languages its content would be 64 units of work, more than the 63" in refused.output
    )
    assert manifest.read_text(encoding="utf-8") == before and not out.exists()
    monkeypatch.setattr(game_module, "MAX_WORK", 64)
    added = run_cli("i18n", "add-language", "de", str(two_decks), "--out", str(out))
    assert added.exit_code == 0, added.output
    assert "languages: [fr, es, en, de]" in manifest.read_text(encoding="utf-8")
