"""The card reference's budgets after a card edit (toolkit.checks.card_reference_bounds): what
they read of every card of every deck, in every rulebook language, is read cheaply."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from toolkit.content.game import bundled_games, load_game
from toolkit.content.templating import field_names
from toolkit.render.card_reference import reference_columns


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
