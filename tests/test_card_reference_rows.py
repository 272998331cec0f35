"""The card reference's budgets (toolkit.checks.card_reference_bounds) read what each card's
row prints from the few entries of the card's view it prints (`card_entries`,
`reference_rows`), not from whole views: the same strings as `deck_reference`'s rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.checks import card_reference_bounds
from toolkit.content.game import bundled_games, load_game
from toolkit.content.models.deck import CardBase
from toolkit.render import context
from toolkit.render.card_reference import deck_reference, reference_rows, reference_size
from toolkit.render.context import card_entries, localized_card

FIXTURES = Path(__file__).parent / "fixtures" / "broken"


def _games() -> list[Path]:
    found = sorted(bundled_games().values())
    found += sorted(p for p in FIXTURES.iterdir() if (p / "game.yaml").is_file())
    return found


@pytest.mark.parametrize("root", _games(), ids=lambda p: p.name)
def test_a_row_prints_what_the_card_reference_prints(root: Path) -> None:
    game = load_game(root)
    langs = sorted({*(getattr(game.manifest, "languages", None) or []), "en", "fr", "xx"})
    for loaded in game.decks:
        deck = loaded.model
        if deck is None:
            continue
        for lang in langs:
            rows = reference_rows(game, deck, lang)  # before any whole view is made
            size = reference_size(game, deck, lang)
            found = deck_reference(game, deck, lang)
            if found is None:
                assert rows is None and size is None
                continue
            assert rows == [[p.text for p in row.printed()] for row in found.rows]
            assert size == (len(found.rows), len(found.heads) + 3)
            assert reference_rows(game, deck, lang) == rows  # from the views made since


@pytest.mark.parametrize("root", _games(), ids=lambda p: p.name)
def test_a_card_s_entries_are_its_view_s(root: Path) -> None:
    game = load_game(root)
    langs = sorted({*(getattr(game.manifest, "languages", None) or []), "xx"})
    for loaded in game.decks:
        for card in loaded.model.cards if loaded.model is not None else ():
            for lang in langs:
                names = set(type(card).model_fields) | {"text", "missing"}
                entries = card_entries(game, card, lang, names)
                view = localized_card(game, card, lang)
                assert entries == {k: view[k] for k in names if k in view}
                assert card_entries(game, card, lang, names) == entries  # the view's now


def test_the_budgets_make_no_card_s_whole_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a card edit a rulebook language read back from the units prints no card: the
    budgets alone made the whole view of every card of every deck (~20 µs a card and
    language: ~6 ms of a Whisky Game card edit)."""
    game = load_game(bundled_games()["whisky-game"])
    made: list[str] = []
    whole = context._model_view

    def counted(value, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(value, CardBase):
            made.append(value.id)
        return whole(value, *args, **kwargs)

    monkeypatch.setattr(context, "_model_view", counted)
    for lang in game.rulebook:
        assert list(card_reference_bounds.findings(game, lang, "# Rules\n\nText.\n")) == []
    assert made == []


def test_a_deck_s_columns_are_worked_out_once_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each deck's columns go through every field of every card: the budgets asked for them
    twice per deck and rulebook language (its size, its rows), the reference once more."""
    from toolkit.render import card_reference

    game = load_game(bundled_games()["whisky-game"])
    asked: list[str] = []
    columns = card_reference.reference_columns

    def counted(deck):  # type: ignore[no-untyped-def]
        asked.append(deck.id)
        return columns(deck)

    monkeypatch.setattr(card_reference, "reference_columns", counted)
    for lang in game.rulebook:
        list(card_reference_bounds.findings(game, lang, "# Rules\n\nText.\n"))
        for loaded in game.decks:
            deck_reference(game, loaded.model, lang)
    assert sorted(asked) == sorted(loaded.model.id for loaded in game.decks)
