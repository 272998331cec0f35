"""Card faces as images, cut from the one-card-per-page PDF that `build --profile press`
writes: the same drawing as every printed card, rasterised by `toolkit.render.raster`.

A deck's PDF holds, for each physical card (copies included), its front then its back; a
card with copies is imaged once, a deck whose backs are all alike has one back image.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toolkit.content.models.deck import size_mm
from toolkit.render.artifacts import BuildOptions
from toolkit.render.artifacts.cards import cards_pdf
from toolkit.render.artifacts.questions import question_decks
from toolkit.render.raster import images_selected, png_all
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
class DeckImages:
    fronts: list[Any]  # one per card of `cards`, in order (PNG bytes, or PIL images)
    backs: list[Any]  # one per card when each has its own back, else the deck's single back


def deck_images(
    game: Any, printed: PrintedDeck, lang: str, dpi: float, bleed: bool, encode: bool = True
) -> DeckImages:
    """Every card's front and back at `dpi`, trimmed unless `bleed`: PNG bytes, or PIL
    images to compose further (`encode=False`)."""
    opts = BuildOptions([lang], per_card=True)
    pdf = cards_pdf(game, [printed.deck], lang, opts, each_once=True)
    count = len(printed.cards)
    if printed.back_per_card:  # front, back of each card
        fronts, backs = [2 * i for i in range(count)], [2 * i + 1 for i in range(count)]
    else:  # the first card's front, the deck's back, then the other fronts
        fronts, backs = [0, *range(2, count + 1)], [1]
    images: list[Any] = images_selected(pdf, fronts + backs, dpi, trim=not bleed)
    if encode:
        images = png_all(images)
    return DeckImages(images[: len(fronts)], images[len(fronts) :])


def each_deck(
    game: Any, lang: str, dpi: float, bleed: bool, step: Callable[[], None] | None = None
) -> Iterator[tuple[PrintedDeck, DeckImages]]:
    for printed in printed_decks(game):
        yield printed, deck_images(game, printed, lang, dpi, bleed)
        if step:
            step()
