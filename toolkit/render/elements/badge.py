"""`badge`: a short text (a value, points) in bold on a disc. Its text is a template, printed
as words (checked for glyphs and numbers) on one centred line, never wrapped or shrunk: one
wider than the disc is a P001 finding, and is drawn clipped to the disc."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field
from reportlab.lib.units import mm

from toolkit.content.models.base import FontFamily
from toolkit.render.elements.base import Colour, Element, Ink, Paint, Problem, Resolved, colour
from toolkit.render.elements.registry import register_element
from toolkit.render.fonts import font_name, text_width

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.printjob import PrintJob


@register_element
class BadgeElement(Element):
    """A disc with a short text on it."""

    order: ClassVar[int] = 50

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

    def draw(self, c: Canvas, item: Resolved, x: float, y: float, job: PrintJob) -> None:
        w, h = item.w * mm, item.h * mm
        radius = min(w, h) / 2
        c.saveState()
        c.setFillColor(colour(self.fill))
        c.circle(x + w / 2, y + h / 2, radius, stroke=0, fill=1)
        if self._width(item, job) > 2 * radius:  # a P001 finding: kept on its disc
            disc = c.beginPath()
            disc.circle(x + w / 2, y + h / 2, radius)
            c.clipPath(disc, stroke=0, fill=0)
        c.setFillColor(colour(self.colour))
        c.setFont(font_name(self.face(job)), self.size)
        c.drawCentredString(x + w / 2, y + h / 2 - self.size * 0.35, item.text)
        c.restoreState()

    def _width(self, item: Resolved, job: PrintJob) -> float:
        """Its text's width in points, as drawn (one line, no inline icons)."""
        return text_width(item.text, self.size, self.face(job), frozenset())

    def problems(self, item: Resolved, job: PrintJob) -> Iterator[Problem]:
        side = min(item.w, item.h)
        wide = self._width(item, job) / mm if item.text else 0.0
        if wide > side:
            yield Problem(
                "P001",
                f"badge text {item.text!r} is {wide:.1f} mm wide at {self.size:g} pt; its disc"
                f" is {side:.1f} mm across (a badge prints one line: shorten the text or make"
                " the badge or its size fit)",
            )

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
