"""`badge`: a short text (a value, points) in bold on a disc. Its text is a template, printed
as words (checked for glyphs and numbers) on one centred line, never wrapped or shrunk: one
wider than the disc, or a size whose line (the font's ascent to descent) is taller than the
disc, is a P001 finding. A text whose line could reach past the disc is drawn clipped to it,
so a badge never prints off its disc (probe 18 M1: a tall "|" ran off the card)."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field
from reportlab.lib.units import mm

from toolkit.content.models.base import FontFamily
from toolkit.content.templating import INLINE_ICON
from toolkit.render.elements.base import Colour, Element, Ink, Paint, Problem, Resolved, colour
from toolkit.render.elements.registry import register_element
from toolkit.render.fonts import ascent_descent, font_name, text_width

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.printjob import PrintJob


BASELINE = 0.35
"""The text's baseline sits this many times its size below the disc's centre."""


@register_element
class BadgeElement(Element):
    """A disc with a short text on it."""

    order: ClassVar[int] = 50
    most_per_layout: ClassVar[int | None] = 200
    """The bundled layouts hold 1 at most. A rasteriser fills each disc whole on every face:
    1,500 full-card badges cost `export png` ~1.3 s for one face (leg57), as boxes do."""
    most_per_layout_why: ClassVar[str] = "each disc is filled whole on every face"
    draw_cost: ClassVar[int] = 4
    """~34 µs (a disc, its clip, its measured line): 200 badges on each of 1,000 printed
    cards took `build --lang en` 6.9 s more than one text."""

    kind: Literal["badge"]
    text: str = Field(description="Jinja template, e.g. '{{ card.points }}'.")
    fill: Colour = "#222222"
    colour: Colour = "#ffffff"
    size: float = Field(default=10, ge=3, le=72)
    font: FontFamily | None = Field(
        default=None,
        description="Font family (its bold style), as its file names itself: one of the "
        "game's `fonts/`, or `Noto Sans` (default: game.yaml's `style.font`, else Noto Sans).",
        examples=["Noto Sans"],
    )

    templates = ("text",)
    prints = ("text",)

    def font_asked(self) -> tuple[str | None, str]:
        return self.font, "bold"

    def glyphs_drawn(self, item: Resolved, job: PrintJob) -> list[tuple[str, float, str]]:
        return [(font_name(self.face(job)), self.size, item.text)] if item.text else []

    def draw(self, c: Canvas, item: Resolved, x: float, y: float, job: PrintJob) -> None:
        w, h = item.w * mm, item.h * mm
        radius = min(w, h) / 2
        c.saveState()
        c.setFillColor(colour(self.fill))
        c.circle(x + w / 2, y + h / 2, radius, stroke=0, fill=1)
        if self._reach(item, job) > radius:  # kept on its disc
            disc = c.beginPath()
            disc.circle(x + w / 2, y + h / 2, radius)
            c.clipPath(disc, stroke=0, fill=0)
        c.setFillColor(colour(self.colour))
        c.setFont(font_name(self.face(job)), self.size)
        c.drawCentredString(x + w / 2, y + h / 2 - self.size * BASELINE, item.text)
        c.restoreState()

    def _width(self, item: Resolved, job: PrintJob) -> float:
        """Its text's width in points, as drawn (one line, no inline icons)."""
        return text_width(item.text, self.size, self.face(job), frozenset())

    def _reach(self, item: Resolved, job: PrintJob) -> float:
        """How far from the disc's centre its text's line may reach, in points: the farthest
        corner of its width by the font's ascent to descent, placed where it is drawn (a
        text within the disc is drawn without a clip, as it always was)."""
        ascent, descent = ascent_descent(self.size, self.face(job))
        up, down = ascent - self.size * BASELINE, self.size * BASELINE - descent
        return float(math.hypot(self._width(item, job) / 2, max(up, down)))

    def problems(self, item: Resolved, job: PrintJob) -> Iterator[Problem]:
        if not item.text:
            return
        unprinted = sorted({c for c in item.text if unicodedata.category(c).startswith("C")})
        if unprinted:  # a line break drew a box (.notdef) on the disc
            shown = ", ".join(f"U+{ord(c):04X}" for c in unprinted)
            yield Problem(
                "P001",
                f"badge text {item.text!r} holds {shown} (a line break or a control"
                " character), which prints as a box: a badge prints one line",
                once=("badge-break", self.text),
                in_layout=("text",),
            )
        icons = sorted({m.group(1) for m in INLINE_ICON.finditer(item.text)})
        if icons:  # drawn as plain words: even an icon the game has
            names = ", ".join(f":{name}:" for name in icons)
            yield Problem(
                "P007",
                f"badge text {item.text!r} writes {names}, but a badge prints no inline"
                " icons: it prints as written (use an icon element)",
                once=("badge-icons", self.text),
                in_layout=("text",),
            )
        side = min(item.w, item.h)
        wide = self._width(item, job) / mm
        if wide > side:
            yield Problem(
                "P001",
                f"badge text {item.text!r} is {wide:.1f} mm wide at {self.size:g} pt; its disc"
                f" is {side:.1f} mm across (a badge prints one line: shorten the text or make"
                " the badge or its size fit)",
            )
        ascent, descent = ascent_descent(self.size, self.face(job))
        tall = (ascent - descent) / mm
        if tall > side:  # the same for every text: the layout's size is at fault
            yield Problem(
                "P001",
                f"badge text is {tall:.1f} mm tall at {self.size:g} pt (the font's ascent to"
                f" descent); its disc is {side:.1f} mm across (make the size smaller or the"
                " badge bigger)",
                once=("badge-tall", self.size, side, self.face(job)),
                in_layout=("size",) if "size" in self.model_fields_set else ("box",),
            )

    def paint_cost(self, w_mm: float, h_mm: float, dpi: float) -> float:
        """Its disc (a circle inscribed in its box: ~1.3 times a box's fill a pixel, so the
        square around it) and its one line of text."""
        from toolkit.render.raster_weight import ELEMENT, filled

        side = min(w_mm, h_mm)
        return 2 * ELEMENT + filled(side, side, dpi)

    def _disc(self, item: Resolved) -> tuple[float, float, float, float]:
        """The disc's square (x, y, side) in mm, centred in the box."""
        side = min(item.w, item.h)
        return item.x + (item.w - side) / 2, item.y + (item.h - side) / 2, side, side

    def paints(self, item: Resolved, job: PrintJob) -> Iterator[Paint]:
        yield Paint(self.fill, *self._disc(item), round=True)

    def inks(self, item: Resolved, job: PrintJob) -> Iterator[Ink]:
        if item.text:  # its one line, in the middle half of the disc
            x, y, side, _ = self._disc(item)
            yield Ink(self.colour, x + side / 4, y + side / 4, side / 2, side / 2, self.size, True)
