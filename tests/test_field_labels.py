"""The card reference's column headings come from the game: a deck's `labels:` names its
card fields in each language; the toolkit only knows a few generic words."""

from __future__ import annotations

from pypdf import PdfReader

from tests.conftest import copy_game
from toolkit.content.game import bundled_games, load_game
from toolkit.render.card_reference import FIELD_LABELS, _field_label


def _deck(game_id: str, deck_id: str):
    game = load_game(bundled_games()[game_id])
    return next(deck for deck in game.valid(game.decks) if deck.id == deck_id)


def test_a_deck_declares_its_fields_headings():
    monsters = _deck("drinking-heroes", "monsters")
    assert [_field_label(monsters, "kill_target", lang) for lang in ("fr", "es", "en")] == [
        "Tuer", "Matar", "Kill",
    ]  # fmt: skip
    assert _field_label(monsters, "max_tries", "es") == "Intentos"
    travellers = _deck("tokaido", "travellers")
    assert _field_label(travellers, "coins", "fr") == "Pièces"


def test_generic_words_and_the_field_name_otherwise():
    achievements = _deck("tokaido", "achievements")
    assert _field_label(achievements, "points", "es") == "Puntos"
    assert _field_label(achievements, "bonus_value", "fr") == "Bonus value"
    assert set(FIELD_LABELS["en"]) == {"price", "points"}  # no game's own field here


def test_the_rulebook_prints_the_declared_heading(tmp_path, run_cli):
    folder = tmp_path / "tokaido"
    copy_game(bundled_games()["tokaido"], folder)
    deck = folder / "decks" / "travellers.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("fr: Pièces", "fr: Ryōs"))
    out = tmp_path / "out"
    result = run_cli("build", str(folder), "--out", str(out), "--lang", "fr", "--only", "rulebook")
    assert result.exit_code == 0, result.output
    text = "".join(page.extract_text() for page in PdfReader(out / "tokaido/fr/rulebook.pdf").pages)
    assert "Ryōs" in text and "Pièces" not in text.split("Référence des cartes")[-1]


def test_a_label_for_no_field_is_a_diagnostic(tmp_path, run_cli):
    folder = tmp_path / "drinking-heroes"
    copy_game(bundled_games()["drinking-heroes"], folder)
    deck = folder / "decks" / "monsters.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("  max_tries:\n", "  max_trys:\n"))
    result = run_cli("validate", str(folder))
    assert result.exit_code == 1
    line = deck.read_text(encoding="utf-8").splitlines().index("  max_trys:") + 1
    assert f"monsters.yaml:{line + 1}:5: S001" in result.output  # the heading under the key
    assert "'max_trys' is not a card field" in result.output
