"""A game's own icons: SVG files in its `icons/` folder, drawn as vectors (svglib turns each
into a reportlab Drawing once; pages draw it scaled into the icon's box).

An SVG keeps its own colours: the designer drew it. A file svglib cannot read is no icon and
a positioned problem, which `validate` reports (P008), never a traceback.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from toolkit.content.game import display_path
from toolkit.diagnostics import Span
from toolkit.fileio import real_path
from toolkit.render import svg_guard

if TYPE_CHECKING:  # svglib, lxml and reportlab.graphics load only for a game with SVG icons
    from reportlab.graphics.shapes import Drawing

logging.getLogger("svglib.svglib").setLevel(logging.CRITICAL)  # failures become P008

MIN_SIZE, MAX_SIZE = 0.01, 1_000_000.0
"""An icon's own width and height (user units): it is scaled into its box, but reportlab
cannot write a page of 1e308 or 1e-308."""


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


def load_svg(
    path: Path, display: str, icons: Path | None = None
) -> tuple[SvgIcon | None, Problem | None]:
    """The icon in `path`, or None and a diagnostic at the line and column that fail.

    Checked first (svg_guard): its size, what its hrefs reach (only files inside `icons`,
    the game's icons/ folder; `path`'s own folder if None) and its <use> expansion. Then
    drawn once into a throwaway page, so a size or value reportlab cannot write (1e308) is
    a finding in validate, not a traceback in build."""
    from lxml import etree
    from svglib.svglib import svg2rlg

    try:
        data = svg_guard.read(path)
    except ValueError as exc:
        return None, Problem(display, Span(), str(exc))
    except OSError as exc:
        return None, Problem(display, Span(), f"cannot read file: {exc.strerror or exc}")
    try:
        root = svg_guard.parse(data)
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        reason = exc.msg or str(exc)
        return None, Problem(display, Span(line, max(1, col)), f"not valid SVG: {reason}")
    text = data.decode("utf-8", "replace")
    where = Span(*svg_guard.column(text, root))
    if etree.QName(root).localname != "svg":
        return None, Problem(display, where, f"the root element is <{str(root.tag)}>, not <svg>")
    icons = icons if icons is not None else path.parent
    refusal = svg_guard.check(path, icons)
    if refusal is not None:
        shown = display if refusal.path == path else display_path(refusal.path)
        return None, Problem(shown, Span(refusal.line, refusal.col), refusal.message)
    try:
        drawing = svg2rlg(str(path), external_reference_root=str(real_path(icons)))
    except Exception as exc:  # svglib raises what its parser meets; report, never crash
        return None, Problem(display, Span(), f"svglib cannot draw it: {exc}")
    if drawing is None or not drawing.width or not drawing.height:
        message = "svglib cannot draw it (no size: give the <svg> a width/height or viewBox)"
        return None, Problem(display, where, message)
    width, height = float(drawing.width), float(drawing.height)
    if not all(MIN_SIZE <= abs(v) <= MAX_SIZE for v in (width, height)):
        message = (
            f"its size {width:g}×{height:g} is out of range: width and height go from"
            f" {MIN_SIZE:g} to {MAX_SIZE:,.0f}"
        )
        return None, Problem(display, where, message)
    icon = SvgIcon(drawing)
    try:
        icon(Canvas(io.BytesIO()), 10.0)
    except Exception as exc:  # reportlab refuses a value it cannot write (1e308, nan)
        reason = str(exc).splitlines()[-1].strip() if str(exc).strip() else type(exc).__name__
        message = f"it cannot be printed: a size or coordinate is out of range ({reason})"
        return None, Problem(display, where, message)
    return icon, None
