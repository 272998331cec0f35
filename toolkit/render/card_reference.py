"""What the rulebook's card reference prints of a deck, and where the deck file holds each
string: the renderer draws it (toolkit.render.rulebook) and `validate` checks the very same
strings (toolkit.checks.card_reference), so a letter or glyph no card face prints (a
labelled parameter) is still checked where it is written."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolkit.content.templating import field_names
from toolkit.render.context import card_entries, localized_card
from toolkit.render.rulebook_words import FIELD_LABELS, labels

DataPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Printed:
    """A string the card reference prints, the rulebook face it prints in (`regular`,
    `bold`, `italic`, `heading`: a `Faces` field) and where the deck's data holds it (a path
    in the deck file, or None for the toolkit's own words). A text filled from a card's
    values holds them elsewhere in the card: a check looks there too."""

    text: str
    face: str
    path: DataPath | None


@dataclass(frozen=True)
class Row:
    """One card's row: name (and title), the deck's columns, copies and filled text."""

    card_id: str
    name: Printed
    title: Printed | None
    values: list[Printed]
    copies: Printed
    text: Printed

    def printed(self) -> Iterator[Printed]:
        yield self.name
        if self.title is not None:
            yield self.title
        yield from self.values
        yield self.copies
        yield self.text

    def with_icons(self) -> Iterator[Printed]:
        """What the reference prints with its inline icons drawn (`:die:` as the icon), in
        the order it draws them: the name, title, columns' values and the text
        (`rulebook.card_reference` marks them up with the sheet's icons; the copies are a
        number)."""
        yield self.name
        if self.title is not None:
            yield self.title
        yield from self.values
        yield self.text


@dataclass(frozen=True)
class DeckReference:
    """A deck's part of the card reference: its heading, its columns' headings (between
    the toolkit's Card and Copies, Text) and a row a card."""

    heading: Printed
    heads: list[Printed]
    rows: list[Row]

    def printed(self) -> Iterator[Printed]:
        """Every string it prints from the deck, in the order it prints them."""
        yield self.heading
        yield from self.heads
        for row in self.rows:
            yield from row.printed()


def deck_reference(game: Any, deck: Any, lang: str) -> DeckReference | None:
    """What the card reference prints of `deck` in `lang`; None for a deck without card
    texts in that language (it has no part)."""
    cards = [localized_card(game, card, lang) for card in deck.cards]
    if not any(card.get("text") for card in cards):
        return None
    columns = _columns(game, deck)
    heads = [
        Printed(
            _field_label(deck, c.name, lang),
            "bold",
            ("labels", c.name) if _declared(deck, c.name, lang) else None,
        )
        for c in columns
    ]
    rows = []
    for index, card in enumerate(cards):
        at: DataPath = ("cards", index)
        name = card.get("name")
        shown = Printed(str(name or card.get("id")), "bold", (*at, "name" if name else "id"))
        title = card.get("title")
        subtitle = (
            Printed(title, "italic", (*at, "title")) if isinstance(title, str) and title else None
        )
        values = [Printed(c.value(card), "regular", (*at, *c.path)) for c in columns]
        copies = Printed(str(card.copies), "regular", (*at, "copies"))
        text = Printed(str(card.get("text") or ""), "regular", (*at, "text"))
        rows.append(Row(str(card.get("id")), shown, subtitle, values, copies, text))
    return DeckReference(named(deck, lang), heads, rows)


def plain_cells(table: DeckReference, lang: str) -> list[list[tuple[str, bool]]]:
    """The cells of a deck's card reference table as `rulebook.reference_rows` makes them,
    each as its plain text and whether it prints in bold (the header and the names): what
    `validate` measures its columns and rows from without laying them out."""
    said = labels(lang)
    head = [said["card"], *(h.text for h in table.heads), said["copies"], said["text"]]
    rows = [[(h, True) for h in head]]
    for card in table.rows:
        name = card.name.text + (f"\n{card.title.text}" if card.title else "")
        row = [(name, True), *((v.text, False) for v in card.values)]
        rows.append([*row, (card.copies.text, False), (card.text.text, False)])
    return rows


def named(model: Any, lang: str) -> Printed:
    """A deck's, board's or question bank's name as the rulebook prints it in `lang` (the
    component list, a deck's heading in the card reference), and where its file holds it."""
    if lang in model.name:
        return Printed(str(model.name[lang]), "heading", ("name",))
    return Printed(str(model.id), "heading", ("id",))


def reference_size(game: Any, deck: Any, lang: str) -> tuple[int, int] | None:
    """The rows (a card each, the header row aside) and columns of `deck`'s part of the card
    reference in `lang`, as `deck_reference` would make it, without making it (the budget
    check prices it before anything is laid out); None for a deck without a part."""
    if not any(card_entries(game, card, lang, _TEXT).get("text") for card in deck.cards):
        return None
    return len(deck.cards), len(_columns(game, deck)) + FIXED_COLUMNS


_TEXT = ("text",)


def column_count(game: Any, deck: Any) -> int:
    """The columns of `deck`'s part of the card reference (`reference_size`'s second)."""
    return len(_columns(game, deck)) + FIXED_COLUMNS


def reference_rows(game: Any, deck: Any, lang: str) -> list[list[str]] | None:
    """The strings each card's row of `deck_reference(game, deck, lang)` prints, in
    `Row.printed`'s order (name, title if any, the columns' values, copies, text), read from
    the few entries of each card's view that the row prints (`card_entries`), without the
    rest of the view or the rows' places; None for a deck without a part. What the budget
    check counts in every row of every deck, in every rulebook language."""
    columns = _columns(game, deck)
    names = {"id", "name", "title", "copies", "text"}
    names.update("params" if c.param else c.name for c in columns)
    cards = [card_entries(game, card, lang, names) for card in deck.cards]
    if not any(card.get("text") for card in cards):
        return None
    rows = []
    for card in cards:
        name, title = card.get("name"), card.get("title")
        row = [str(name or card.get("id"))]
        if isinstance(title, str) and title:
            row.append(title)
        row.extend(c.value(card) for c in columns)
        row.append(str(card["copies"]))  # deck_reference's `card.copies`: a field of every card
        row.append(str(card.get("text") or ""))
        rows.append(row)
    return rows


FIXED_COLUMNS = 3
"""The toolkit's own columns of a deck's part: Card, Copies, Text."""


@dataclass(frozen=True)
class Column:
    """A card reference column: a card field, or (`param`) an entry of the cards' `params`."""

    name: str
    param: bool = False

    def value(self, card: dict[str, Any]) -> str:
        """What the cell prints for `card` (a localized view): empty where it has none."""
        source = (card.get("params") or {}) if self.param else card
        value = source.get(self.name)
        if value is None or isinstance(value, dict | list):
            return ""
        return str(value)

    @property
    def path(self) -> DataPath:
        """Where a card holds the column's value."""
        return ("params", self.name) if self.param else (self.name,)


def _columns(game: Any, deck: Any) -> list[Column]:
    """`reference_columns(deck)`, worked out once per loaded game and deck object (in
    `game.print_memo`, as the cards' views are): the budgets ask it of every deck in every
    rulebook language, twice (its size, its rows), and the reference asks it again; each
    goes through every field of every card of the deck."""
    memo = getattr(game, "print_memo", None)
    key = ("reference-columns", id(deck))
    kept = memo.get(key) if memo is not None else None
    if kept is not None and kept[0] is deck:  # kept with its deck: an id is never reused
        return list(kept[1])
    columns = reference_columns(deck)
    if memo is not None:
        memo[key] = (deck, tuple(columns))
    return columns


def reference_columns(deck: Any) -> list[Column]:
    """The deck's columns: every whole-number field (not copies) that any of its cards has,
    and every field or `params` entry the deck's `labels:` names, in model order, then the
    labelled params in `labels:` order. A card's fields are its class's, read once per class
    (`field_names`): pydantic answers `model_fields` through a descriptor (~0.7 µs a time),
    three times per card here."""
    columns: list[Column] = []
    seen: set[str] = set()
    for card in deck.cards:
        for name in field_names(card):
            if name in seen or name in _NOT_COLUMNS:
                continue
            value = getattr(card, name)
            number = isinstance(value, int) and not isinstance(value, bool)
            if number or (name in deck.labels and value is not None):
                seen.add(name)
                columns.append(Column(name))
    fields = {name for card in deck.cards for name in field_names(card)}
    for name in deck.labels:
        if name in fields:
            continue
        if any(name in (getattr(card, "params", None) or {}) for card in deck.cards):
            columns.append(Column(name, param=True))
    order: dict[str, int] = {}
    for card in deck.cards:
        for name in field_names(card):
            order.setdefault(name, len(order))
    fixed = sorted((c for c in columns if not c.param), key=lambda c: order[c.name])
    return fixed + [c for c in columns if c.param]


_NOT_COLUMNS = frozenset({"id", "name", "text", "copies", "params"})


def _declared(deck: Any, field: str, lang: str) -> bool:
    """Whether the deck's `labels:` heads `field` in `lang`."""
    declared = deck.labels.get(field)
    return bool(declared and declared.get(lang))


def _field_label(deck: Any, field: str, lang: str) -> str:
    """The deck's own heading for `field` (its `labels:`), else a generic word, else the
    field's name."""
    if _declared(deck, field, lang):
        return str(deck.labels[field].get(lang))
    known = FIELD_LABELS.get(lang, FIELD_LABELS["en"])
    return known.get(field, field.replace("_", " ").capitalize())
