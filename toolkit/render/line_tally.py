"""What a board PDF being drawn strokes of its styled lines (links, routes, flights): their
length, their width along it, and their dashes, tallied as the drawing strokes each one.

A page's price counted its pixels and its icons, not its lines: PDFium draws a dashed line
one dash at a time, each a shape the line's width across, so 2,000 links 20 points wide
dashed `[0.5, 0.5]` on a graph board (an 88 kB game, validate clean) took `export png` 22.6
s of CPU where the same links solid took 4.9, and the preview's three board pages 13.4 s
(probe 62-8). Like `look.icons_tallied` and `glyph_tally.glyphs_tallied`, a board's PDF is
made first and priced after (`exports.pages`, the preview's page budget) from this tally
(`raster_weight.load_price`: `LINE_EDGE`, `DASH_PER_DPI`, `DASH_EDGE`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from toolkit.render.raster_weight import FaceLoad
from toolkit.render.tallies import tallying

CAPPED = frozenset(("round", "square", "keep"))
"""Caps that paint past each dash's ends, half the width each side (`keep`: the cap drawn
before, which may be one)."""


@dataclass
class LineTally:
    """The lines board drawings stroked, in page points (each drawing's scale on its page
    applied): their length, their length times width, their dashes, and the dashes'
    outlines across the line (twice the width a dash, four times with caps)."""

    length: float = 0.0
    area: float = 0.0
    dashes: int = 0
    dash_outline: float = 0.0

    def load(self, share: float = 1.0) -> FaceLoad:
        """As a FaceLoad, to price with a page's icons and glyphs: `share` of it (the pages
        of a document drawn, of all its pages)."""
        return FaceLoad(
            line_length=self.length * share,
            line_area=self.area * share,
            dashes=math.ceil(self.dashes * share),
            dash_outline=self.dash_outline * share,
        )


_TALLY: ContextVar[LineTally | None] = ContextVar("board line tally", default=None)
_SCALE: ContextVar[float] = ContextVar("board drawing scale", default=1.0)


@contextmanager
def lines_tallied() -> Iterator[LineTally]:
    """A tally of the lines the board drawings drawn inside stroke (in this thread)."""
    with tallying(_TALLY, LineTally()) as tally:
        yield tally


@contextmanager
def drawn_at(scale: float) -> Iterator[None]:
    """Lines stroked inside are drawn `scale` times their size on the page (a drawing made
    a form, then scaled to fit its page)."""
    token = _SCALE.set(scale)
    try:
        yield
    finally:
        _SCALE.reset(token)


def polyline_length(points: Sequence[tuple[float, float]]) -> float:
    """The length of the line through `points`."""
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))


def tally_line(length: float, width: float, dash: Sequence[float] | None, cap: str | None) -> None:
    """Count one stroked line of `length` (points, in the drawing) `width` wide, dashed as
    `dash` (none or empty: solid) with those caps, in the tally held open, if any."""
    tally = _TALLY.get()
    if tally is None or length <= 0:
        return
    from toolkit.content.models.board import dash_period

    scale = _SCALE.get()
    tally.length += length * scale
    tally.area += length * width * scale * scale
    if not dash:
        return
    period, each = dash_period(list(dash))
    if period <= 0:
        return
    count = math.ceil(length / period) * each  # the dash pattern is in the drawing's units
    tally.dashes += count
    tally.dash_outline += count * width * scale * (4 if cap in CAPPED else 2)
