"""A game's own icons: SVG files in its `icons/` folder, drawn as vectors (svglib turns each
into a reportlab Drawing once; pages draw it scaled into the icon's box).

An SVG keeps its own colours: the designer drew it. A file svglib cannot read is no icon and
a positioned problem, which `validate` reports (P008), never a traceback.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from toolkit.diagnostics import Span

if TYPE_CHECKING:  # svglib, lxml and reportlab.graphics load only for a game with SVG icons
    from reportlab.graphics.shapes import Drawing

logging.getLogger("svglib.svglib").setLevel(logging.CRITICAL)  # failures become P008


@dataclass(frozen=True)
class Problem:
    """Why an SVG file gives no icon, where."""

    file: str
    span: Span
    message: str


@dataclass(frozen=True)
class SvgIcon:
    """One SVG drawn in a unit square, its aspect ratio kept and centred."""

    drawing: Drawing

    def __call__(self, c: Canvas, size: float) -> None:
        from reportlab.graphics import renderPDF

        width, height = float(self.drawing.width), float(self.drawing.height)
        scale = size / max(width, height)
        c.translate((size - width * scale) / 2, (size - height * scale) / 2)
        c.scale(scale, scale)
        renderPDF.draw(self.drawing, c, 0, 0)


def load_svg(path: Path, display: str) -> tuple[SvgIcon | None, Problem | None]:
    """The icon in `path`, or None and a diagnostic at the line and column that fail."""
    from lxml import etree
    from svglib.svglib import svg2rlg

    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    try:
        root = etree.parse(str(path), parser=parser).getroot()
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        reason = exc.msg or str(exc)
        return None, Problem(display, Span(line, max(1, col)), f"not valid SVG: {reason}")
    except OSError as exc:
        return None, Problem(display, Span(), f"cannot read file: {exc}")
    if etree.QName(root).localname != "svg":
        where = Span(root.sourceline or 1, 1)
        return None, Problem(display, where, f"the root element is <{str(root.tag)}>, not <svg>")
    try:
        drawing = svg2rlg(str(path))
    except Exception as exc:  # svglib raises what its parser meets; report, never crash
        return None, Problem(display, Span(), f"svglib cannot draw it: {exc}")
    if drawing is None or not drawing.width or not drawing.height:
        message = "svglib cannot draw it (no size: give the <svg> a width/height or viewBox)"
        return None, Problem(display, Span(root.sourceline or 1, 1), message)
    return SvgIcon(drawing), None
