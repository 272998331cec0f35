"""What every layout element kind shares: its box, its `when`, and the four things a kind
says about itself (which fields are templates, how it draws, how it is measured for fit, what
`validate` should report about it).

A kind is a pydantic model with `kind: Literal["name"]` that subclasses `Element`; it is
registered in `toolkit.render.elements.registry`, and the `Layout` model accepts it from then on.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import Field

from toolkit.content.models.base import StrictModel

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.printjob import PrintJob
    from toolkit.render.textfit import Fit

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$|^[a-z_]+$")]


@cache
def colour(value: str) -> Any:
    """A layout colour as reportlab takes it: `#rrggbb`, or a named colour as written."""
    from reportlab.lib.colors import HexColor

    return HexColor(value) if value.startswith("#") else value


class Box(StrictModel):
    x: float = Field(ge=-500, le=500)
    y: float = Field(ge=-500, le=500)
    w: float = Field(ge=-500, le=500)
    h: float = Field(ge=-500, le=500)

    def resolve(self, width: float, height: float) -> tuple[float, float, float, float]:
        """(x, y, w, h) in mm from the top-left of a card of that trim size; a size that
        counts from an edge the box starts past is 0, not negative (an icon in a box of
        -61 mm was drawn mirrored, whole, and cancelled the price of the others: probe 60-12)."""
        x = self.x if self.x >= 0 else width + self.x
        y = self.y if self.y >= 0 else height + self.y
        w = self.w if self.w > 0 else max(0.0, width + self.w - x)
        h = self.h if self.h > 0 else max(0.0, height + self.h - y)
        return x, y, w, h


class LayoutError(ValueError):
    """A layout's template fails for a card: a syntax error, an unknown name, a bad value.
    `where` is the failing template's place in the layout's YAML when it is known
    (`("elements", 3, "text")`, `("let", "cost")`): the finding is shown there."""

    def __init__(self, message: str, where: tuple[str | int, ...] | None = None) -> None:
        super().__init__(message)
        self.where = where


@dataclass(frozen=True)
class Resolved:
    """An element with its box in mm and its templates rendered for one card and language
    (`values`, in the order of the kind's `templates`)."""

    element: Any
    x: float
    y: float
    w: float
    h: float
    values: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The first template's value ("" for a kind without templates)."""
        return self.values[0] if self.values else ""

    def value(self, field: str) -> str:
        """The rendered value of one of the kind's template fields."""
        return self.values[type(self.element).templates.index(field)]


@dataclass(frozen=True)
class Measure:
    """How a measured element's text fits its box at the sizes it allows."""

    fit: Fit
    source: str  # the template measured: which card field a P001 points at
    min_size: float  # points


@dataclass(frozen=True)
class Paint:
    """A colour an element lays down (a box's fill, a badge's disc, an image's average), for the
    legibility checks to find what lies under a text. `field` is the element's field that sets
    it; `round` marks an ellipse inscribed in the box."""

    colour: str
    x: float
    y: float
    w: float
    h: float
    field: str = "fill"
    round: bool = False

    def covers(self, px: float, py: float) -> bool:
        if self.round:
            rx, ry = self.w / 2, self.h / 2
            if rx <= 0 or ry <= 0:
                return False
            dx, dy = (px - self.x - rx) / rx, (py - self.y - ry) / ry
            return dx * dx + dy * dy <= 1
        return self.x <= px <= self.x + self.w and self.y <= py <= self.y + self.h


@dataclass(frozen=True)
class Ink:
    """Words an element prints, as the legibility checks read them: their colour, the area
    they print in (mm), the size they print at on this card (points, after fitting) and
    whether the face is bold. `colour_field` is the element's field that sets the colour."""

    colour: str
    x: float
    y: float
    w: float
    h: float
    size: float
    bold: bool
    colour_field: str = "colour"


@dataclass(frozen=True)
class Problem:
    """Something `validate` reports about one element on one card: a P rule's code, the
    message's end (the check puts the layout, card and language before it), the card field it
    points at, and a key under which it is reported only once per layout (None: every time)."""

    code: str
    message: str
    field: tuple[str | int, ...] = ("id",)
    once: Hashable | None = None
    in_layout: tuple[str | int, ...] | None = None
    """The element's own field at fault when the layout itself is wrong (a literal icon
    name that does not exist): reported once at the layout's line, not at a card."""


class Element(StrictModel):
    """Fields every element has. A kind adds `kind: Literal[...]` and its options."""

    box: Box
    when: str | None = Field(default=None, description="Jinja test; the element shows if true.")

    templates: ClassVar[tuple[str, ...]] = ()
    """Its fields that are Jinja templates, rendered for each card (what it reads)."""
    prints: ClassVar[tuple[str, ...]] = ()
    """Of those, the ones printed as words: checked for glyphs (P002) and numbers (P006)."""
    constant: ClassVar[bool] = False
    """It draws the same on every card (without `when`): drawn once into the deck's underlay."""
    order: ClassVar[int] = 100
    """Where the kind is listed among the others (lower first; the built-ins' order)."""

    def icons_drawn(self, item: Resolved, names: frozenset[str]) -> list[tuple[str, float]]:
        """The icons (of `names`, the game's) it draws on a face, each with the side of its
        box in points (at most): they count against `icons.MAX_FACE_ICON_WEIGHT` and
        `icons.MAX_FACE_ICON_PAINT` (P018)."""
        return []

    def glyphs_drawn(self, item: Resolved, job: PrintJob) -> list[tuple[str, float, str]]:
        """The lines of text it draws on a face, each as its font (reportlab's name), size
        (points) and characters: a rasteriser walks each glyph's outline once for each size a
        document prints it at (`glyph_weight.glyph_load`)."""
        return []

    def pictures_drawn(self, item: Resolved, job: PrintJob) -> int:
        """The pixels of the pictures it draws on a face: they count against
        `pictures.MAX_FACE_PIXELS` (P004), and past it are not drawn
        (`pictures.face_allows`)."""
        return 0

    draws_inline_icons: ClassVar[bool] = False
    """It draws each `:name:` of its text the game has an icon for as that icon: a face's
    such icons count against `icons.MAX_FACE_INLINE_ICONS` (P018), and past it are not drawn
    (`icons.inline_allowed`)."""
    most_per_layout: ClassVar[int | None] = None
    """Elements of the kind one layout may hold (None: no bound of its own). A kind whose
    every element draws a whole file (an icon's SVG, a picture) costs the rasteriser that
    file again at each one: 2,000 icon elements naming one icon of 1,990 circles took
    `export png` 17.5 s for one card, 2,000 of one picture 37 s (probe 46 K3, K4)."""
    most_per_layout_why: ClassVar[str] = "each draws its file whole on every face"
    """Why the kind is bounded, as S004 says it past `most_per_layout`."""
    draw_cost: ClassVar[int] = 32
    """What `build` spends drawing one element of the kind on one printed face, in units of
    ~10 µs of CPU: every copy of a card is drawn again in each language, and what a game's
    printed faces weigh together is bounded (toolkit.render.drawn_weight). A kind of a
    plugin counts as an image (the costliest built-in) unless it says otherwise."""

    def drawn_cost(self, item: Resolved) -> int:
        """What drawing it on one face weighs as resolved there (`draw_cost`, by default): a
        kind whose cost follows what it prints says so."""
        return type(self).draw_cost

    def most_drawn_cost(self, card_mm: tuple[float, float]) -> int:
        """What drawing it on a face of that trim size (mm) may weigh at most, whatever the
        card (`drawn_cost` of its fullest face; `draw_cost` by default)."""
        return type(self).draw_cost

    def paint_cost(self, w_mm: float, h_mm: float, dpi: float) -> float:
        """What rasterising it in a box of w × h mm at `dpi` may cost, in image pixels drawn
        and encoded (toolkit.render.raster_weight): by default as if it filled its box (a
        picture, an icon, a text's box), a kind that paints otherwise says so."""
        from toolkit.render.raster_weight import ELEMENT, filled  # a picture's price only

        return ELEMENT + filled(w_mm, h_mm, dpi)

    def font_asked(self) -> tuple[str | None, str] | None:
        """(family, style) its `prints` fields print in (family None: the game's main
        family), or None for a kind that prints no words."""
        return (None, "regular") if type(self).prints else None

    def letters(self, text: str, icons: frozenset[str]) -> str:
        """What `text`, one of its `prints` fields as rendered, prints as letters: what the
        glyph (P002) and direction (P017) checks search. As it is by default; a kind that
        draws inline icons (`:die:`, one of `icons`) leaves those out."""
        return text

    def face(self, job: PrintJob) -> str:
        """The face (toolkit.render.fonts) its words print in for this job's game."""
        family, style = self.font_asked() or (None, "regular")
        return job.fonts.face(family, style)

    def draw(self, c: Canvas, item: Resolved, x: float, y: float, job: PrintJob) -> None:
        """Draw on the canvas with the box's lower-left corner at (x, y) points."""
        raise NotImplementedError

    def measure(self, item: Resolved, job: PrintJob) -> Measure | None:
        """How its text fits, checked in every language (None: not measured for fit)."""
        return None

    def problems(self, item: Resolved, job: PrintJob) -> Iterator[Problem]:
        """What `validate` should report about it on this card, besides fit."""
        return iter(())

    def paints(self, item: Resolved, job: PrintJob) -> Iterator[Paint]:
        """The colours it lays down under what is drawn after it (none by default)."""
        return iter(())

    def inks(self, item: Resolved, job: PrintJob) -> Iterator[Ink]:
        """The words it prints, with colour and printed size (none by default)."""
        return iter(())

    def capacity(self, item: Resolved) -> int | None:
        """About how many characters its box holds at its smallest size (None: no text box),
        for translators' PO comments."""
        return None
