"""Card faces as images, cut from the one-card-per-page PDF that `build --profile press`
writes: the same drawing as every printed card, rasterised by `toolkit.render.raster`.

A language's PDF holds every deck, and for each card its front then its back (a card with
copies is imaged once), a deck whose backs are all alike its one back after its first card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from toolkit.content.models.deck import size_mm
from toolkit.render.artifacts import BuildOptions
from toolkit.render.artifacts.cards import cards_pdf
from toolkit.render.artifacts.questions import question_decks
from toolkit.render.exports import MIN_DPI
from toolkit.render.raster import images_each, pixels, png_each
from toolkit.render.raster_weight import FaceLoad
from toolkit.render.sheets import BLEED_MM, expand

_T = TypeVar("_T")


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


MAX_EXPORT_PIXELS = 1_000_000_000
"""Pixels of card images one export may draw in all, every language together (a page has
its own bound, `png.MAX_PAGE_PIXELS`), checked from the decks' sizes before any is drawn
(faces alike counted each time, though drawn once). Drawing and encoding cost some 11 ns a
pixel for large plain cards, about 21 for small cards with pictures: 100 cards of 300 × 420
mm at --dpi 275 in one language (1,492 M pixels, from a 2.5 kB deck) were 16 s of CPU. The
bundled games at the default dpi, all their languages: `export png` 808 M for the largest
(954 M with --bleed), 19 s of CPU, and 35 to 141 M for the others; `export tts` (150 dpi,
each face drawn, then every cell of the sheets and the back images encoded:
`tts.encoded_pixels`) 424 M for the largest. 1,000 one-card decks (each a 2 × 2 sheet and
a back of its own) are 1,354 M in one language at 150 dpi: 20.7 s of CPU. This bound is
1.24 times the largest default export and keeps its --bleed."""


def face_pixels(printed: PrintedDeck, dpi: float, bleed: bool = False) -> int:
    """Pixels of one face image of the deck at `dpi` (with its bleed or trimmed), as
    `raster.images_each` draws it."""
    from reportlab.lib.units import mm

    edge = 2 * BLEED_MM if bleed else 0.0
    width, height = printed.size_mm
    return pixels((width + edge) * mm, dpi) * pixels((height + edge) * mm, dpi)


def face_images(printed: PrintedDeck) -> int:
    """The images an export draws of the deck: each card's front, and each card's back or
    the deck's single back."""
    count = len(printed.cards)
    return count + (count if printed.back_per_card else 1)


def face_paint(printed: PrintedDeck, dpi: float, game_root: Any, bleed: bool = False) -> int:
    """What drawing and rasterising the deck's images at `dpi` costs beyond their pixels,
    counted as pixels: each card's front, and each card's back or the deck's single back
    (as `face_images` counts them), where what its layout may paint
    (toolkit.render.raster_weight) is more than the face's pixels (`face_pixels`: an
    image's pixels pay for painting as much, the price `MAX_EXPORT_PIXELS` was measured at;
    the bundled layouts paint 0.1 to 1.04 times their faces, 200 stroked card-sized boxes
    22 times), and what its elements weigh drawn into the PDF (toolkit.render.drawn_weight)
    past a plain face's `PLAIN_DRAWN` (200 badges ~8 ms a face, as much as 640,000 pixels)."""
    from toolkit.render.drawn_weight import most_weight
    from toolkit.render.layout import load_layout
    from toolkit.render.layout_names import DEFAULT_BACK, DEFAULT_FRONT
    from toolkit.render.raster_weight import DRAWN_PIXELS, PLAIN_DRAWN, layout_paint

    deck, count = printed.deck, len(printed.cards)
    if not count:
        return 0
    each = face_pixels(printed, dpi, bleed)

    def beyond(name: str) -> int:
        layout = load_layout(name, game_root)[0]
        paint = max(0, layout_paint(layout, printed.size_mm, dpi) - each)
        drawing = max(0, most_weight(layout, printed.size_mm) - PLAIN_DRAWN)
        return paint + drawing * DRAWN_PIXELS

    backs = count if printed.back_per_card else 1
    front = beyond(getattr(deck, "layout", None) or DEFAULT_FRONT) * count
    return front + beyond(getattr(deck, "back", None) or DEFAULT_BACK) * backs


def deck_load(game: Any, printed: PrintedDeck, langs: list[str]) -> FaceLoad:
    """What the deck's faces draw beyond their elements' boxes (`raster_weight.face_load`
    of each face as it resolves: every card's front, and each card's back or the deck's one
    back, as `face_images` counts them), in the language where each part is most; nothing
    in a game without SVG icons or fonts of its own whose layouts print no picture (a
    built-in icon's price is its element's). Its price at a dpi is `raster_weight.load_price`: 300
    faces of 15,400 icon shapes each took `export png` 54 s at the --dpi the pixel bound
    named (probe 52-4), 100 faces of 80 M picture pixels 14.5 s (probe 52-12)."""
    from toolkit.render.artifacts.cards import layout
    from toolkit.render.elements.base import Element
    from toolkit.render.glyph_weight import Glyphs, face_load_with_glyphs
    from toolkit.render.icons import ICONS, MAX_FACE_ICON_PAINT, MAX_FACE_ICON_WEIGHT, icon_set
    from toolkit.render.layout_names import DEFAULT_BACK, DEFAULT_FRONT
    from toolkit.render.pictures import MAX_FACE_PIXELS
    from toolkit.render.printjob import PrintJob, game_fonts

    deck, cards = printed.deck, printed.cards
    if not cards:
        return FaceLoad()
    front = layout(getattr(deck, "layout", None) or DEFAULT_FRONT, game)
    back = layout(getattr(deck, "back", None) or DEFAULT_BACK, game)
    elements = [*front.elements, *back.elements]
    pictured = any(type(e).pictures_drawn is not Element.pictures_drawn for e in elements)
    icons = icon_set(game.root)  # the game's, as each job's (PrintJob.icons)
    own_icons = any(icons.drawers.get(name) is not ICONS.get(name) for name in icons.names)
    if not own_icons and not pictured and not game_fonts(game).files:
        return FaceLoad()
    most = FaceLoad()
    for lang in langs:
        job = PrintJob(game, deck, front, back, lang, printed.size_mm)
        faces = [(front, card) for card in cards]
        faces += [(back, card) for card in (cards if printed.back_per_card else cards[:1])]
        load, glyphs = FaceLoad(), Glyphs()  # a glyph at a size: once in a language's PDF
        for face, card in faces:
            try:
                load += face_load_with_glyphs(job.resolved(face, card), job, glyphs)
            except ValueError:  # a template's error (the gate says it): what a face may draw
                load += FaceLoad(MAX_FACE_ICON_WEIGHT, float(MAX_FACE_ICON_PAINT), MAX_FACE_PIXELS)
        why = glyphs.problem()
        if why is not None:
            from toolkit.render.artifacts import BuildError

            raise BuildError(
                f"the cards' texts in {lang} print characters a game font cannot draw in"
                f" reasonable time: {why}"
            )
        most = most.most(load + glyphs.load())
    return most


def check_export_pixels(drawn: Callable[[float], int], dpi: float, langs: list[str]) -> None:
    """Refuse (BuildError), before anything is drawn, an export whose card images at `dpi`
    would be more than `MAX_EXPORT_PIXELS` in all: `drawn(dpi)` is one language's pixels
    drawn and encoded (a face pasted into a sheet counted again in the sheet)."""
    total = drawn(dpi) * len(langs)
    if total <= MAX_EXPORT_PIXELS:
        return
    from toolkit.render.artifacts import BuildError

    most = _dpi_within(lambda at: drawn(at) * len(langs), dpi, total)
    lower = f"lower --dpi ({most} or less here), " if most >= MIN_DPI else ""
    each = f" ({total / len(langs) / 1e6:,.0f} M each)" if len(langs) > 1 else ""
    raise BuildError(
        f"the card images at --dpi {dpi:g} would be {total / 1e6:,.0f} M pixels in "
        f"{len(langs)} language(s), more than the {MAX_EXPORT_PIXELS / 1e6:,.0f} M one "
        f"export may draw: {lower}export fewer languages with --lang{each} or decks, or "
        "make the cards smaller"
    )


def check_export_cost(
    drawn: Callable[[float], int], painted: Callable[[float], int], dpi: float, langs: list[str]
) -> None:
    """Refuse (BuildError), before anything is drawn, an export whose card images at `dpi`
    would cost more than `MAX_EXPORT_PIXELS` pixels to draw: their pixels (`drawn`, as
    `check_export_pixels` counts them, which is called first) and `painted(dpi)`, what
    drawing and rasterising them costs besides (`face_paint`: what their layouts' elements
    draw and paint beyond what a face's pixels pay for; 300 faces of 200 stroked boxes were
    43 s of CPU at 300 dpi for 233 M pixels, probe 51 P51-17)."""

    def cost(at: float) -> int:
        return (drawn(at) + painted(at)) * len(langs)

    total, extra = drawn(dpi) * len(langs), painted(dpi) * len(langs)
    if total + extra <= MAX_EXPORT_PIXELS:
        return
    from toolkit.render.artifacts import BuildError

    most = _dpi_within(cost, dpi, total + extra)
    if most >= MIN_DPI:
        advice = f"lower --dpi ({most} or less here), export fewer languages with --lang or"
        advice += " decks, or draw fewer or smaller elements (or simpler icons, or a font of"
        advice += " simpler glyphs at fewer sizes)"
    else:  # what costs as much at any dpi is past the bound: no --dpi helps
        advice = (
            f"no --dpi brings them under it (at {MIN_DPI} still {_mega(cost(MIN_DPI))} M: each"
            " point of an SVG icon's outlines and each element drawn cost as much at any"
            " dpi, and each glyph of a game font at each size): export fewer languages with"
            " --lang or decks, or use simpler icons (fewer points) or fewer of them, fewer"
            " elements, and a font of simpler glyphs"
        )
    raise BuildError(
        f"the card images at --dpi {dpi:g} would cost as much to draw as "
        f"{_mega(total + extra)} M pixels in {len(langs)} language(s) (their "
        f"{_mega(total)} M pixels, and {_mega(extra)} M more for what their layouts'"
        " elements draw and paint: each box, disc or picture is filled whole on every face,"
        " a stroke along its outline, an SVG icon each of its shapes and the points and"
        " pixels of its outlines, a glyph of the game's fonts each size it prints at, letters"
        f" a font prints over each other), more than the {MAX_EXPORT_PIXELS / 1e6:,.0f} M one"
        f" export may draw: {advice} on the cards' faces"
    )


def _dpi_within(cost: Callable[[float], int], dpi: float, at_dpi: int) -> int:
    """The largest --dpi (from `MIN_DPI`) at which `cost` stays within `MAX_EXPORT_PIXELS`,
    given `at_dpi`, its cost at `dpi` (pixels grow with the square of the dpi: the first
    guess); under `MIN_DPI` when none does."""
    most = int(dpi * (MAX_EXPORT_PIXELS / at_dpi) ** 0.5)
    while most >= MIN_DPI and cost(most) > MAX_EXPORT_PIXELS:
        most -= 1
    return most


def _mega(count: int) -> str:
    """`count` in millions, as a message says it (a tenth under 10 M: '0.4')."""
    return f"{count / 1e6:,.0f}" if count >= 10_000_000 else f"{count / 1e6:.1f}"


def card_label(card: Any, lang: str) -> str:
    """A card's name in `lang` (a question's text), for file lists and TTS."""
    name = getattr(card, "name", None) or getattr(card, "question", None) or {}
    text = name.get(lang, "") if hasattr(name, "get") else str(name)
    return " ".join(str(text).split()) or str(card.id)


@dataclass(frozen=True)
class DeckPages:
    """A deck's pages in its language's one-card-a-page PDF (`language_pages`), drawn into
    images a few at a time (a deck's bitmaps held together were gigabytes: 600 poker cards
    at 300 dpi, 1.9 GB). Pages that draw the same (equal `keys`: cards that differ only in
    what their faces do not show) are imaged once: 100 such cards of 300 × 420 mm were 16 s
    of CPU, one image drawn and encoded 100 times."""

    pdf: Any  # the PDF (a `pypdfium2.PdfDocument` held open, or its bytes)
    fronts: list[int]  # the page of each card's front, in the order of `cards`
    backs: list[int]  # the page of each card's back, or of the deck's single back
    dpi: float
    trim: bool
    keys: list[str] = field(default_factory=list)  # per page (`pdf.record_pages`)

    def images(self, pages: list[int]) -> Iterator[Any]:
        """Those pages as PIL images, one at a time (to compose further)."""
        return self._once(
            pages, lambda distinct: images_each(self.pdf, distinct, self.dpi, self.trim)
        )

    def pngs(self, pages: list[int]) -> Iterator[bytes]:
        """Those pages as PNG bytes, as they are encoded."""
        return self._once(
            pages, lambda distinct: png_each(images_each(self.pdf, distinct, self.dpi, self.trim))
        )

    def key(self, page: int) -> str:
        """The page's key: the same for pages that draw the same (without keys, its own)."""
        return self.keys[page] if page < len(self.keys) else f"page {page}"

    def _once(self, pages: list[int], make: Callable[[list[int]], Iterator[_T]]) -> Iterator[_T]:
        """`make`'s item for each of `pages`, made once for pages that draw the same: held
        from the first such page to the last."""
        key = {page: self.key(page) for page in pages}
        first: dict[str, int] = {}
        for page in pages:
            first.setdefault(key[page], page)
        last = {key[page]: at for at, page in enumerate(pages)}
        made, held = make(list(first.values())), dict[str, _T]()
        for at, page in enumerate(pages):
            item = held.pop(key[page]) if key[page] in held else next(made)
            if last[key[page]] > at:
                held[key[page]] = item
            yield item


@contextmanager
def language_pages(
    game: Any, decks: list[PrintedDeck], lang: str, dpis: list[float], bleed: bool
) -> Iterator[list[DeckPages]]:
    """Each of `decks` drawn as `build --per-card` prints it, each card once, to image at its
    dpi of `dpis` (trimmed unless `bleed`): all in one PDF of the language, held open while
    the caller images them. A PDF a deck was ~5 ms each (its document, its font subsets),
    most of the work of 1,000 one-card decks at --dpi 30."""
    import pypdfium2 as pdfium

    if not decks:
        yield []
        return
    opts = BuildOptions([lang], per_card=True)
    keys: list[str] = []
    printed_only = [printed.deck for printed in decks]
    # pictures resampled once to each deck's dpi: PDFium decodes each whole in every
    # language's document (probe 61-2)
    pdf = cards_pdf(game, printed_only, lang, opts, each_once=True, keys=keys, picture_dpis=dpis)
    document = pdfium.PdfDocument(pdf)
    try:
        out, start = [], 0
        for printed, dpi in zip(decks, dpis, strict=True):
            count = len(printed.cards)
            if printed.back_per_card:  # front, back of each card
                fronts = [start + 2 * i for i in range(count)]
                backs = [start + 2 * i + 1 for i in range(count)]
            else:  # the first card's front, the deck's back, then the other fronts
                fronts, backs = [start, *range(start + 2, start + count + 1)], [start + 1]
            out.append(DeckPages(document, fronts, backs, dpi, not bleed, keys))
            start += face_images(printed)
        if start != len(document):
            raise AssertionError(f"{len(document)} card pages, {start} expected")
        yield out
    finally:
        document.close()


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
