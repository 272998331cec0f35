"""What every face's layout context costs: made for each card in each language (300 times for
100 cards in three languages), its per-card steps skip what is the same for all cards."""

from __future__ import annotations

from pydantic import BaseModel

from toolkit.content import templating
from toolkit.render import context


class Card(BaseModel):
    id: str
    name: dict[str, str]
    text: dict[str, str]
    copies: int = 1
    image: str | None = None
    subtitle: str | None = None
    value: int | None = None
    params: dict[str, int] = {}


def _card(ident: str = "advance") -> Card:
    return Card(
        id=ident,
        name={"fr": "Avancer", "en": "Advance"},
        text={"fr": "Avancez de {steps} cases.", "en": "Move {steps} spaces."},
        params={"steps": 3},
        value=-2,
    )


def test_a_model_s_field_names_are_read_once_per_class(monkeypatch) -> None:
    """Filling a card's texts and making its view read the field names through one
    per-class memo (pydantic's `model_fields` is a descriptor call each time)."""
    card = _card()
    assert templating.field_names(card) == tuple(Card.model_fields)
    assert templating.field_names(_card("other")) is templating.field_names(card)
    # what the memo holds is what both read: only `id` and `params` left
    monkeypatch.setitem(templating._FIELDS, Card, ("id", "params"))
    expected = {"id": "advance", "params.steps": "3", "steps": "3"}
    assert templating.parameter_values(card, "fr") == expected
    assert set(context.localize(card, "fr")) == {"id", "params", "text"}  # text: filled


def test_unset_optional_fields_are_passed_over_at_once(monkeypatch) -> None:
    looked: list[object] = []
    real = templating._is_scalar
    monkeypatch.setattr(templating, "_is_scalar", lambda v: looked.append(v) or real(v))
    values = templating.parameter_values(_card(), "fr")
    assert None not in looked
    assert values["value"] == "\u22122" and values["steps"] == "3" and "image" not in values


def test_a_card_s_noun_is_worked_out_once_per_class(monkeypatch) -> None:
    asked: list[type] = []
    real = context._noun
    monkeypatch.setattr(context, "_NOUNS", {})
    monkeypatch.setattr(context, "_noun", lambda kind: asked.append(kind) or real(kind))
    assert context.describe(_card("a")) == "card 'a'"
    assert context.describe(_card("b")) == "card 'b'"
    assert asked == [Card]


def test_localized_dicts_are_told_apart_as_before() -> None:
    def old(value: dict) -> bool:
        return (
            bool(value)
            and all(
                isinstance(k, str) and len(k) in (2, 3) and k.isalpha() and k.islower()
                for k in value
            )
            and all(isinstance(v, str) for v in value.values())
        )

    cases = [
        {},
        {"fr": "a"},
        {"fr": "a", "es": "b", "en": "c"},
        {"fra": "a"},
        {"f": "a"},
        {"FR": "a"},
        {"fr": 1},
        {"fr": "a", "steps": "b"},
        {1: "a"},
        {"f1": "a"},
        {"fr": None},
        {"é": "a", "çà": "b"},
        {"fr": "a", "en": ["b"]},
    ]
    for case in cases:
        assert context._is_localized(case) == old(case), case
