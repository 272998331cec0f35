"""The words a rulebook prints of its own (labels per language, the players range, the
component list's sizes, list bullets, hyphens), kept apart from the renderer so that
`validate` can search them in the game's faces without importing it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolkit.content.game import Game

LABELS: dict[str, dict[str, str]] = {
    "fr": {
        "kicker": "Règle du jeu",
        "contents": "Sommaire",
        "components": "Liste du matériel",
        "card_reference": "Référence des cartes",
        "players": "Joueurs",
        "age": "Âge",
        "minutes": "Minutes",
        "item": "Élément",
        "quantity": "Quantité",
        "card": "Carte",
        "copies": "Ex.",
        "text": "Texte",
        "cards": "{n} carte|{n} cartes",
        "tokens": "{n} jeton|{n} jetons",
        "tiles": "{n} tuile|{n} tuiles",
        "questions": "{n} question|{n} questions",
        "spaces": "{n} case|{n} cases",
        "stops": "{n} étape|{n} étapes",
        "holes": "{n} × {segment}, {holes} trous chacun",
    },
    "es": {
        "kicker": "Reglamento",
        "contents": "Índice",
        "components": "Lista de componentes",
        "card_reference": "Referencia de cartas",
        "players": "Jugadores",
        "age": "Edad",
        "minutes": "Minutos",
        "item": "Elemento",
        "quantity": "Cantidad",
        "card": "Carta",
        "copies": "Copias",
        "text": "Texto",
        "cards": "{n} carta|{n} cartas",
        "tokens": "{n} ficha|{n} fichas",
        "tiles": "{n} loseta|{n} losetas",
        "questions": "{n} pregunta|{n} preguntas",
        "spaces": "{n} casilla|{n} casillas",
        "stops": "{n} parada|{n} paradas",
        "holes": "{n} × {segment}, {holes} agujeros cada uno",
    },
    "en": {
        "kicker": "Rules of play",
        "contents": "Contents",
        "components": "Component list",
        "card_reference": "Card reference",
        "players": "Players",
        "age": "Age",
        "minutes": "Minutes",
        "item": "Item",
        "quantity": "Quantity",
        "card": "Card",
        "copies": "Copies",
        "text": "Text",
        "cards": "{n} card|{n} cards",
        "tokens": "{n} token|{n} tokens",
        "tiles": "{n} tile|{n} tiles",
        "questions": "{n} question|{n} questions",
        "spaces": "{n} space|{n} spaces",
        "stops": "{n} stop|{n} stops",
        "holes": "{n} × {segment}, {holes} holes each",
    },
}
# Column headings of the card reference for the few number fields any game may have; a deck
# names its own fields' headings in `labels:`, others show their field name.
FIELD_LABELS: dict[str, dict[str, str]] = {
    "fr": {"price": "Prix", "points": "Points"},
    "es": {"price": "Precio", "points": "Puntos"},
    "en": {"price": "Price", "points": "Points"},
}


def labels(lang: str) -> dict[str, str]:
    return LABELS.get(lang, LABELS["en"])


def count(lang: str, key: str, n: int, **kw: Any) -> str:
    """A localized count: `{n} card|{n} cards` picks singular or plural."""
    one, _, many = labels(lang)[key].partition("|")
    return (one if n == 1 or not many else many).format(n=n, **kw)


BULLETS = ("\u2022", "\u2013", "\u00b7")
"""A bullet list's mark by depth (markdown_flow: in the regular face)."""
HYPHENATION = {"fr": "fr", "es": "es", "en": "en_GB", "de": "de", "it": "it"}
"""The hyphenation dictionary of each language whose paragraphs are hyphenated (with `-`)."""


@dataclass(frozen=True)
class Words:
    """The renderer's own words printed in one style of the rulebook's faces."""

    style: str
    words: tuple[str, ...]


def own_words(game: Game, lang: str, headings: bool) -> list[Words]:
    """What `render_rulebook` prints of its own in `lang`, by face: the cover's kicker and
    facts, the contents' heading (with `headings`, or a generated section), the component
    list's and card reference's headings and sizes, a hyphen where paragraphs hyphenate.
    Texts of the game (names, titles) are not in it: they are searched where written."""
    manifest = game.manifest
    if manifest is None:
        return []
    names = labels(lang)
    low, high = manifest.players.min, manifest.players.max
    heading = [names["kicker"].upper()]
    bold = [str(low) if low == high else f"{low}\u2013{high}"]
    regular = [names["players"]]
    if manifest.age is not None:
        bold.append(f"{manifest.age}+")
        regular.append(names["age"])
    if manifest.minutes is not None:
        bold.append(str(manifest.minutes))
        regular.append(names["minutes"])
    decks = list(game.valid(game.decks))
    banks = list(game.valid(game.questions))
    if decks or banks or game.valid(game.boards):
        heading.append(names["components"])
        bold += [names["components"], names["item"], names["quantity"]]
        regular += [_pieces(lang, deck) for deck in decks]
        regular += [count(lang, "questions", len(bank.questions)) for bank in banks]
    if any(_has_text(card, lang) for deck in decks for card in deck.cards):
        heading.append(names["card_reference"])
        bold += [names["card_reference"], names["card"], names["copies"], names["text"]]
    if headings or len(heading) > 1:
        heading.append(names["contents"])
    if HYPHENATION.get(lang):
        regular.append("-")
    found = [Words("heading", tuple(heading)), Words("bold", tuple(bold))]
    return [*found, Words("regular", tuple(regular))]


def _pieces(lang: str, deck: Any) -> str:
    """A deck's line in the component list (rulebook.components)."""
    from toolkit.content.models.deck import size_mm

    w, h = size_mm(deck.size)
    total = sum(card.copies for card in deck.cards)
    return f"{count(lang, deck.pieces, total)} ({w:g}\u202f\u00d7\u202f{h:g} mm)"


def _has_text(card: Any, lang: str) -> bool:
    text = getattr(card, "text", None)
    return isinstance(text, dict) and bool(text.get(lang))
