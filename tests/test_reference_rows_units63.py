"""The rows a deck's part of the rulebook's card reference prints in a language, which the
card reference's budgets count (card_reference_bounds), are kept between `validate` runs
(unit kind `reference-rows`), named by the deck's bytes (as its walk is), the language and
the game's languages: after a card edit the other decks' rows are read back, the edited
deck's are worked out again, and so is a deck in another language."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from toolkit.checks import card_reference_bounds as bounds
from toolkit.content import unit_cache
from toolkit.content.game import load_game
from toolkit.content.unit_cache import Units
from toolkit.render import card_reference, context

GAME = Path(__file__).resolve().parent.parent / "content" / "whisky-game"
CARD = "en: Your Glenlivet bottle scores +{amount} points."


@pytest.fixture
def copy(tmp_path) -> Path:
    folder = tmp_path / "whisky-game"
    shutil.copytree(GAME, folder)
    return folder


@pytest.fixture
def made(monkeypatch) -> list[str]:
    """The decks (ids) whose rows were worked out, not read back."""
    seen: list[str] = []
    real = card_reference.reference_rows

    def counted(game, deck, lang):
        seen.append(deck.id)
        return real(game, deck, lang)

    monkeypatch.setattr(card_reference, "reference_rows", counted)
    return seen


def _rows(folder: Path, units: Units | None, lang: str = "en") -> dict[str, object]:
    game = load_game(folder)
    if units is None:
        return {f.model.id: card_reference.reference_rows(game, f.model, lang) for f in game.decks}
    with unit_cache.activated(units):
        return {f.model.id: bounds._deck_rows(game, f, lang) for f in game.decks}


def _kept(units: Units) -> Units:
    return Units(json.loads(json.dumps(units.used)))  # as the next run reads them


def test_rows_are_read_back_and_an_edited_deck_s_worked_out(copy, made) -> None:
    first = Units()
    assert _rows(copy, first) == _rows(copy, None)
    decks = sorted(set(made))
    made.clear()
    assert _rows(copy, _kept(first)) == _rows(copy, None)
    assert sorted(made) == decks, "the second pass: without units"
    made.clear()
    deck = copy / "decks" / "characters.yaml"
    deck.write_text(deck.read_text("utf-8").replace(CARD, CARD + " Twice."), "utf-8")
    edited = _rows(copy, _kept(first))
    assert made == ["characters"], "the edited deck alone"
    assert edited == _rows(copy, None)
    assert any("Twice." in cell for row in edited["characters"] for cell in row)


def test_another_language_or_game_languages_are_worked_out(copy, made, monkeypatch) -> None:
    first = Units()
    _rows(copy, first, "en")
    made.clear()
    assert _rows(copy, _kept(first), "fr") == _rows(copy, None, "fr")
    assert len(made) == 2 * len(_rows(copy, None)), "worked out, with units and without"
    made.clear()
    monkeypatch.setattr(context, "game_languages", lambda game: frozenset({"en"}))
    _rows(copy, _kept(first), "en")
    assert made, "other game languages: worked out"


def test_a_deck_s_size_from_its_kept_rows_is_its_size(copy) -> None:
    first = Units()
    for units in (first, _kept(first)):
        game = load_game(copy)
        with unit_cache.activated(units):
            for loaded in game.decks:
                for lang in ("fr", "es", "en"):
                    size = card_reference.reference_size(game, loaded.model, lang)
                    assert bounds._size(game, loaded, lang) == size


def test_a_rendered_rulebook_s_counts_are_read_back_by_its_text(monkeypatch) -> None:
    from toolkit.render import rulebook_source

    counted: list[str] = []
    real = rulebook_source.block_count

    def blocks(text: str) -> int:
        counted.append(text)
        return real(text)

    monkeypatch.setattr(rulebook_source, "block_count", blocks)
    text = "# Rules\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" + "x" * 40 + " and more.\n"
    other = text.replace("more", "less")
    plain = (real(text), rulebook_source.table_cells(text), bounds._long_words(text)[0])
    game = SimpleNamespace(print_memo={})  # no render searched the texts in this run
    first = Units()
    with unit_cache.activated(first):
        assert bounds._text_counts(game, text) == plain
    with unit_cache.activated(_kept(first)):
        assert bounds._text_counts(game, text) == plain
        assert counted == [text], "read back"
        assert bounds._text_counts(game, other) == (real(other), 4, plain[2])
    assert counted == [text, other], "another text: counted"
