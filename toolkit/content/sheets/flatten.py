"""Cards into rows: each card's values at their header paths (`name.fr`, `answers[1].en`),
one column per language, and what a sheet cannot hold said before anything is written."""

from __future__ import annotations

from typing import Any

from toolkit.content.sheets.header import render


class NotTabular(ValueError):
    """A card value a sheet cannot hold as a cell (an empty list, a null, an empty text)."""


def _leaves(
    value: Any, path: tuple[Any, ...], index: tuple[bool, ...], out: dict[str, Any], card: str
) -> None:
    if isinstance(value, dict):
        if not value:
            raise NotTabular(f"card {card}: {render(path, index) or 'it'} is an empty mapping")
        for key, item in value.items():
            _leaves(item, (*path, key), (*index, False), out, card)
    elif isinstance(value, list):
        if not value:
            raise NotTabular(f"card {card}: {render(path, index)} is an empty list")
        for position, item in enumerate(value):
            _leaves(item, (*path, position), (*index, True), out, card)
    elif value is None or value == "":
        what = "null" if value is None else "an empty text"
        raise NotTabular(
            f"card {card}: {render(path, index)} is {what}, which a sheet cannot tell from an"
            " empty cell (an absent field): remove it or give it a value"
        )
    else:
        out[render(path, index)] = value


def flatten(cards: list[Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Headers in a stable order (each field's columns together, as first met) and one
    mapping of header to value per card."""
    rows: list[dict[str, Any]] = []
    order: dict[str, int] = {}
    headers: list[str] = []
    for number, card in enumerate(cards, start=1):
        if not isinstance(card, dict):
            raise NotTabular(f"item {number} is not a mapping of fields")
        name = str(card.get("id", number))
        row: dict[str, Any] = {}
        _leaves(card, (), (), row, name)
        rows.append(row)
        for text in row:
            if text not in order:
                order[text] = len(order)
                headers.append(text)
    group: dict[str, int] = {}
    for text in headers:
        group.setdefault(top_field(text), order[text])
    headers.sort(key=lambda text: (group[top_field(text)], order[text]))
    return headers, rows


def top_field(text: str) -> str:
    """The field a header belongs to (`effect` of `effect.kind`, `answers` of `answers[1].en`)."""
    return text.split(".", 1)[0].split("[", 1)[0]
