"""The Whisky Game's board glyphs: the symbols drawn inside the map's spaces.

They are drawing code, not data, so they live with the game; the map's style
(content/whisky-game/boards/map.yaml) names them as icons, and the plugin hands them to the
board renderer as `GamePlugin.board_glyphs`. Each is designed for a space of radius 4.4 mm
and scaled to the space it is drawn in. The renderer passes in its font lookup (`font`:
style → the reportlab font name), so the game draws letters without importing the renderer.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

Font = Callable[[str], str]
"""The renderer's font lookup: a style (`bold`) → the reportlab name to draw with."""
Glyph = Callable[[Canvas, float, float, float], None]

SEA = HexColor("#1f5fa8")


def _bottle_path(c: Canvas, x: float, y: float, u: float) -> Any:
    white = HexColor("#ffffff")
    c.setFillColor(white)
    c.setStrokeColor(white)
    p = c.beginPath()
    p.roundRect(x - 1.05 * mm * u, y - 2.3 * mm * u, 2.1 * mm * u, 2.9 * mm * u, 0.4 * mm * u)
    p.rect(x - 0.42 * mm * u, y + 0.4 * mm * u, 0.84 * mm * u, 1.9 * mm * u)
    return p


def _bottle(c: Canvas, x: float, y: float, r: float) -> None:
    """A distillery: a filled bottle."""
    c.drawPath(_bottle_path(c, x, y, r / (4.4 * mm)), stroke=0, fill=1)


def _lost(c: Canvas, x: float, y: float, r: float, font: Font) -> None:
    """A lost distillery: an empty bottle with a question mark."""
    u = r / (4.4 * mm)
    path = _bottle_path(c, x, y, u)
    c.setLineWidth(0.8 * u)
    c.drawPath(path, stroke=1, fill=0)
    c.setFont(font("bold"), 5.5 * u)
    c.drawCentredString(x, y - 1.6 * mm * u, "?")


def _star(c: Canvas, x: float, y: float, r: float) -> None:
    u = r / (4.4 * mm)
    white = HexColor("#ffffff")
    c.setFillColor(white)
    p = c.beginPath()
    for k in range(10):
        rad = (2.9 if k % 2 == 0 else 1.2) * mm * u
        a = math.pi / 2 + k * math.pi / 5
        pt = (x + rad * math.cos(a), y + rad * math.sin(a))
        p.moveTo(*pt) if k == 0 else p.lineTo(*pt)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _mug(c: Canvas, x: float, y: float, r: float) -> None:
    u = r / (4.4 * mm)
    white = HexColor("#ffffff")
    c.setFillColor(white)
    c.setStrokeColor(white)
    c.roundRect(
        x - 1.5 * mm * u,
        y - 1.7 * mm * u,
        2.3 * mm * u,
        3.1 * mm * u,
        0.3 * mm * u,
        stroke=0,
        fill=1,
    )
    c.setLineWidth(1.0 * u)
    c.roundRect(
        x + 0.5 * mm * u,
        y - 0.9 * mm * u,
        1.2 * mm * u,
        1.6 * mm * u,
        0.5 * mm * u,
        stroke=1,
        fill=0,
    )


def _anchor(c: Canvas, x: float, y: float, r: float) -> None:
    u = r / (4.4 * mm)
    white = HexColor("#ffffff")
    c.setStrokeColor(white)
    c.setLineWidth(1.0 * u)
    c.circle(x, y + 1.9 * mm * u, 0.5 * mm * u, stroke=1, fill=0)
    c.line(x, y + 1.4 * mm * u, x, y - 2.2 * mm * u)
    c.line(x - 1.1 * mm * u, y + 0.7 * mm * u, x + 1.1 * mm * u, y + 0.7 * mm * u)
    c.arc(x - 2.0 * mm * u, y - 2.3 * mm * u, x + 2.0 * mm * u, y + 0.3 * mm * u, 200, 140)


def _plane(c: Canvas, x: float, y: float, r: float) -> None:
    u = r / (4.4 * mm)
    c.setFillColor(HexColor("#1f3f6e"))
    s = mm * u
    pts = [
        (0, 2.8),
        (0.45, 1.9),
        (0.45, 0.6),
        (2.8, -0.4),
        (2.8, -0.95),
        (0.45, -0.35),
        (0.35, -1.9),
        (1.1, -2.5),
        (1.1, -2.9),
        (0, -2.55),
        (-1.1, -2.9),
        (-1.1, -2.5),
        (-0.35, -1.9),
        (-0.45, -0.35),
        (-2.8, -0.95),
        (-2.8, -0.4),
        (-0.45, 0.6),
        (-0.45, 1.9),
    ]
    p = c.beginPath()
    p.moveTo(x + pts[0][0] * s, y + pts[0][1] * s)
    for px, py in pts[1:]:
        p.lineTo(x + px * s, y + py * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _letter_s(c: Canvas, x: float, y: float, r: float, font: Font) -> None:
    u = r / (4.4 * mm)
    white = HexColor("#ffffff")
    c.setFillColor(white)
    c.setFont(font("bold"), 11 * u)
    c.drawCentredString(x, y - 3.9 * u, "S")


def _barrel(c: Canvas, x: float, y: float, r: float) -> None:
    u = r / (4.4 * mm)
    brown = HexColor("#7b3f12")
    c.setStrokeColor(brown)
    c.setFillColor(brown)
    c.setLineWidth(0.7 * u)
    w, h = 1.5 * mm * u, 2.1 * mm * u
    p = c.beginPath()
    p.moveTo(x - w * 0.8, y + h)
    p.curveTo(x - w * 1.25, y + h * 0.4, x - w * 1.25, y - h * 0.4, x - w * 0.8, y - h)
    p.lineTo(x + w * 0.8, y - h)
    p.curveTo(x + w * 1.25, y - h * 0.4, x + w * 1.25, y + h * 0.4, x + w * 0.8, y + h)
    p.close()
    c.drawPath(p, stroke=1, fill=0)
    for f in (-0.5, 0.5):
        c.line(x - w * 1.08, y + h * f, x + w * 1.08, y + h * f)


def _waves(c: Canvas, x: float, y: float, r: float) -> None:
    u = r / (4.4 * mm)
    c.setStrokeColor(SEA)
    c.setLineWidth(0.6 * u)
    for dy in (0.7, -0.7):
        p = c.beginPath()
        x0, yy = x - 2.0 * mm * u, y + dy * mm * u
        p.moveTo(x0, yy)
        for k in range(4):
            xa = x0 + k * mm * u
            p.curveTo(
                xa + 0.25 * mm * u,
                yy + 0.5 * mm * u,
                xa + 0.75 * mm * u,
                yy - 0.5 * mm * u,
                xa + mm * u,
                yy,
            )
        c.drawPath(p, stroke=1, fill=0)


def glyphs(font: Font) -> dict[str, Glyph]:
    """The map's glyphs by icon name; `font` is the renderer's, asked when a letter is drawn."""
    return {
        "bottle": _bottle,
        "lost": functools.partial(_lost, font=font),
        "star": _star,
        "mug": _mug,
        "anchor": _anchor,
        "plane": _plane,
        "s": functools.partial(_letter_s, font=font),
        "barrel": _barrel,
        "waves": _waves,
    }
