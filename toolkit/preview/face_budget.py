"""The budgets the preview's card faces of one revision of a game share (imported with the
first drawing: it brings the fitting code, and with it reportlab and Jinja)."""

from __future__ import annotations

from typing import Any

from toolkit.render import textfit
from toolkit.render.elements.base import Element
from toolkit.render.layout_budget import LayoutBudget
from toolkit.render.textfit import FitBudget
from toolkit.render.undefined import NameTips

SHARE = 5
"""The preview fits a fifth of the letters `validate` does (`FIT_BUDGET`): a face fitted
there is also drawn, rasterised and PNG-encoded, about five times what fitting its letters
costs the check (probe 42 H2: the whole budget was ~15 s of drawing at start and again on
each layout save; a fifth is ~3 s)."""


FACE_LETTERS = 1_000
"""What drawing a face costs beyond fitting its texts, counted as this many letters: a
PDF page, rasterised and PNG-encoded, ~4 ms even for a card that prints one word. Letters
alone never bounded short faces: 18,003 faces of a name each cost ~67 s to draw and
fitted a few hundred thousand letters (probe 43 P1). With it, a revision draws at most
`preview_limit() // FACE_LETTERS` faces (3,000: ~12 s of short faces), and only those the
page asks for (toolkit.preview.live)."""


def preview_limit() -> int:
    """The letters the faces of one revision of the preview may fit."""
    return textfit.FIT_BUDGET // SHARE


class FitSpent(ValueError):
    """A face asked once the revision's fitting budget is spent: not drawn."""


class FaceBudget(FitBudget):
    """The budgets the preview's faces of one revision of the game share, as a check's
    faces do: the check's fitting budget (`FIT_BUDGET` letters) and layout budget
    (toolkit.render.layout_budget). `validate` stops at them and the game is not built, but
    the preview resolved (probe 40 H2) and fitted (probe 41 H2: 3,003 faces of long texts,
    ~21 s at start) every face past them. Past either, a face is not drawn and says why.
    The fitting budget is a fifth of the check's (`SHARE`): each face fitted is also drawn,
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

    def fit_face(self, job: Any, layout: Any, card: Any) -> None:
        """Resolve and fit the face of `card` once for this revision, counted; raises
        FitSpent once the fitting budget is spent (before resolving: refused cheaply). A
        face with no text to fit (a deck's plain back) is not refused."""
        key = (id(layout), id(job.deck), id(card), job.lang, job.card_mm)
        kept = self.faces.get(key)  # the objects are kept with it: an id is never reused
        if kept is not None and kept[0] is layout and kept[1] is job.deck and kept[2] is card:
            return
        refusals = self.refusals
        fits = _fits(layout)
        if not fits or self.allows():
            self.spent += FACE_LETTERS  # the face's drawing, whatever its texts
            for item in job.resolved(layout, card):
                if fits:
                    item.element.measure(item, job)  # a text's fit, counted (`fitted`)
        if self.refusals != refusals:
            raise FitSpent(
                f"layout {getattr(layout, 'id', '?')!r} is not rendered: the fitting budget"
                f" of the preview ({self.limit:,} letters, a fifth of `validate`'s: each face"
                f" fitted is also drawn, and counts {FACE_LETTERS:,} besides its texts) is"
                " spent; it is drawn when shown after the next save"
            )
        self.faces[key] = (layout, job.deck, card)


def _fits(layout: Any) -> bool:
    """Whether a face of `layout` has texts to fit (an element kind that measures them)."""
    return any(type(e).measure is not Element.measure for e in layout.elements)
