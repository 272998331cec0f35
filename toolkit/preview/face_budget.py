"""The budgets the preview's card faces of one revision of a game share (imported with the
first drawing: it brings the fitting code, and with it reportlab and Jinja)."""

from __future__ import annotations

from typing import Any

from toolkit.render import textfit
from toolkit.render.elements.base import Element
from toolkit.render.layout_budget import LayoutBudget
from toolkit.render.textfit import FitBudget
from toolkit.render.undefined import NameTips

CARD_DPI = 150.0
"""The preview's card faces' resolution (toolkit.preview.draw): a poker card is 407 × 555 px,
sharp beside an editor, quick to draw; what a face paints is priced at it (`face_letters`)."""

SHARE = 0.3
"""The share of the letters `validate` fits (`FIT_BUDGET`) the preview fits: a face fitted
there is also drawn, rasterised and PNG-encoded, about five times what fitting its letters
costs the check (probe 42 H2: the whole budget was ~15 s of drawing at start and again on
each layout save). 600,000 letters, ~3 s: a fifth of the 3 M `validate` fitted until
budget60. The largest bundled game's first page needs more than 400,000 (a fifth of 2 M
refused some of its fronts)."""


FACE_LETTERS = 1_000
"""What drawing a face costs beyond fitting its texts, counted as this many letters: a
PDF page, rasterised and PNG-encoded, ~4 ms even for a card that prints one word. Letters
alone never bounded short faces: 18,003 faces of a name each cost ~67 s to draw and
fitted a few hundred thousand letters (probe 43 P1). With it, a revision draws at most
`preview_limit() // FACE_LETTERS` faces (3,000: ~12 s of short faces), and only those the
page asks for (toolkit.preview.live)."""


PIXELS_PER_LETTER = 360
"""Image pixels (toolkit.render.raster_weight's unit, ~11 ns) a letter (~4 µs) is worth."""

DRAWN_LETTERS = 2.5
"""Letters a unit of `Element.draw_cost` (~10 µs of drawing the PDF) is worth."""


PLAIN_LETTERS = 500
"""What drawing and painting the elements of a plain face weighs within `FACE_LETTERS` (the
scaffold's `standard` face weighs 482, the bundled games' faces at most 499 but one tarot
back, 1,232)."""


def face_letters(layout: Any, card_mm: tuple[float, float]) -> int:
    """What drawing a face of `layout` costs, counted as letters: `FACE_LETTERS` (its page,
    rasterised and encoded), and what its elements weigh drawn into the PDF
    (toolkit.render.drawn_weight) and rasterised at the preview's dpi (what they paint,
    toolkit.render.raster_weight) past the `PLAIN_LETTERS` a plain face weighs. A face of
    200 card-sized stroked boxes with round corners cost ~50 ms, where FACE_LETTERS is ~4:
    768 such faces were 40 s of CPU at start (probe 51 P51-16); it counts ~23,000."""
    from toolkit.render.drawn_weight import most_weight
    from toolkit.render.raster_weight import layout_paint

    drawn = most_weight(layout, card_mm) * DRAWN_LETTERS
    painted = layout_paint(layout, card_mm, CARD_DPI) / PIXELS_PER_LETTER
    return FACE_LETTERS + max(0, int(drawn + painted) - PLAIN_LETTERS)


def load_letters(items: list[Any], job: Any) -> int:
    """What rasterising the game's SVG icons, the pictures and the game fonts' glyphs a
    resolved face draws costs at the preview's dpi, counted as letters
    (toolkit.render.raster_weight.load_price): 32 small icons of 480 stroked circles were
    ~90 ms a face, priced as a plain face's 4: 769 such faces took 69 s of CPU at start
    (probe 52-5). A glyph past P009's bounds raises GlyphsRefused."""
    from toolkit.render.glyph_weight import face_load_with_glyphs
    from toolkit.render.raster_weight import load_price

    load = face_load_with_glyphs(items, job)
    return int(load_price(load, CARD_DPI) / PIXELS_PER_LETTER)


def preview_limit() -> int:
    """The letters the faces of one revision of the preview may fit."""
    return int(textfit.FIT_BUDGET * SHARE)


class FitSpent(ValueError):
    """A face asked once the revision's fitting budget is spent: not drawn."""


class FaceBudget(FitBudget):
    """The budgets the preview's faces of one revision of the game share, as a check's
    faces do: the check's fitting budget (`FIT_BUDGET` letters) and layout budget
    (toolkit.render.layout_budget). `validate` stops at them and the game is not built, but
    the preview resolved (probe 40 H2) and fitted (probe 41 H2: 3,003 faces of long texts,
    ~21 s at start) every face past them. Past either, a face is not drawn and says why.
    The fitting budget is a share of the check's (`SHARE`): each face fitted is also drawn,
    and each face counts FACE_LETTERS letters besides its texts' (its drawing).

    Both count a face once (`LayoutBudget(once=True)`): a group of faces that fails is
    drawn again face by face, and a face counted already is not counted again (else the
    faces after it would be refused wrongly). A failing template's message searches no
    'did you mean' (the check's finding has it)."""

    def __init__(self) -> None:
        super().__init__(limit=preview_limit())
        self.layouts = LayoutBudget(once=True)
        self.names = NameTips(limit=0)
        self.faces: dict[tuple[object, ...], tuple[object, ...]] = {}
        self.weights: dict[tuple[object, ...], tuple[Any, int]] = {}

    def fit_face(self, job: Any, layout: Any, card: Any) -> None:
        """Resolve and fit the face of `card` once for this revision, counted; raises
        FitSpent once the fitting budget is spent (before resolving: refused cheaply). A
        face with no text to fit that weighs no more than FACE_LETTERS (a deck's plain
        back) is not refused; one of many boxes is (`face_letters`), and one whose SVG icons
        and pictures (`load_letters`, known once it is resolved) would take it past the
        budget is refused before it is drawn."""
        key = (id(layout), id(job.deck), id(card), job.lang, job.card_mm)
        kept = self.faces.get(key)  # the objects are kept with it: an id is never reused
        if kept is not None and kept[0] is layout and kept[1] is job.deck and kept[2] is card:
            return
        refusals, load = self.refusals, 0
        fits, letters = _fits(layout), self._letters(layout, job.card_mm)
        if (not fits and letters <= FACE_LETTERS) or self.allows():
            items = job.resolved(layout, card)
            load = load_letters(items, job)  # its icons and pictures, known once resolved
            if load and self.spent + letters + load > self.limit:
                self.refusals += 1  # they would pass what is left: not drawn (probe 62-1)
            else:
                for item in items:
                    if fits:
                        item.element.measure(item, job)  # a text's fit, counted (`fitted`)
                self.spent += letters + load  # its drawing, besides its texts (after: a
                # face let through fits its own texts, whatever they weigh)
        if self.refusals != refusals:
            icons = f", this face's SVG icons and pictures {load:,} more" if load else ""
            when = (
                "they alone cost more than a revision draws: the preview does not draw it"
                if letters + load > self.limit  # no save brings it under the limit
                else "it is drawn when shown after the next save"
            )
            raise FitSpent(
                f"layout {getattr(layout, 'id', '?')!r} is not rendered: the fitting budget"
                f" of the preview ({self.limit:,} letters, a fifth of `validate`'s: each face"
                f" fitted is also drawn, and counts {FACE_LETTERS:,} besides its texts, and"
                " more for many elements drawn and painted: this layout's"
                f" {letters:,}{icons}) is spent; {when}"
            )
        self.faces[key] = (layout, job.deck, card)

    def _letters(self, layout: Any, card_mm: tuple[float, float]) -> int:
        """`face_letters` of the layout at that size, weighed once for the revision."""
        key = (id(layout), card_mm)
        kept = self.weights.get(key)
        if kept is None or kept[0] is not layout:
            kept = self.weights[key] = (layout, face_letters(layout, card_mm))
        return kept[1]


def _fits(layout: Any) -> bool:
    """Whether a face of `layout` has texts to fit (an element kind that measures them)."""
    return any(type(e).measure is not Element.measure for e in layout.elements)
