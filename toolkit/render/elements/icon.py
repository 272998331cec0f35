"""`icon`: one icon (built-in, or the game's own SVG) centred in its box. The icon's name is a
template; a name the game has no icon for is a P003 finding (it would print nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field
from reportlab.lib.units import mm

from toolkit.render.elements.base import Colour, Element, Problem, Resolved
from toolkit.render.elements.registry import register_element
from toolkit.render.icons import draw_icon, listed
from toolkit.render.jinja_cache import template_code

ICONS_LISTED = "icons: "
"""Where the message lists the game's icons (its 'did you mean' goes before)."""

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.printjob import PrintJob


@register_element
class IconElement(Element):
    """An icon by name."""

    order: ClassVar[int] = 30
    most_per_layout: ClassVar[int | None] = 32  # the bundled layouts hold 6 at most
    draw_cost: ClassVar[int] = 2
    """~17 µs: an icon is drawn once into a form that each element places (32 icons on each
    of 1,000 printed cards: 0.55 s more than one text)."""

    kind: Literal["icon"]
    icon: str = Field(description="Icon name or Jinja template giving one.")
    colour: Colour = "#222222"

    templates = ("icon",)

    def icons_drawn(self, item: Resolved, names: frozenset[str]) -> list[tuple[str, float]]:
        side = min(item.w, item.h) * mm
        return [(item.text, side)] if item.text in names and side > 0 else []

    def draw(self, c: Canvas, item: Resolved, x: float, y: float, job: PrintJob) -> None:
        w, h = item.w * mm, item.h * mm
        size = min(w, h)
        if size <= 0:
            return  # a box of no size (P003 in validate)
        left, bottom = x + (w - size) / 2, y + (h - size) / 2
        draw_icon(c, item.text, left, bottom, size, self.colour, job.icons)

    def problems(self, item: Resolved, job: PrintJob) -> Iterator[Problem]:
        if min(item.w, item.h) <= 0:
            message = (
                f"draws its icon in a box of {item.w:g} × {item.h:g} mm on this card, so prints"
                " nothing: a negative w or h counts from the card's right or bottom edge, so it"
                " must end past x or y"
            )
            yield Problem("P003", message, once=("icon box", id(self)), in_layout=("box",))
            return
        icons = job.icons
        if item.text in icons.names or item.text in icons.broken:
            return  # a broken SVG is one finding, at the file (P008)
        # no 'did you mean' here: print-fit adds it to the one finding it says, not to each
        # card's (toolkit.checks.printfit `_Once.said`)
        message = f"asks for icon {item.text!r}, which does not exist; {ICONS_LISTED}"
        literal = not template_code(self.icon)
        yield Problem(
            "P003",
            message + listed(icons.names),
            once=("icon", item.text),
            in_layout=("icon",) if literal else None,
        )
