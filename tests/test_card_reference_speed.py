"""The card reference's budgets after a card edit (toolkit.checks.card_reference_bounds): what
they read of every card of every deck, in every rulebook language, is read cheaply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from toolkit.content.game import bundled_games, load_game
from toolkit.content.templating import field_names
from toolkit.render.card_reference import deck_reference, reference_columns, row_texts


def test_a_deck_s_columns_read_each_card_class_s_fields_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pydantic answers `model_fields` through a descriptor; the columns asked it three
    times per card, for every deck in every rulebook language."""
    game = load_game(bundled_games()["whisky-game"])
    decks = [loaded.model for loaded in game.decks if loaded.model is not None]
    expected = [reference_columns(deck) for deck in decks]
    for deck in decks:
        for card in deck.cards:
            field_names(card)  # each class's names, read once in the process
    asked: list[str] = []
    descriptor = BaseModel.__dict__["model_fields"]

    class Counted:
        def __get__(self, obj: Any, kind: Any = None) -> Any:
            asked.append(getattr(kind, "__name__", "?"))
            return descriptor.__get__(obj, kind)

    monkeypatch.setattr(BaseModel, "model_fields", Counted())
    assert [reference_columns(deck) for deck in decks] == expected
    assert asked == []


FIXTURES = Path(__file__).parent / "fixtures" / "broken"


def _games() -> list[Path]:
    found = sorted(bundled_games().values())
    return found + sorted(p for p in FIXTURES.iterdir() if (p / "game.yaml").is_file())


@pytest.mark.parametrize("root", _games(), ids=lambda p: p.name)
def test_a_deck_s_row_texts_are_what_its_rows_print(root: Path) -> None:
    game = load_game(root)
    langs = sorted({*(getattr(game.manifest, "languages", None) or []), "en", "fr", "xx"})
    for loaded in game.decks:
        if loaded.model is None:
            continue
        for lang in langs:
            found = deck_reference(game, loaded.model, lang)
            texts = row_texts(game, loaded.model, lang)
            if found is None:
                assert texts is None
            else:
                assert texts == [p.text for row in found.rows for p in row.printed()]


def test_the_markup_budget_makes_no_row_while_plainly_within_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nearly every game's card reference and rulebook hold far fewer pieces of inline markup
    than the budget: the rows' pieces are counted together, and no row is made (a `Printed`
    per string) or counted alone."""
    from toolkit.checks import card_reference_bounds
    from toolkit.render import card_reference

    game = load_game(bundled_games()["whisky-game"])
    made: list[str] = []
    rows = card_reference.deck_reference

    def counted(game: Any, deck: Any, lang: str) -> Any:
        made.append(deck.id)
        return rows(game, deck, lang)

    monkeypatch.setattr(card_reference, "deck_reference", counted)
    for lang in game.rulebook:
        assert list(card_reference_bounds.findings(game, lang, "# Rules\n\n&amp; <b>\n")) == []
    assert made == []
