"""Card sheets: as many cards as fit with their bleed, crop marks in the margins only, and
after every fronts page a backs page mirrored for long-edge duplex, so fronts and backs
register when printed double-sided. The press profile writes one card per page instead, with
TrimBox and BleedBox set for print services.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.render.cardface import card_form, draw_face, draw_underlay
from toolkit.render.layout import Layout, LayoutError
from toolkit.render.printjob import BLEED_MM, PrintJob

__all__ = ["BLEED_MM", "PrintJob", "SheetError", "draw_deck", "draw_deck_per_card", "geometry"]

MARGIN_MM = 5.0
MARK_GAP_MM = 1.0  # crop marks start this far outside the bleed
MARK_LEN_MM = 4.0


class SheetError(ValueError):
    """A card that cannot fit on the paper at all."""


@dataclass(frozen=True)
class Geometry:
    """Where cards go on a page (points; origin bottom-left, as reportlab draws).

    Cards either each keep their own bleed (a gutter of twice the bleed between them) or,
    when that would fit fewer cards, sit edge to edge sharing cut lines, with the bleed
    around the outside of the grid only (3×3 poker cards on A4, as print-and-play expects).
    """

    page_w: float
    page_h: float
    card_w: float  # trim size
    card_h: float
    bleed: float
    gutter: float  # space between two cards' trims: 2 × bleed or 0
    cols: int
    rows: int
    left: float  # x of the first column's trim
    bottom: float  # y of the lowest row's trim
    turned: bool = False  # cards lie sideways: card_w and card_h are their size on the page

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def trim_origin(self, col: int, row: int) -> tuple[float, float]:
        """Lower-left corner of the trim of the card at (col, row); row 0 is the top row."""
        x = self.left + col * (self.card_w + self.gutter)
        y = self.bottom + (self.rows - 1 - row) * (self.card_h + self.gutter)
        return x, y

    @property
    def grid(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of everything printed, bleed included."""
        right = self.left + self.cols * self.card_w + (self.cols - 1) * self.gutter
        top = self.bottom + self.rows * self.card_h + (self.rows - 1) * self.gutter
        return (
            self.left - self.bleed,
            self.bottom - self.bleed,
            right + self.bleed,
            top + self.bleed,
        )


def _count(space: float, card: float, gutter: float, bleed: float) -> int:
    return max(0, int((space - 2 * bleed + gutter) // (card + gutter)))


def geometry(page: tuple[float, float], card_mm: tuple[float, float]) -> Geometry:
    """The layout that fits most cards: each with its own bleed or sharing cut lines, upright
    or, only when that fits more (poker cards on US Letter: 8 instead of 6), sideways."""
    page_w, page_h = page
    bleed, margin = BLEED_MM * mm, MARGIN_MM * mm
    space_w, space_h = page_w - 2 * margin, page_h - 2 * margin
    best: dict[bool, tuple[int, float]] = {}
    for turned in (False, True):
        card_w, card_h = (card_mm[1], card_mm[0]) if turned else card_mm
        for gutter in (2 * bleed, 0.0):
            cols = _count(space_w, card_w * mm, gutter, bleed)
            rows = _count(space_h, card_h * mm, gutter, bleed)
            if turned not in best or cols * rows > best[turned][0]:
                best[turned] = (cols * rows, gutter)
    # Sideways cards are harder to check while cutting: only when they save a fifth of the
    # pages or more (poker on Letter: 8 a page instead of 6; mini on A4 stays upright).
    turned = best[True][0] * 0.8 >= best[False][0] > 0 or best[False][0] == 0
    gutter = best[turned][1]
    card_w, card_h = (card_mm[1], card_mm[0]) if turned else card_mm
    card_w, card_h = card_w * mm, card_h * mm
    cols = _count(space_w, card_w, gutter, bleed)
    rows = _count(space_h, card_h, gutter, bleed)
    if cols < 1 or rows < 1:
        raise SheetError(
            f"a {card_mm[0]:g}×{card_mm[1]:g} mm card with bleed does not fit on this paper"
        )
    used_w = cols * card_w + (cols - 1) * gutter
    used_h = rows * card_h + (rows - 1) * gutter
    left = (page_w - used_w) / 2
    bottom = (page_h - used_h) / 2
    return Geometry(page_w, page_h, card_w, card_h, bleed, gutter, cols, rows, left, bottom, turned)


@contextmanager
def _slot_frame(
    c: Canvas, geo: Geometry, x: float, y: float, back: bool
) -> Iterator[tuple[float, float]]:
    """Where to draw the card whose slot's trim starts at (x, y): there, or, for a card that
    lies sideways, at (0, 0) of a turned frame. Fronts turn a quarter left (their top to the
    left edge), backs a quarter right, so after a long-edge flip each back's top lies under
    its front's top."""
    if not geo.turned:
        yield x, y
        return
    c.saveState()
    if back:
        c.translate(x, y + geo.card_h)
        c.rotate(-90)
    else:
        c.translate(x + geo.card_w, y)
        c.rotate(90)
    try:
        yield 0.0, 0.0
    finally:
        c.restoreState()


def _place(geo: Geometry, index: int, back: bool) -> tuple[int, int]:
    """(col, row) of the index-th card of a page; backs mirror left and right, so a
    long-edge duplex flip puts each back behind its front."""
    col, row = index % geo.cols, index // geo.cols
    return (geo.cols - 1 - col if back else col), row


@contextmanager
def _bleed_clip(
    c: Canvas, geo: Geometry, col: int, row: int, taken: set[tuple[int, int]]
) -> Iterator[None]:
    """Cards that share cut lines (no gutter) keep their bleed only where no card is next to
    them: each card's bleed would otherwise paint over the last few millimetres of its
    neighbour (its frame, its text margin). With a gutter every card keeps all its bleed."""
    if geo.gutter:
        yield
        return
    x, y = geo.trim_origin(col, row)
    bleed = geo.bleed
    left = x - (bleed if (col - 1, row) not in taken else 0.0)
    right = x + geo.card_w + (bleed if (col + 1, row) not in taken else 0.0)
    bottom = y - (bleed if (col, row + 1) not in taken else 0.0)
    top = y + geo.card_h + (bleed if (col, row - 1) not in taken else 0.0)
    c.saveState()
    path = c.beginPath()
    path.rect(left, bottom, right - left, top - bottom)
    c.clipPath(path, stroke=0, fill=0)
    try:
        yield
    finally:
        c.restoreState()


def draw_crop_marks(c: Canvas, geo: Geometry) -> None:
    """Short lines on every trim line, in the page margins only (never across a card).

    Every page of a file has the same marks: the operators the first page's marks wrote are
    kept with the canvas, by geometry, and later pages write them again as they are (they
    set and restore their own state; ~50 µs a page of arithmetic and number formatting)."""
    if not isinstance(c, Canvas):  # something that draws like one (a recorder): as ever
        c.saveState()
        _crop_marks(c, geo)
        c.restoreState()
        return
    kept: dict[Geometry, list[str]] = c.__dict__.setdefault("_playset_crop_marks", {})
    code: list[str] = c._code  # type: ignore[attr-defined]
    ops = kept.get(geo)
    c.saveState()
    if ops is not None:
        code.extend(ops)
    else:
        start = len(code)
        _crop_marks(c, geo)
        kept[geo] = code[start:]
    c.restoreState()


def _crop_marks(c: Canvas, geo: Geometry) -> None:
    gap, length = MARK_GAP_MM * mm, MARK_LEN_MM * mm
    grid_left, grid_bottom, grid_right, grid_top = geo.grid
    c.setLineWidth(0.25)
    c.setStrokeColorRGB(0, 0, 0)
    xs = sorted(
        {
            round(geo.trim_origin(col, 0)[0] + dx, 3)
            for col in range(geo.cols)
            for dx in (0, geo.card_w)
        }
    )
    ys = sorted(
        {
            round(geo.trim_origin(0, row)[1] + dy, 3)
            for row in range(geo.rows)
            for dy in (0, geo.card_h)
        }
    )
    top_end = min(geo.page_h, grid_top + gap + length)
    bottom_end = max(0.0, grid_bottom - gap - length)
    for x in xs:
        c.line(x, grid_top + gap, x, top_end)
        c.line(x, grid_bottom - gap, x, bottom_end)
    right_end = min(geo.page_w, grid_right + gap + length)
    left_end = max(0.0, grid_left - gap - length)
    for y in ys:
        c.line(grid_right + gap, y, right_end, y)
        c.line(grid_left - gap, y, left_end, y)


@dataclass(frozen=True)
class CardSlot:
    """One physical card: which deck card, which copy."""

    card: Any
    copy: int


def expand(cards: Sequence[Any]) -> list[CardSlot]:
    """Every physical card in a stable order: card order in the file, then copy number."""
    return [CardSlot(card, i) for card in cards for i in range(getattr(card, "copies", 1))]


def pages(slots: Sequence[CardSlot], per_page: int) -> Iterator[Sequence[CardSlot]]:
    for start in range(0, len(slots), per_page):
        yield slots[start : start + per_page]


@contextmanager
def _naming(card: Any, lang: str) -> Iterator[None]:
    """A layout failure becomes a SheetError that names the card and the language."""
    try:
        yield
    except LayoutError as exc:
        raise SheetError(f"{exc} (card {card.id}, {lang})") from exc


def draw_deck(c: Canvas, job: PrintJob) -> int:
    """Fronts and mirrored backs pages for the job's deck on its paper; returns the number of
    pages drawn.

    With the job's `back_per_card` each back shows its own card (questions' answers); otherwise
    all backs are the deck's back. Its `back_offset` (mm, right and up on the backs page)
    moves everything on backs pages, to undo a printer's measured duplex shift."""
    if job.paper is None:
        raise ValueError("a sheet needs the job's paper size")
    front, back = job.faces()
    page, deck, lang = job.paper, job.deck, job.lang
    geo = geometry(page, job.card_mm)
    count = 0
    underlay = draw_underlay(c, f"front-{deck.id}", job, front)
    shared_back = None
    if not job.back_per_card:
        with _naming(deck.cards[0], lang):
            shared_back = _face_form(c, f"back-{deck.id}", job, back, deck.cards[0])
    copied = _copy_forms(c, job, underlay)
    offset = job.back_offset
    for index, chunk in enumerate(pages(expand(deck.cards), geo.per_page)):
        for side in ("front", "back"):
            c.setPageSize(page)
            shifted = side == "back" and offset != (0.0, 0.0)
            if shifted:
                c.saveState()
                c.translate(offset[0] * mm, offset[1] * mm)
            places = [_place(geo, i, back=side == "back") for i in range(len(chunk))]
            taken = set(places)
            for slot, (col, row) in zip(chunk, places, strict=True):
                x, y = geo.trim_origin(col, row)
                with (
                    _bleed_clip(c, geo, col, row, taken),
                    _slot_frame(c, geo, x, y, back=side == "back") as at,
                ):
                    if side == "front":
                        _draw_front(c, job, slot, at, underlay, copied.get(id(slot.card)))
                    else:
                        _draw_back(c, job, slot, at, shared_back)
            draw_crop_marks(c, geo)
            _footer(c, geo, f"{job.footer} · {deck.id} · {index + 1} · {side}", job)
            if shifted:
                c.restoreState()
            c.showPage()
            count += 1
    return count


def _draw_front(
    c: Canvas,
    job: PrintJob,
    slot: CardSlot,
    at: tuple[float, float],
    underlay: str,
    form: str | None = None,
) -> None:
    """A card's front with its trim's lower-left corner at `at`, over the deck's underlay:
    drawn, or its form (`_copy_forms`) placed."""
    if form is not None:
        _place_form(c, job, at, form)
        return
    with _naming(slot.card, job.lang):
        draw_face(c, job, job.front, slot.card, at, underlay)


def _copy_forms(c: Canvas, job: PrintJob, underlay: str) -> dict[int, str]:
    """Each card of the deck printed more than once drawn once, as a PDF form its copies
    place (by the card's id): a copy costs a reference, not its elements again (probe 50
    P50-3: 400 elements on 1,000 copies took 14 s and a 40 MB PDF a language)."""
    if not isinstance(c, Canvas):  # something that draws like one (a recorder): as ever
        return {}
    forms: dict[int, str] = {}
    for index, card in enumerate(job.deck.cards):
        if getattr(card, "copies", 1) > 1:
            name = f"card-{job.deck.id}-{index}"
            with _naming(card, job.lang):
                _face_form(c, name, job, job.front, card, underlay)
            forms[id(card)] = name
    return forms


def _place_form(c: Canvas, job: PrintJob, at: tuple[float, float], form: str) -> None:
    """A card-sized form (`card_form`) with its trim's lower-left corner at `at`."""
    bleed = job.bleed_mm * mm
    c.saveState()
    c.translate(at[0] - bleed, at[1] - bleed)
    c.doForm(form)
    c.restoreState()


def _draw_back(
    c: Canvas, job: PrintJob, slot: CardSlot, at: tuple[float, float], shared: str | None
) -> None:
    """A card's back at `at`: the deck's shared back form, or (None) its own back."""
    if shared:
        _place_form(c, job, at, shared)
    else:
        _, back = job.faces()
        with _naming(slot.card, job.lang):
            draw_face(c, job, back, slot.card, at)


def _face_form(
    c: Canvas, name: str, job: PrintJob, layout: Layout, card: Any, underlay: str | None = None
) -> str:
    """Draw a face once as a PDF form (XObject) that pages place by reference: a deck's
    backs are all alike, so the file holds one back, not one per card."""
    bleed = job.bleed_mm * mm
    with card_form(c, name, job):
        draw_face(c, job, layout, card, (bleed, bleed), underlay)
    return name


def _footer(c: Canvas, geo: Geometry, text: str, job: PrintJob) -> None:
    """The sheet's label (game, deck, page, side), in the game's font: its title may be in
    any script."""
    from toolkit.render.fonts import font_name

    c.saveState()
    c.setFont(font_name(job.fonts.face(None)), 6)
    c.setFillColorRGB(0.45, 0.45, 0.45)
    c.drawCentredString(geo.page_w / 2, 2.2 * mm, text)
    c.restoreState()


def draw_deck_per_card(c: Canvas, job: PrintJob, each_once: bool = False) -> int:
    """Press profile: one page per card face, page = trim + bleed, TrimBox and BleedBox set.
    The job's `back_offset` (mm) moves each back's drawing, as on sheets, for duplex at home.
    With `each_once` (card images), each card once, not once per copy, and a back shared by
    the deck only after the first card: the same pages, none twice."""
    front, back = job.faces()
    first = job.deck.cards[0]
    slots = [CardSlot(card, 0) for card in job.deck.cards] if each_once else expand(job.deck.cards)
    count = 0
    for slot in slots:
        draw_face_page(c, job, front, slot.card)
        count += 1
        if each_once and not job.back_per_card and slot.card is not first:
            continue
        draw_face_page(c, job, back, slot.card if job.back_per_card else first, job.back_offset)
        count += 1
    return count


def draw_face_page(
    c: Canvas,
    job: PrintJob,
    layout: Layout,
    card: Any,
    shift: tuple[float, float] = (0.0, 0.0),
) -> None:
    """One card face on a page of its own (trim + bleed, TrimBox and BleedBox set): the press
    profile's page, and the page the live preview rasterises, so both show what prints.
    `shift` (mm) moves the drawing on the page (a back's duplex offset)."""
    bleed = job.bleed_mm * mm
    w, h = job.card_mm[0] * mm, job.card_mm[1] * mm
    page = (w + 2 * bleed, h + 2 * bleed)
    c.setPageSize(page)
    c.setBleedBox((0, 0, page[0], page[1]))
    c.setTrimBox((bleed, bleed, bleed + w, bleed + h))
    with _naming(card, job.lang):
        draw_face(c, job, layout, card, (bleed + shift[0] * mm, bleed + shift[1] * mm))
    c.showPage()
