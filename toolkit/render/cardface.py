"""Draw one card face (front or back) from its layout at a place on a page.

Text is drawn line by line from the same fit the P checks use, so what `validate` accepts is
what prints; content text never goes through reportlab markup, so `<` and `&` print as
written. Inline icons (`:die:`) sit on the text line, one em wide.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from toolkit.fileio import real_path
from toolkit.render.fonts import font_name, text_width
from toolkit.render.icons import BUILTIN, INLINE_ICON, IconSet, draw_icon, icon_set
from toolkit.render.layout import (
    BadgeElement,
    BoxElement,
    IconElement,
    ImageElement,
    Layout,
    LayoutError,
    Resolved,
    TextElement,
    resolve,
)
from toolkit.render.textfit import LEADING, fit_text


@cache
def _colour(value: str) -> Any:
    return HexColor(value) if value.startswith("#") else value


def draw_face(
    c: Canvas,
    layout: Layout,
    context: dict[str, Any],
    x: float,
    y: float,
    width_mm: float,
    height_mm: float,
    bleed_mm: float,
    lang: str,
    game_root: Any = None,
    underlay: str | None = None,
) -> None:
    """Draw a card whose trim's lower-left corner is at (x, y) points.

    `underlay` names a form made by `draw_underlay` for this layout and size: it stands for
    the background and the layout's leading fixed boxes, drawn once per deck."""
    w, h = width_mm * mm, height_mm * mm
    b = bleed_mm * mm
    c.saveState()
    skip = 0
    if underlay:
        c.saveState()
        c.translate(x - b, y - b)
        c.doForm(underlay)
        c.restoreState()
        skip = fixed_lead(layout)
    else:
        c.setFillColor(_colour(layout.background))
        c.rect(x - b, y - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
    top = y + h
    fixed = layout.elements[:skip]
    icons = icon_set(game_root)
    for item in resolve(layout, context, width_mm, height_mm):
        if any(item.element is element for element in fixed):
            continue
        _draw(c, item, x + item.x * mm, top - (item.y + item.h) * mm, lang, game_root, icons)
    c.restoreState()


def fixed_lead(layout: Layout) -> int:
    """How many of the layout's first elements look the same on every card (plain boxes)."""
    count = 0
    for element in layout.elements:
        if not isinstance(element, BoxElement) or element.when:
            break
        count += 1
    return count


@contextmanager
def card_form(
    c: Canvas, name: str, width_mm: float, height_mm: float, bleed_mm: float
) -> Iterator[None]:
    """Draw into a PDF form (XObject) the size of a card with its bleed, origin at the
    bleed's lower-left corner; pages then place it by reference as often as needed."""
    w, h, b = width_mm * mm, height_mm * mm, bleed_mm * mm
    # The box reaches 1 pt past the bleed: a form clipped right at its painted edge shows a
    # light seam where two cards meet in screen viewers.
    c.beginForm(name, -1, -1, w + 2 * b + 1, h + 2 * b + 1)
    yield
    c.endForm()


def draw_underlay(
    c: Canvas, name: str, layout: Layout, width_mm: float, height_mm: float, bleed_mm: float
) -> str:
    """The background and leading fixed boxes of a layout as one PDF form, drawn once and
    placed under every card of a deck (a smaller file, and less to write per card)."""
    w, h, b = width_mm * mm, height_mm * mm, bleed_mm * mm
    with card_form(c, name, width_mm, height_mm, bleed_mm):
        c.setFillColor(_colour(layout.background))
        c.rect(0, 0, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        top = b + h
        for element in layout.elements[: fixed_lead(layout)]:
            ex, ey, ew, eh = element.box.resolve(width_mm, height_mm)
            item = Resolved(element, ex, ey, ew, eh)
            _draw(c, item, b + ex * mm, top - (ey + eh) * mm, "", None, BUILTIN)
    return name


def _draw(
    c: Canvas, item: Resolved, x: float, y: float, lang: str, root: Any, icons: IconSet
) -> None:
    element = item.element
    w, h = item.w * mm, item.h * mm
    if isinstance(element, BoxElement):
        c.saveState()
        c.setLineWidth(element.stroke_mm * mm)
        if element.fill:
            c.setFillColor(_colour(element.fill))
        if element.stroke:
            c.setStrokeColor(_colour(element.stroke))
        c.roundRect(
            x,
            y,
            w,
            h,
            element.radius_mm * mm,
            stroke=1 if element.stroke else 0,
            fill=1 if element.fill else 0,
        )
        c.restoreState()
    elif isinstance(element, TextElement):
        _draw_text(c, item.text, element, x, y, w, h, lang, icons)
    elif isinstance(element, IconElement):
        size = min(w, h)
        left, bottom = x + (w - size) / 2, y + (h - size) / 2
        draw_icon(c, item.text, left, bottom, size, element.colour, icons)
    elif isinstance(element, BadgeElement):
        radius = min(w, h) / 2
        c.saveState()
        c.setFillColor(_colour(element.fill))
        c.circle(x + w / 2, y + h / 2, radius, stroke=0, fill=1)
        c.setFillColor(_colour(element.colour))
        c.setFont(font_name("bold"), element.size)
        c.drawCentredString(x + w / 2, y + h / 2 - element.size * 0.35, item.text)
        c.restoreState()
    elif isinstance(element, ImageElement) and root is not None and item.text:
        path = real_path(root / item.text)
        if path.is_file() and path.is_relative_to(real_path(root)):
            from PIL.Image import DecompressionBombError

            try:
                c.drawImage(str(path), x, y, w, h, preserveAspectRatio=True, mask="auto")
            except (OSError, ValueError, DecompressionBombError) as exc:  # P004 in validate
                message = f"cannot read image {item.text!r} (damaged, or not an image)"
                raise LayoutError(message) from exc


def _draw_text(
    c: Canvas,
    text: str,
    element: TextElement,
    x: float,
    y: float,
    w: float,
    h: float,
    lang: str,
    icons: IconSet,
) -> None:
    if not text:
        return
    size_max, size_min, names = element.size.max, element.size.min, icons.names
    fit = fit_text(text, w, h, size_max, size_min, element.style, lang, names)
    size = fit.size
    lines = fit.lines
    line_h = size * LEADING
    block = len(lines) * line_h
    if element.valign == "middle":
        first = y + (h + block) / 2 - size
    elif element.valign == "bottom":
        first = y + block - size + (line_h - size) * 0.5
    else:
        first = y + h - size
    c.saveState()
    if not fit.fits:  # an overflowing text (a P001 finding) stays inside its box
        path = c.beginPath()
        path.rect(x - 1, y - 1, w + 2, h + 2)
        c.clipPath(path, stroke=0, fill=0)
    c.setFillColor(_colour(element.colour))
    font = font_name(element.style)
    writer = c.beginText()
    writer.setFont(font, size)
    placed: list[tuple[str, float, float]] = []
    for index, line in enumerate(lines):
        baseline = first - index * line_h
        width = _line_width(line, font, size, element.style, names)
        if element.align == "center":
            start = x + (w - width) / 2
        elif element.align == "right":
            start = x + w - width
        else:
            start = x
        _place_line(writer, placed, line, start, baseline, font, size, names)
    c.drawText(writer)
    for icon, left, baseline in placed:
        draw_icon(c, icon, left, baseline - size * 0.12, size * 0.9, element.colour, icons)
    c.restoreState()


def _segments(line: str, names: frozenset[str]) -> list[tuple[str, bool]]:
    if ":" not in line:
        return [(line, False)] if line else []
    out: list[tuple[str, bool]] = []
    last = 0
    for match in INLINE_ICON.finditer(line):
        if match.group(1) in names:
            out.append((line[last : match.start()], False))
            out.append((match.group(1), True))
            last = match.end()
    out.append((line[last:], False))
    return [s for s in out if s[0]]


def _line_width(line: str, font: str, size: float, style: str, names: frozenset[str]) -> float:
    parts = _segments(line, names)
    return sum(size if icon else text_width(part, size, style, names) for part, icon in parts)


def _place_line(
    writer: Any,
    icons: list[tuple[str, float, float]],
    line: str,
    x: float,
    baseline: float,
    font: str,
    size: float,
    names: frozenset[str],
) -> None:
    """Put a line's text in the element's one text object (one BT…ET per element, not per
    line); its inline icons are noted, to be drawn over it as vector shapes."""
    for part, icon in _segments(line, names):
        if icon:
            icons.append((part, x, baseline))
            x += size
        else:
            writer.setTextOrigin(x, baseline)
            writer.textOut(part)
            x += stringWidth(part, font, size)
