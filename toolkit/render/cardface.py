"""Draw one card face (front or back) from its layout at a place on a page.

Each element draws itself (its kind's `draw`, toolkit.render.elements) with the print job:
the game's icons, the language, the game folder. Text is drawn line by line from the same fit
the P checks use, so what `validate` accepts is what prints.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.registry import same_folder
from toolkit.render import pictures
from toolkit.render.elements import REGISTRY, Element, Resolved, colour
from toolkit.render.elements.registry import kind_of
from toolkit.render.icons import one_face
from toolkit.render.layout import Layout
from toolkit.render.printjob import PrintJob


def draw_face(
    c: Canvas,
    job: PrintJob,
    layout: Layout,
    card: Any,
    at: tuple[float, float],
    underlay: str | None = None,
) -> None:
    """Draw `card` with `layout` (the job's front or back) with its trim's lower-left corner
    at `at` (points).

    `underlay` names a form made by `draw_underlay` for this layout and job: it stands for
    the background and the layout's leading constant elements, drawn once per deck."""
    with one_face(c), pictures.one_face(c):
        _draw_face(c, job, layout, card, at, underlay)


def _draw_face(
    c: Canvas,
    job: PrintJob,
    layout: Layout,
    card: Any,
    at: tuple[float, float],
    underlay: str | None,
) -> None:
    x, y = at
    width_mm, height_mm = job.card_mm
    w, h = width_mm * mm, height_mm * mm
    b = job.bleed_mm * mm
    c.saveState()
    skip = 0
    if underlay:
        c.saveState()
        c.translate(x - b, y - b)
        c.doForm(underlay)
        c.restoreState()
        skip = fixed_lead(layout)
    else:
        c.setFillColor(colour(layout.background))
        c.rect(x - b, y - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
    top = y + h
    fixed = layout.elements[:skip]
    for item in job.resolved(layout, card):
        element = item.element
        if any(element is done for done in fixed):
            continue
        draw(element, c, item, (x + item.x * mm, top - (item.y + item.h) * mm), job)
    c.restoreState()


def fixed_lead(layout: Layout) -> int:
    """How many of the layout's first elements look the same on every card (constant kinds
    without `when`)."""
    count = 0
    for element in layout.elements:
        if not type(element).constant or element.when:
            break
        count += 1
    return count


@contextmanager
def card_form(c: Canvas, name: str, job: PrintJob) -> Iterator[None]:
    """Draw into a PDF form (XObject) the size of one of the job's cards with its bleed,
    origin at the bleed's lower-left corner; pages then place it by reference."""
    width_mm, height_mm = job.card_mm
    w, h, b = width_mm * mm, height_mm * mm, job.bleed_mm * mm
    # The box reaches 1 pt past the bleed: a form clipped right at its painted edge shows a
    # light seam where two cards meet in screen viewers.
    c.beginForm(name, -1, -1, w + 2 * b + 1, h + 2 * b + 1)
    yield
    c.endForm()


def draw_underlay(c: Canvas, name: str, job: PrintJob, layout: Layout) -> str:
    """The background and leading constant elements of a layout as one PDF form, drawn once
    and placed under every card of a deck (a smaller file, and less to write per card)."""
    width_mm, height_mm = job.card_mm
    w, h, b = width_mm * mm, height_mm * mm, job.bleed_mm * mm
    with card_form(c, name, job), one_face(c), pictures.one_face(c):
        c.setFillColor(colour(layout.background))
        c.rect(0, 0, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        top = b + h
        for element in layout.elements[: fixed_lead(layout)]:
            ex, ey, ew, eh = element.box.resolve(width_mm, height_mm)
            item = Resolved(element, ex, ey, ew, eh)
            draw(element, c, item, (b + ex * mm, top - (ey + eh) * mm), job)
    return name


def draw(
    element: Element, c: Canvas, item: Resolved, at: tuple[float, float], job: PrintJob
) -> None:
    """`element.draw` at `at`; a plugin's kind in the working folder it was called in,
    whatever its code does (`same_folder`): a relative `--out` still names the same folder."""
    if _builtin(type(element)):
        element.draw(c, item, at[0], at[1], job)
        return
    with same_folder():
        element.draw(c, item, at[0], at[1], job)


@cache
def _builtin(kind: type[Element]) -> bool:
    """Whether a kind is one of Playset's own (asked once per kind, not per element drawn)."""
    return REGISTRY.is_builtin(kind_of(kind))
