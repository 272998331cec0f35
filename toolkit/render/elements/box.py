"""`box`: a filled and/or stroked rectangle, square or rounded. It reads no template, so a box
without `when` is the same on every card and goes into the deck's underlay."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field
from reportlab.lib.units import mm

from toolkit.render.elements.base import Colour, Element, Paint, Resolved, colour
from toolkit.render.elements.registry import register_element

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.printjob import PrintJob


@register_element
class BoxElement(Element):
    """A rectangle: background bands, frames, separators."""

    order: ClassVar[int] = 10
    most_per_layout: ClassVar[int | None] = 200
    """The bundled layouts hold 9 at most. A rasteriser fills each whole on every face: 8,000
    full-card boxes took `export png` 10.7 s for one card (probe 47 K10); 200 full-card boxes
    with a 10 mm stroke and 44 mm corners cost one face ~0.35 s."""
    most_per_layout_why: ClassVar[str] = "each is filled whole on every face"
    draw_cost: ClassVar[int] = 2
    """~20 µs: 200 boxes with fill, stroke and corners on each of 1,000 printed cards took
    `build --lang en` 4.1 s more than one text."""

    kind: Literal["box"]
    fill: Colour | None = None
    stroke: Colour | None = None
    stroke_mm: float = Field(default=0.3, ge=0, le=10)
    radius_mm: float = Field(default=0, ge=0, le=50)

    constant = True

    def draw(self, c: Canvas, item: Resolved, x: float, y: float, job: PrintJob) -> None:
        c.saveState()
        c.setLineWidth(self.stroke_mm * mm)
        if self.fill:
            c.setFillColor(colour(self.fill))
        if self.stroke:
            c.setStrokeColor(colour(self.stroke))
        c.roundRect(
            x,
            y,
            item.w * mm,
            item.h * mm,
            self.radius_mm * mm,
            stroke=1 if self.stroke else 0,
            fill=1 if self.fill else 0,
        )
        c.restoreState()

    def paint_cost(self, w_mm: float, h_mm: float, dpi: float) -> float:
        """Its fill's area and its stroke's outline (round corners cost more to stroke)."""
        from toolkit.render.raster_weight import ELEMENT, filled, stroked

        cost = ELEMENT + (filled(w_mm, h_mm, dpi) if self.fill else 0.0)
        if self.stroke:
            cost += stroked(w_mm, h_mm, self.stroke_mm, self.radius_mm > 0, dpi)
        return cost

    def paints(self, item: Resolved, job: PrintJob) -> Iterator[Paint]:
        if self.fill:
            yield Paint(self.fill, item.x, item.y, item.w, item.h)
