"""Card faces as images, cut from the one-card-per-page PDF that `build --profile press`
writes: the same drawing as every printed card, rasterised by `toolkit.render.raster`.

A deck's PDF holds, for each physical card (copies included), its front then its back; a
card with copies is imaged once, a deck whose backs are all alike has one back image.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolkit.content.models.deck import size_mm
from toolkit.render.artifacts import BuildOptions
from toolkit.render.artifacts.cards import cards_pdf
from toolkit.render.artifacts.questions import question_decks
from toolkit.render.raster import images_each, png_each
from toolkit.render.sheets import expand


@dataclass(frozen=True)
class PrintedDeck:
    """A deck as printed: cards in print order, its trim size, and whether each card has its
    own back (a question bank: the answers)."""

    deck: Any

    @property
    def back_per_card(self) -> bool:
        return bool(self.deck.back_per_card)

    @property
    def id(self) -> str:
        return str(self.deck.id)

    @property
    def cards(self) -> list[Any]:
        return list(self.deck.cards)

    @property
    def size_mm(self) -> tuple[float, float]:
        return size_mm(self.deck.size)

    def name(self, lang: str) -> str:
        return self.deck.name.get(lang, "") or self.id

    def copies(self) -> list[int]:
        """For each physical card, the index of its card in `cards` (print order)."""
        index = {id(card): i for i, card in enumerate(self.cards)}
        return [index[id(slot.card)] for slot in expand(self.cards)]


def printed_decks(game: Any) -> list[PrintedDeck]:
    """Every deck `build` prints: the card decks, then the question banks."""
    decks = [PrintedDeck(deck) for deck in game.valid(game.decks)]
    return decks + [PrintedDeck(bank) for bank in question_decks(game)]


def card_label(card: Any, lang: str) -> str:
    """A card's name in `lang` (a question's text), for file lists and TTS."""
    name = getattr(card, "name", None) or getattr(card, "question", None) or {}
    text = name.get(lang, "") if hasattr(name, "get") else str(name)
    return " ".join(str(text).split()) or str(card.id)


@dataclass(frozen=True)
class DeckPages:
    """A deck's one-card-a-page PDF and where each card's faces are in it, drawn into
    images a few at a time (a deck's bitmaps held together were gigabytes: 600 poker cards
    at 300 dpi, 1.9 GB)."""

    pdf: bytes
    fronts: list[int]  # the page of each card's front, in the order of `cards`
    backs: list[int]  # the page of each card's back, or of the deck's single back
    dpi: float
    trim: bool

    def images(self, pages: list[int]) -> Iterator[Any]:
        """Those pages as PIL images, one at a time (to compose further)."""
        return images_each(self.pdf, pages, self.dpi, self.trim)

    def pngs(self, pages: list[int]) -> Iterator[bytes]:
        """Those pages as PNG bytes, as they are encoded."""
        return png_each(self.images(pages))


def deck_pages(game: Any, printed: PrintedDeck, lang: str, dpi: float, bleed: bool) -> DeckPages:
    """The deck drawn as `build --per-card` prints it, each card once, to image at `dpi`
    (trimmed unless `bleed`)."""
    opts = BuildOptions([lang], per_card=True)
    pdf = cards_pdf(game, [printed.deck], lang, opts, each_once=True)
    count = len(printed.cards)
    if printed.back_per_card:  # front, back of each card
        fronts, backs = [2 * i for i in range(count)], [2 * i + 1 for i in range(count)]
    else:  # the first card's front, the deck's back, then the other fronts
        fronts, backs = [0, *range(2, count + 1)], [1]
    return DeckPages(pdf, fronts, backs, dpi, not bleed)


def card_pngs(printed: PrintedDeck, pages: DeckPages) -> Iterator[tuple[Any, bytes, bytes]]:
    """Each card with its front and back as PNG bytes, in order, a few drawn at a time (a
    deck's single back is encoded once)."""
    if printed.back_per_card:
        pairs = zip(pages.fronts, pages.backs, strict=True)
        encoded = pages.pngs([page for pair in pairs for page in pair])
        for card, front, back in zip(printed.cards, encoded, encoded, strict=True):
            yield card, front, back
        return
    (back,) = pages.pngs(pages.backs)
    for card, front in zip(printed.cards, pages.pngs(pages.fronts), strict=True):
        yield card, front, back
