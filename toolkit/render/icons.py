"""Clean vector icons drawn with canvas primitives (we have no art, and want none to license).

Each icon is drawn in a unit box: `draw_icon(canvas, name, x, y, size, colour, icons)` puts it
with its lower-left corner at (x, y). Names are what layouts and inline text (`:die:`) use.
`icon_set(game_root)` adds a game's own SVG icons (its `icons/` folder) to these built-ins,
the game's shadowing a built-in of the same name.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import Color, HexColor, white

from toolkit.content import assets
from toolkit.content.game import display_path
from toolkit.content.templating import INLINE_ICON
from toolkit.diagnostics import Span

if TYPE_CHECKING:  # a canvas is the build's: `validate` only names and lists icons, and
    # importing reportlab's canvas (its PDF document, text and path objects) costs every
    # validate run ~5 ms of CPU for a class no check ever makes
    from reportlab.pdfgen.canvas import Canvas

    # the SVG reader (svg_icons, svg_guard, svg_fonts) is imported when a game has icons of
    # its own: a game printing only the built-ins (text cards) never loads it
    from toolkit.render.svg_guard import Budget
    from toolkit.render.svg_icons import Problem, SvgIcon

Drawer = Callable[["Canvas", float], None]


def _die(c: Canvas, s: float) -> None:
    c.roundRect(0.08 * s, 0.08 * s, 0.84 * s, 0.84 * s, 0.16 * s, stroke=1, fill=0)
    for px, py in ((0.3, 0.7), (0.5, 0.5), (0.7, 0.3)):
        c.circle(px * s, py * s, 0.08 * s, stroke=0, fill=1)


def _bottle(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.42 * s, 0.95 * s)
    p.lineTo(0.58 * s, 0.95 * s)
    p.lineTo(0.58 * s, 0.7 * s)
    p.curveTo(0.72 * s, 0.62 * s, 0.72 * s, 0.55 * s, 0.72 * s, 0.5 * s)
    p.lineTo(0.72 * s, 0.06 * s)
    p.lineTo(0.28 * s, 0.06 * s)
    p.lineTo(0.28 * s, 0.5 * s)
    p.curveTo(0.28 * s, 0.55 * s, 0.28 * s, 0.62 * s, 0.42 * s, 0.7 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _barrel(c: Canvas, s: float) -> None:
    """A cask standing up: flat ends, bulging staves, two hoops inside its outline."""
    p = c.beginPath()
    p.moveTo(0.28 * s, 0.05 * s)
    p.lineTo(0.72 * s, 0.05 * s)
    p.curveTo(0.92 * s, 0.3 * s, 0.92 * s, 0.7 * s, 0.72 * s, 0.95 * s)
    p.lineTo(0.28 * s, 0.95 * s)
    p.curveTo(0.08 * s, 0.7 * s, 0.08 * s, 0.3 * s, 0.28 * s, 0.05 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.saveState()
    c.clipPath(p, stroke=0, fill=0)
    c.setStrokeColor(white)
    c.setLineWidth(0.06 * s)
    for y in (0.27, 0.73):
        c.line(0, y * s, s, y * s)
    c.restoreState()


def _coin(c: Canvas, s: float) -> None:
    c.circle(0.5 * s, 0.5 * s, 0.44 * s, stroke=0, fill=1)
    c.saveState()
    c.setFillColor(white)
    c.rect(0.4 * s, 0.4 * s, 0.2 * s, 0.2 * s, stroke=0, fill=1)
    c.restoreState()


def _flame(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.5 * s, 0.95 * s)
    p.curveTo(0.2 * s, 0.6 * s, 0.15 * s, 0.3 * s, 0.5 * s, 0.05 * s)
    p.curveTo(0.85 * s, 0.3 * s, 0.8 * s, 0.6 * s, 0.5 * s, 0.95 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _drop(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.5 * s, 0.95 * s)
    p.curveTo(0.45 * s, 0.7 * s, 0.15 * s, 0.45 * s, 0.2 * s, 0.3 * s)
    p.curveTo(0.25 * s, 0.0, 0.75 * s, 0.0, 0.8 * s, 0.3 * s)
    p.curveTo(0.85 * s, 0.45 * s, 0.55 * s, 0.7 * s, 0.5 * s, 0.95 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _leaf(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.1 * s, 0.1 * s)
    p.curveTo(0.1 * s, 0.8 * s, 0.6 * s, 0.95 * s, 0.92 * s, 0.92 * s)
    p.curveTo(0.95 * s, 0.5 * s, 0.7 * s, 0.1 * s, 0.1 * s, 0.1 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _glass(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.2 * s, 0.92 * s)
    p.lineTo(0.8 * s, 0.92 * s)
    p.lineTo(0.68 * s, 0.08 * s)
    p.lineTo(0.32 * s, 0.08 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _star(c: Canvas, s: float) -> None:
    p = c.beginPath()
    for i in range(10):
        r = 0.46 if i % 2 == 0 else 0.2
        a = math.pi / 2 + i * math.pi / 5
        x, y = 0.5 + r * math.cos(a), 0.5 + r * math.sin(a)
        (p.moveTo if i == 0 else p.lineTo)(x * s, y * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _mountain(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.02 * s, 0.1 * s)
    p.lineTo(0.38 * s, 0.8 * s)
    p.lineTo(0.55 * s, 0.48 * s)
    p.lineTo(0.68 * s, 0.65 * s)
    p.lineTo(0.98 * s, 0.1 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _wave(c: Canvas, s: float) -> None:
    c.saveState()
    c.setLineWidth(0.1 * s)
    for y in (0.3, 0.6):
        p = c.beginPath()
        p.moveTo(0.05 * s, y * s)
        p.curveTo(0.25 * s, (y + 0.18) * s, 0.35 * s, (y - 0.18) * s, 0.5 * s, y * s)
        p.curveTo(0.65 * s, (y + 0.18) * s, 0.75 * s, (y - 0.18) * s, 0.95 * s, y * s)
        c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def _paddy(c: Canvas, s: float) -> None:
    c.saveState()
    c.setLineWidth(0.07 * s)
    for x in (0.25, 0.5, 0.75):
        c.line(x * s, 0.1 * s, x * s, 0.55 * s)
        c.line(x * s, 0.55 * s, (x - 0.1) * s, 0.85 * s)
        c.line(x * s, 0.55 * s, (x + 0.1) * s, 0.85 * s)
    c.restoreState()


def _heart(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.5 * s, 0.1 * s)
    p.curveTo(0.0, 0.45 * s, 0.15 * s, 0.95 * s, 0.5 * s, 0.7 * s)
    p.curveTo(0.85 * s, 0.95 * s, 1.0 * s, 0.45 * s, 0.5 * s, 0.1 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _diamond(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.5 * s, 0.95 * s)
    p.lineTo(0.85 * s, 0.5 * s)
    p.lineTo(0.5 * s, 0.05 * s)
    p.lineTo(0.15 * s, 0.5 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _spade(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.5 * s, 0.95 * s)
    p.curveTo(0.0, 0.55 * s, 0.15 * s, 0.1 * s, 0.5 * s, 0.35 * s)
    p.curveTo(0.85 * s, 0.1 * s, 1.0 * s, 0.55 * s, 0.5 * s, 0.95 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.rect(0.45 * s, 0.05 * s, 0.1 * s, 0.3 * s, stroke=0, fill=1)


def _club(c: Canvas, s: float) -> None:
    for cx, cy in ((0.5, 0.7), (0.3, 0.45), (0.7, 0.45)):
        c.circle(cx * s, cy * s, 0.17 * s, stroke=0, fill=1)
    c.rect(0.45 * s, 0.05 * s, 0.1 * s, 0.4 * s, stroke=0, fill=1)


def _marble(c: Canvas, s: float) -> None:
    c.circle(0.5 * s, 0.5 * s, 0.42 * s, stroke=0, fill=1)
    c.saveState()
    c.setFillColor(Color(1, 1, 1, alpha=0.6))
    c.circle(0.38 * s, 0.62 * s, 0.12 * s, stroke=0, fill=1)
    c.restoreState()


def _castle(c: Canvas, s: float) -> None:
    c.rect(0.15 * s, 0.05 * s, 0.7 * s, 0.55 * s, stroke=0, fill=1)
    for x in (0.15, 0.43, 0.71):
        c.rect(x * s, 0.6 * s, 0.14 * s, 0.2 * s, stroke=0, fill=1)


def _sword(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.9 * s, 0.95 * s)
    p.lineTo(0.3 * s, 0.35 * s)
    p.lineTo(0.38 * s, 0.27 * s)
    p.lineTo(0.95 * s, 0.9 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.setLineWidth(0.08 * s)
    c.line(0.18 * s, 0.45 * s, 0.45 * s, 0.18 * s)
    c.line(0.1 * s, 0.1 * s, 0.3 * s, 0.3 * s)


def _bowl(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.05 * s, 0.5 * s)
    p.curveTo(0.1 * s, 0.05 * s, 0.9 * s, 0.05 * s, 0.95 * s, 0.5 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.setLineWidth(0.05 * s)
    c.line(0.55 * s, 0.55 * s, 0.85 * s, 0.95 * s)
    c.line(0.65 * s, 0.55 * s, 0.95 * s, 0.9 * s)


def _barley(c: Canvas, s: float) -> None:
    c.setLineWidth(0.06 * s)
    c.line(0.5 * s, 0.05 * s, 0.5 * s, 0.95 * s)
    for i in range(4):
        y = 0.35 + i * 0.15
        for side in (-1, 1):
            c.saveState()
            c.translate(0.5 * s, y * s)
            c.rotate(35 * side)
            c.ellipse(-0.06 * s, 0, 0.06 * s, 0.2 * s, stroke=0, fill=1)
            c.restoreState()


def _yeast(c: Canvas, s: float) -> None:
    for cx, cy, r in (
        (0.35, 0.35, 0.22),
        (0.65, 0.45, 0.17),
        (0.45, 0.72, 0.14),
        (0.75, 0.78, 0.09),
    ):
        c.circle(cx * s, cy * s, r * s, stroke=0, fill=1)


def _fan(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.5 * s, 0.1 * s)
    p.arcTo(0.05 * s, -0.35 * s, 0.95 * s, 0.55 * s + 0.4 * s, startAng=25, extent=130)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.rect(0.46 * s, 0.02 * s, 0.08 * s, 0.2 * s, stroke=0, fill=1)


def _kimono(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.3 * s, 0.9 * s)
    p.lineTo(0.05 * s, 0.7 * s)
    p.lineTo(0.15 * s, 0.55 * s)
    p.lineTo(0.28 * s, 0.62 * s)
    p.lineTo(0.28 * s, 0.05 * s)
    p.lineTo(0.72 * s, 0.05 * s)
    p.lineTo(0.72 * s, 0.62 * s)
    p.lineTo(0.85 * s, 0.55 * s)
    p.lineTo(0.95 * s, 0.7 * s)
    p.lineTo(0.7 * s, 0.9 * s)
    p.lineTo(0.5 * s, 0.6 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _frame(c: Canvas, s: float) -> None:
    c.rect(0.08 * s, 0.15 * s, 0.84 * s, 0.7 * s, stroke=1, fill=0)
    p = c.beginPath()
    p.moveTo(0.15 * s, 0.22 * s)
    p.lineTo(0.4 * s, 0.6 * s)
    p.lineTo(0.55 * s, 0.42 * s)
    p.lineTo(0.65 * s, 0.52 * s)
    p.lineTo(0.85 * s, 0.22 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _cup(c: Canvas, s: float) -> None:
    p = c.beginPath()
    p.moveTo(0.12 * s, 0.75 * s)
    p.lineTo(0.78 * s, 0.75 * s)
    p.curveTo(0.78 * s, 0.3 * s, 0.65 * s, 0.1 * s, 0.45 * s, 0.1 * s)
    p.curveTo(0.25 * s, 0.1 * s, 0.12 * s, 0.3 * s, 0.12 * s, 0.75 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.setLineWidth(0.07 * s)
    c.circle(0.82 * s, 0.5 * s, 0.12 * s, stroke=1, fill=0)


def _arrow(c: Canvas, s: float) -> None:
    """A rightwards arrow at the height of a hyphen (Noto Sans has no U+2192)."""
    p = c.beginPath()
    p.moveTo(0.08 * s, 0.36 * s)
    p.lineTo(0.62 * s, 0.36 * s)
    p.lineTo(0.62 * s, 0.22 * s)
    p.lineTo(0.92 * s, 0.42 * s)
    p.lineTo(0.62 * s, 0.62 * s)
    p.lineTo(0.62 * s, 0.48 * s)
    p.lineTo(0.08 * s, 0.48 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _temple(c: Canvas, s: float) -> None:
    """A torii gate: two posts, a curved top beam and a tie beam."""
    c.rect(0.22 * s, 0.05 * s, 0.1 * s, 0.68 * s, stroke=0, fill=1)
    c.rect(0.68 * s, 0.05 * s, 0.1 * s, 0.68 * s, stroke=0, fill=1)
    c.rect(0.14 * s, 0.56 * s, 0.72 * s, 0.07 * s, stroke=0, fill=1)
    p = c.beginPath()
    p.moveTo(0.02 * s, 0.86 * s)
    p.curveTo(0.3 * s, 0.76 * s, 0.7 * s, 0.76 * s, 0.98 * s, 0.86 * s)
    p.lineTo(0.96 * s, 0.76 * s)
    p.curveTo(0.7 * s, 0.68 * s, 0.3 * s, 0.68 * s, 0.04 * s, 0.76 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _hot_spring(c: Canvas, s: float) -> None:
    """A pool with three wisps of steam (the onsen sign)."""
    p = c.beginPath()
    p.moveTo(0.08 * s, 0.34 * s)
    p.curveTo(0.08 * s, 0.02 * s, 0.92 * s, 0.02 * s, 0.92 * s, 0.34 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.saveState()
    c.setLineWidth(0.07 * s)
    c.setLineCap(1)
    for x in (0.3, 0.5, 0.7):
        w = c.beginPath()
        w.moveTo(x * s, 0.42 * s)
        w.curveTo((x - 0.09) * s, 0.55 * s, (x + 0.09) * s, 0.68 * s, x * s, 0.9 * s)
        c.drawPath(w, stroke=1, fill=0)
    c.restoreState()


def _plane(c: Canvas, s: float) -> None:
    """An aeroplane seen from above, nose up: a rounded nose, then wings and tail as one
    outline."""
    outline = [
        (0.56, 0.62), (0.95, 0.42), (0.95, 0.34), (0.56, 0.44), (0.55, 0.18), (0.7, 0.08),
        (0.7, 0.03), (0.5, 0.08), (0.3, 0.03), (0.3, 0.08), (0.45, 0.18), (0.44, 0.44),
        (0.05, 0.34), (0.05, 0.42), (0.44, 0.62),
    ]  # fmt: skip
    p = c.beginPath()
    p.moveTo(0.5 * s, 0.97 * s)
    p.curveTo(0.56 * s, 0.95 * s, 0.56 * s, 0.85 * s, 0.56 * s, 0.62 * s)
    for x, y in outline[1:]:
        p.lineTo(x * s, y * s)
    p.curveTo(0.44 * s, 0.85 * s, 0.44 * s, 0.95 * s, 0.5 * s, 0.97 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _hat(c: Canvas, s: float) -> None:
    """A traveller's conical straw hat (kasa) with its chin cord."""
    p = c.beginPath()
    p.moveTo(0.02 * s, 0.42 * s)
    p.lineTo(0.5 * s, 0.82 * s)
    p.lineTo(0.98 * s, 0.42 * s)
    p.curveTo(0.7 * s, 0.34 * s, 0.3 * s, 0.34 * s, 0.02 * s, 0.42 * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.saveState()
    c.setLineWidth(0.05 * s)
    cord = c.beginPath()
    cord.moveTo(0.3 * s, 0.37 * s)
    cord.curveTo(0.36 * s, 0.1 * s, 0.64 * s, 0.1 * s, 0.7 * s, 0.37 * s)
    c.drawPath(cord, stroke=1, fill=0)
    c.restoreState()


ICONS: dict[str, Drawer] = {
    "temple": _temple,
    "hot_spring": _hot_spring,
    "plane": _plane,
    "hat": _hat,
    "arrow": _arrow,
    "barley": _barley,
    "yeast": _yeast,
    "small_object": _fan,
    "clothing": _kimono,
    "art": _frame,
    "food_drink": _cup,
    "die": _die,
    "bottle": _bottle,
    "barrel": _barrel,
    "coin": _coin,
    "fire": _flame,
    "water": _drop,
    "nature": _leaf,
    "sip": _glass,
    "star": _star,
    "mountain": _mountain,
    "sea": _wave,
    "paddy": _paddy,
    "heart": _heart,
    "diamond": _diamond,
    "spade": _spade,
    "club": _club,
    "laddie": _marble,
    "castle": _castle,
    "sword": _sword,
    "meal": _bowl,
}


_NAME = re.compile(r"[a-z_]+")


MAX_LISTED = 20
"""Icon names a finding lists (a game with 1,000 SVG icons made each P007 a 6 kB line)."""


def listed(names: Iterable[str]) -> str:
    """Icon names as a finding lists them: sorted, the first `MAX_LISTED`, then how many
    more there are."""
    ordered = sorted(names)
    shown = ", ".join(ordered[:MAX_LISTED])
    more = len(ordered) - MAX_LISTED
    return f"{shown} … and {more:,} more" if more > 0 else shown


def without_icons(text: str, names: frozenset[str]) -> str:
    """`text` with the inline icons of `names` left out: the letters it prints (an unknown
    name prints as written, as the text kind and the rulebook draw it)."""
    if ":" not in text:
        return text  # nearly every text
    return INLINE_ICON.sub(lambda m: "" if m.group(1) in names else m[0], text)


@dataclass(frozen=True, eq=False)
class IconSet:
    """The icons one game can print: its own SVGs over the built-ins, and why any of its
    files gave no icon."""

    drawers: Mapping[str, Drawer]
    names: frozenset[str]
    problems: tuple[Problem, ...] = ()
    broken: frozenset[str] = frozenset()
    """Names of the game's SVG files that could not be read: their problem is said once, at
    the file, not again at every text or layout that names them."""


BUILTIN = IconSet(ICONS, frozenset(ICONS))


MAX_FACE_INLINE_ICONS = 64
"""Inline icons (`:die:`) one card face draws, its texts together. The PDF holds an icon
once and places it by reference, but a rasteriser (`export png`, the preview) draws every use
whole: 200 uses of a 1,990-circle icon took 3 s for one face. With the layout's own icon
elements (`most_per_layout`) a face draws at most 96 icons. The bundled games' faces draw
none; validate says P018 at a face that would draw more, and a face draws the first ones."""

MAX_FACE_ICON_WEIGHT = 16_000
"""What the icons one card face draws may weigh together (`icon_weight`: an SVG icon its
drawn shapes, pictures and dashes), its icon elements and inline icons alike: about eight
icons of the 2,000 elements one may hold. 32 icon elements of 1,990 large translucent circles took
`export png` 8.9 s for one face (probe 47 K9). The bundled faces weigh 60 at most (six
built-in icons); validate says P018 at a face past it, and a face draws the icons that fit."""

MAX_FACE_ICON_PAINT = 4_000_000
"""Square points the icons one card face draws may paint together, each use its icon's
`coverage` (how many times over its shapes paint its box; a built-in 1) times its box's
area: about ninety poker cards painted over, under a second of a picture's raster. Eight
full-card icons of 1,990 translucent circles (16,000 shapes, each filling the card) took
`export png` 70 s for one face (probe 48 N1). The new game's token icon paints its box 1.25
times: 5,300 a use at its 23 mm."""

_INLINE_LEFT = "_playset_inline_icons_left"
"""The canvas attribute counting the inline icons the face being drawn may still draw."""
_WEIGHT_LEFT = "_playset_icon_weight_left"
"""The canvas attribute counting the icon weight the face being drawn may still draw."""
_PAINT_LEFT = "_playset_icon_paint_left"
"""The canvas attribute counting the square points the face being drawn may still paint."""


def inline_icons(text: str, names: frozenset[str]) -> int:
    """How many inline icons `text` draws: the `:name:` the game has an icon for."""
    if ":" not in text:
        return 0
    return sum(1 for m in INLINE_ICON.finditer(text) if m.group(1) in names)


@contextmanager
def one_face(c: Canvas) -> Iterator[None]:
    """Draw one card face on `c`: it may draw `MAX_FACE_INLINE_ICONS` inline icons and icons
    weighing `MAX_FACE_ICON_WEIGHT`; what is drawn on `c` outside a face is not counted."""
    setattr(c, _INLINE_LEFT, MAX_FACE_INLINE_ICONS)
    allow_page(c)
    try:
        yield
    finally:
        delattr(c, _INLINE_LEFT)
        delattr(c, _WEIGHT_LEFT)
        delattr(c, _PAINT_LEFT)


def allow_page(c: Canvas, faces: int = 1) -> None:
    """What is drawn on `c` from now may draw icons weighing and painting what `faces` card
    faces' may (`MAX_FACE_ICON_WEIGHT`, `MAX_FACE_ICON_PAINT`)."""
    setattr(c, _WEIGHT_LEFT, MAX_FACE_ICON_WEIGHT * faces)
    setattr(c, _PAINT_LEFT, float(MAX_FACE_ICON_PAINT * faces))


def _face_allows(c: Canvas, name: str, icons: IconSet, size: float = 0.0) -> bool:
    """Whether the face being drawn on `c` may still draw icon `name` in a box of `size`
    points (always, outside a face), counted as drawn; once one does not fit, no further icon
    does."""
    left = getattr(c, _WEIGHT_LEFT, None)
    if left is None:
        return True
    weight = icon_weight(name, icons)
    paint = icon_paint(name, icons) * size * size
    room = getattr(c, _PAINT_LEFT, 0.0)
    if weight > left or paint > room:
        setattr(c, _WEIGHT_LEFT, -1)
        setattr(c, _PAINT_LEFT, -1.0)
        return False
    setattr(c, _WEIGHT_LEFT, left - weight)
    setattr(c, _PAINT_LEFT, room - paint)
    return True


def inline_allowed(c: Canvas, wanted: int) -> int:
    """How many of `wanted` inline icons the face being drawn on `c` may still draw (all of
    them on a canvas no face started on), counted as drawn."""
    left = getattr(c, _INLINE_LEFT, None)
    if left is None:
        return wanted
    allowed = min(wanted, left)
    setattr(c, _INLINE_LEFT, left - allowed)
    return allowed


def load_svg(
    path: Path,
    display: str,
    icons: Path | None = None,
    game: Path | None = None,
    budget: Budget | None = None,
) -> tuple[SvgIcon | None, Problem | None]:
    """toolkit.render.svg_icons.load_svg, that module imported on first use."""
    from toolkit.render.svg_icons import load_svg as load

    return load(path, display, icons, game, budget)


@cache
def icon_set(game_root: Path | None) -> IconSet:
    """The icons of the game in `game_root` (the built-ins alone for None or no icons/)."""
    files = assets.in_game(assets.ICONS, game_root)
    refused = assets.refused(assets.ICONS, game_root)
    if not files and not refused:
        return BUILTIN
    from toolkit.render import svg_guard
    from toolkit.render.svg_guard import Budget
    from toolkit.render.svg_icons import Problem, pictures

    drawers: dict[str, Drawer] = dict(ICONS)
    problems = [Problem(found.display, Span(), found.outside) for found in refused]
    too_full = assets.too_full(assets.ICONS, game_root)
    if too_full and game_root is not None:
        problems.append(Problem(display_path(game_root / assets.ICONS.folder), Span(), too_full))
    broken: set[str] = set()
    drawn: dict[object, int] = {}  # the pictures of the icons kept, by picture: their pixels
    budget = Budget()  # what the icons read spent together (svg_guard.Budget), in name order
    for found in files:
        if not _NAME.fullmatch(found.path.stem):
            message = f"icon name {found.path.stem!r}: use a-z and _ only, as :name: is written"
            problems.append(Problem(found.display, Span(), message))
            continue
        icon, problem = load_svg(found.path, found.display, found.path.parent, game_root, budget)
        if icon is not None:
            more = {key: n for key, n in pictures(icon).items() if key not in drawn}
            if sum(drawn.values()) + sum(more.values()) > svg_guard.MAX_GAME_PICTURE_PIXELS:
                message = svg_guard.pictures_together()
                icon, problem = None, Problem(found.display, Span(), message)
            else:
                drawn |= more
        if icon is not None:
            drawers[found.path.stem] = icon
        if problem is not None:
            problems.append(problem)
            if icon is None:
                broken.add(found.path.stem)
    return IconSet(drawers, frozenset(drawers), tuple(problems), frozenset(broken - set(drawers)))


def draw_icon(
    c: Canvas,
    name: str,
    x: float,
    y: float,
    size: float,
    colour: str,
    icons: IconSet = BUILTIN,
) -> bool:
    """Draw icon `name` in a size×size box at (x, y); False if there is no such icon. On a
    card face, an icon past what the face may draw (`MAX_FACE_ICON_WEIGHT`) is left blank."""
    drawer = icons.drawers.get(name)
    if drawer is None:
        return False
    if not _face_allows(c, name, icons, size):
        return True  # its place kept blank: validate says P018
    c.saveState()
    c.translate(x, y)
    colour_value = HexColor(colour) if colour.startswith("#") else colour
    c.setFillColor(colour_value)
    c.setStrokeColor(colour_value)
    c.setLineWidth(max(0.4, size * 0.06))
    svg = _svg_icon(drawer)
    if svg is not None:
        svg.place(c, size, colour_value)  # once per PDF; currentColor in this colour
    else:
        drawer(c, size)
    c.restoreState()
    return True


BUILTIN_WEIGHT = 10
"""What a built-in icon (or a board glyph of a game's plugin) weighs as drawn elements
(`icon_weight`): a handful of paths and circles, a dozen operations at most."""


def icon_weight(name: str, icons: IconSet = BUILTIN) -> int:
    """What drawing icon `name` once costs a rasteriser, in drawn elements: an SVG icon's
    shapes and pictures (`svg_icons.SvgIcon.weight`), `BUILTIN_WEIGHT` for a built-in; 0
    for a name the set has no icon for (nothing is drawn). An SVG's dashes weigh too
    (`svg_icons.DASHES_PER_ELEMENT`)."""
    drawer = icons.drawers.get(name)
    if drawer is None:
        return 0
    svg = _svg_icon(drawer)
    return int(svg.weight) if svg is not None else BUILTIN_WEIGHT


def icon_paint(name: str, icons: IconSet = BUILTIN) -> float:
    """How many times over drawing icon `name` paints its box (`svg_icons.SvgIcon.coverage`),
    1 for a built-in; 0 for a name the set has no icon for."""
    drawer = icons.drawers.get(name)
    if drawer is None:
        return 0.0
    svg = _svg_icon(drawer)
    return float(svg.coverage) if svg is not None else 1.0


def icon_outline(name: str, icons: IconSet = BUILTIN) -> float:
    """How many times over icon `name`'s stroked outlines run across its box
    (`svg_icons.SvgIcon.outline`); 0 for a built-in or a name the set has no icon for."""
    drawer = icons.drawers.get(name)
    svg = _svg_icon(drawer) if drawer is not None else None
    return float(svg.outline) if svg is not None else 0.0


def icon_points(name: str, icons: IconSet = BUILTIN) -> float:
    """The points of icon `name`'s outlines a rasteriser reads and sets up at each use,
    whatever its size (`svg_icons.SvgIcon.points`); 0 for a built-in (priced with its
    element) or a name the set has no icon for."""
    drawer = icons.drawers.get(name)
    svg = _svg_icon(drawer) if drawer is not None else None
    return float(svg.points) if svg is not None else 0.0


def _svg_icon(drawer: Drawer) -> Any:
    """`drawer` when it is a game's SVG icon (svg_icons.SvgIcon), else None (a built-in)."""
    svg = sys.modules.get("toolkit.render.svg_icons")  # not loaded: no drawer is an SvgIcon
    return drawer if svg is not None and isinstance(drawer, svg.SvgIcon) else None
