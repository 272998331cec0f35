"""What rasterising a card face costs, from what its layout's elements paint (probe 51
P51-16/17).

The preview priced every face at ~4 ms (`face_budget.FACE_LETTERS`) and `export png` by its
pixels alone (`faces.MAX_EXPORT_PIXELS`), but PDFium fills each element whole: a face of 200
card-sized boxes with a 0.5 mm black stroke and 3 mm corners (a 26 kB layout) rasterised in
~40 ms at 150 dpi and ~130 ms at 300 dpi, where the scaffold's plain face takes ~1 and ~3 ms
(and encoding it ~2 and ~7 ms): the preview spent 40 s of CPU at start on 300 such cards, and
`export png --lang en` 43 s. A face here weighs, in the export's unit (one image pixel drawn
and encoded, ~11 ns), what its elements may paint at the dpi it is drawn at: each element's
`Element.paint_cost` (its box's area, a stroke's outline, round strokes more), whatever its
`when` (at most, from the layout alone: no card is resolved to weigh it).

Measured (pypdfium2, CPU ms a face on a loaded 2-core machine, 150 / 300 dpi; the plain
face 0.5 / 1.6): 200 card-sized filled boxes 31 / 107 (~1.3 ns a filled pixel); the same
with 0.5 mm strokes and 3 mm corners 40 / 129; 200 strokes alone, square 9 / 22, 5 mm wide
18 / 55, round 13 / 48, with 50 mm corners 32 / 67 (an outline pixel ~30 ns, and ~1.2 ns
more for each pixel of its width; three times as much round); 200 card-sized badges 20 / 64
(~1.7 ns a pixel of disc); 200 tiny boxes or badges ~1 ms (~5 µs each). The prices are
the costliest of those and a third more (the bound at 11 ns a pixel is 11 s): an export at
the bound also draws its PDF and runs its checks. With prices a third lower and the drawing
not counted, `export png` of 300 faces of 200 badges at the --dpi the bound let through was
12.6 s of CPU, of 200 strokes with 50 mm corners 14.4 s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FILL = 0.2
"""A pixel an element fills (a box, a disc, a picture or a text's box), in image pixels:
~1.3 to 1.7 ns of the ~11 an image pixel costs drawn and encoded (priced 2.2 ns)."""

EDGE = 4.5
"""A pixel of a stroke's outline (its length), in image pixels: ~30 ns (priced 50)."""

WIDTH = 0.15
"""Each pixel of a stroke's width along each pixel of its outline: ~1.2 ns."""

ROUND = 3.0
"""How much more a rounded outline costs to stroke than a straight one (measured 1.5 to 3)."""

ELEMENT = 800.0
"""Any element drawn, whatever its size: ~5 µs (200 tiny boxes, ~1 ms)."""

DRAWN_PIXELS = 900
"""Image pixels a unit of `Element.draw_cost` (~10 µs of drawing the PDF) is worth."""

PLAIN_DRAWN = 100
"""What drawing a plain face's elements weighs (`drawn_weight.most_weight`), within the price
of its pixels (measured on exports of such faces): the scaffold's `standard` weighs 76, the
bundled games' faces at most 42."""

MARGIN_MM = 6.0
"""How far past the trim an element may paint and still be rasterised (the bleed, both
sides); the rest is clipped away by the page."""


def px_per_mm(dpi: float) -> float:
    """Pixels a millimetre takes at `dpi`."""
    return dpi / 25.4


def layout_paint(layout: Any, card_mm: tuple[float, float], dpi: float) -> int:
    """What rasterising one face of `layout` on a card of that trim size (mm) at `dpi` may
    cost beyond the face's own pixels, in image pixels: each element's `paint_cost`, its
    box as the layout places it (clipped to the page)."""
    if layout is None:
        return 0
    width, height = card_mm
    total = 0.0
    for element in layout.elements:
        _, _, w, h = element.box.resolve(width, height)
        w = min(max(w, 0.0), width + MARGIN_MM)
        h = min(max(h, 0.0), height + MARGIN_MM)
        total += element.paint_cost(w, h, dpi)
    return int(total)


def filled(w_mm: float, h_mm: float, dpi: float) -> float:
    """What filling a box of w × h mm costs at `dpi` (FILL a pixel)."""
    scale = px_per_mm(dpi)
    return FILL * (w_mm * scale) * (h_mm * scale)


def stroked(w_mm: float, h_mm: float, width_mm: float, rounded: bool, dpi: float) -> float:
    """What stroking the outline of a box of w × h mm with a line `width_mm` wide costs at
    `dpi` (EDGE a pixel of outline, WIDTH more for each pixel of width; ROUND times that
    with rounded corners)."""
    scale = px_per_mm(dpi)
    outline = 2 * (w_mm + h_mm) * scale
    cost = outline * (EDGE + WIDTH * max(1.0, width_mm * scale))
    return cost * (ROUND if rounded else 1.0)


ICON_SHAPE = 150.0
"""A shape a game's SVG icon draws (`icons.icon_weight`, one use), in image pixels, whatever
the dpi: PDFium draws each shape of each use on its own."""

ICON_SHAPE_PER_DPI = 4.4
"""And for each dot per inch it is drawn at (a shape's outline is longer in pixels). 32
icons of 480 small stroked circles (15,400 shapes a face, under the face's bound) were ~90
ms a face in the preview at 150 dpi (probe 52-5) and ~0.17 s in `export png` at 244 dpi,
54 s for 300 faces (probe 52-4): ~530 and ~910 image pixels a shape; these price a third
more."""


ICON_EDGE = 12.0
"""A pixel of an SVG icon's outline, for each pass a rasteriser makes along it
(`svg_icons.SvgIcon.outline`), in image pixels, where a layout's stroke costs `EDGE`: an
icon's path may cross each pixel row thousands of times, and a pixel of it costs more the
more it crosses.
Measured (probe 62-1; CPU a use, loaded 2-core machine, 18 mm boxes at 75 and 150 dpi,
the time at 2 dpi taken off): zig-zags of 300 and 1,500 points filled 49 to 56 ns a pixel
of outline, of 6,000 points 60 to 77, of 24,000 points 90 to 98; gradient-filled (two
passes) 93 to 189, stroked thinly 92 to 148 (`svg_icons.PASSES`: three, for wide strokes):
~100 ns a pass; a third more. (Past some 4 M
pixels of outline a path, the cost grows more slowly: a full-card use of the 24,000 points
cost 0.27 s at 60 dpi, 0.41 at 300, priced more.)"""

ICON_POINT = 16.0
"""A point of an SVG icon's outlines, for each pass along them (`svg_icons.SvgIcon.points`),
in image pixels, whatever the dpi: PDFium parses the form's path again at every use and sets
up each of its edges. Measured on circles of 24,000 points (edges under a pixel, their
outline ~3 times the box: the time is the points'), 18 mm boxes, any dpi from 20 to 300:
0.13 µs a point filled (~0.09 of it reading the path), 0.23 gradient-filled (two passes,
and the path read a third time), 0.33 stroked (three): 0.13 µs a pass at most; a third
more. The icons' shapes' price (`ICON_SHAPE`) counts long paths too
(`svg_guard.NUMBERS_PER_ELEMENT`), but by the dpi: under its share at low dpi."""


PICTURE_PIXEL = 0.22
"""A pixel of a picture a face draws (`Element.pictures_drawn`), in image pixels: a
rasteriser decodes and resamples each picture whole for each face. 100 faces of two
full-card pictures of 40 M pixels each (the face's bound) took `export png` 14.5 s, ~1.8 ns
a picture pixel (probe 52-12); a third more."""


GLYPH_POINT = 2.0
"""An outline point of a game font's glyph drawn at one size in one document, in image
pixels, whatever the dpi: ~16 ns (7,650 (glyph, size) pairs of a 3,990-point glyph of 8 em:
0.5 s more than a 12-point glyph)."""

GLYPH_OUTLINE = 110.0
"""Each em of its outline, whatever the dpi: ~0.9 µs; and `GLYPH_EM` more for each pixel of
the size it is drawn at: ~27 ns. Measured on 7,650 (glyph, size) pairs of 87 em (400
points) at 20 to 36 points: 2.76 s more than a light glyph at 300 dpi, 1.71 s at 150."""

GLYPH_EM = 3.3
"""Each pixel of size a glyph is drawn at, for each em of its outline (see `GLYPH_OUTLINE`)."""

OVERPRINT_ADVANCE = 0.2
"""The least a letter advances along its line, in em: a line of a real font's letters
advances a quarter of an em a letter or more. Letters past what a line's width holds at
that are overprinted: a font whose glyphs advance nothing fits any text on one line, and
prints them all on one another (probe 62-6)."""

OVERPRINT_LETTER = 900.0
"""An overprinted letter, in image pixels, whatever its size: ~7.4 µs (312,000 letters of
12 points on 80 full-card boxes, 2.3 s more than the same boxes filled honestly)."""

GLYPH_INK = 0.25
"""A pixel of a glyph's box past `game_fonts.INK_ALLOWED`, for each letter drawn, in image
pixels: ~2.1 ns; and `GLYPH_INK_EM` for each square em of it, whatever the dpi: ~0.31 µs.
240,000 letters of 6 points in 8.8-em squares (under P009's reach; 76 em² each past the
allowance) took `export png --lang en` 28.5 s more than in a light font at 300 dpi, 5.7 s at
60 (probe 63-1); a third more."""

GLYPH_INK_EM = 40.0
"""See `GLYPH_INK`."""

OVERPRINT_INK = 0.033
"""And for each pixel of its em square at the dpi drawn: ~0.27 ns (the same at 96 points,
16 s)."""


LINE_EDGE = 20.5
"""A pixel of a board's styled line (`line_tally`), along it, in image pixels: ~50 ns (20,000
lines of 100 points) to ~130 ns at 150 dpi and ~170 at 300 (2,000 lines of 1,000 points a
point wide crossing one another on an A2 page: 0.56 and 1.42 s more than the blank page). A
third more."""

LINE_WIDTH = 0.04
"""And each pixel of its width along each pixel of its length: ~0.3 ns (the same lines 20
points wide, 0.2 s more at 300 dpi)."""

DASH_PER_DPI = 0.25
"""A dash of a board's dashed line, for each dot per inch it is drawn at: ~0.3 µs at 150 dpi
and ~0.63 at 300 (2,000 lines of 1,000 points dashed `[0.5, 0.5]`, a point wide: 1.4 and
3.3 s more than solid)."""

DASH_EDGE = 3.1
"""And each pixel of its outline across the line (twice the width, four times with caps):
~21 ns at 150 dpi and ~26 at 300 (the same 20 points wide: 4.1 and 9.9 s more than solid,
an A2 page; probe 62-8). A third more."""


@dataclass(frozen=True)
class FaceLoad:
    """What one face, or faces summed, draw beyond their elements' boxes: the shapes, the
    square points painted, the outlines' length and their points of the game's SVG icons,
    and the pixels of their pictures."""

    shapes: int = 0
    paint: float = 0.0
    pictures: int = 0
    outline: float = 0.0
    """Points (1/72 inch) of the icons' painted outlines, each pass counted
    (`svg_icons.SvgIcon.outline` times each use's size)."""
    points: float = 0.0
    """Points of the icons' outlines (their vertices), each pass and each use counted
    (`svg_icons.SvgIcon.points`): their cost does not fall with the dpi."""
    glyph_points: int = 0
    """Outline points of the game fonts' glyphs drawn, each (glyph, size) once
    (`glyph_weight.glyph_load`)."""
    glyph_outline: float = 0.0
    """Their em of outline."""
    glyph_em: float = 0.0
    """Their em of outline, each times the size (points) it is drawn at."""
    overprint: int = 0
    """Letters of the game fonts drawn past what their lines' widths hold
    (`OVERPRINT_ADVANCE`)."""
    overprint_ink: float = 0.0
    """Their em squares, in square points."""
    glyph_ink: float = 0.0
    """Square points the game fonts' letters paint past a real font's glyph box, each letter
    drawn counted (`game_fonts.excess_ink`)."""
    glyph_ink_em: float = 0.0
    """The same in square em (whatever the size)."""
    line_length: float = 0.0
    """Points of a board's styled lines stroked (`line_tally.LineTally`)."""
    line_area: float = 0.0
    """Their length times their width, in square points."""
    dashes: int = 0
    """Their dashes."""
    dash_outline: float = 0.0
    """The dashes' outlines across their lines, in points."""

    def __add__(self, other: FaceLoad) -> FaceLoad:
        return FaceLoad(
            self.shapes + other.shapes,
            self.paint + other.paint,
            self.pictures + other.pictures,
            self.outline + other.outline,
            self.points + other.points,
            self.glyph_points + other.glyph_points,
            self.glyph_outline + other.glyph_outline,
            self.glyph_em + other.glyph_em,
            self.overprint + other.overprint,
            self.overprint_ink + other.overprint_ink,
            self.glyph_ink + other.glyph_ink,
            self.glyph_ink_em + other.glyph_ink_em,
            self.line_length + other.line_length,
            self.line_area + other.line_area,
            self.dashes + other.dashes,
            self.dash_outline + other.dash_outline,
        )

    def most(self, other: FaceLoad) -> FaceLoad:
        """Each of the two loads' larger part."""
        return FaceLoad(
            max(self.shapes, other.shapes),
            max(self.paint, other.paint),
            max(self.pictures, other.pictures),
            max(self.outline, other.outline),
            max(self.points, other.points),
            max(self.glyph_points, other.glyph_points),
            max(self.glyph_outline, other.glyph_outline),
            max(self.glyph_em, other.glyph_em),
            max(self.overprint, other.overprint),
            max(self.overprint_ink, other.overprint_ink),
            max(self.glyph_ink, other.glyph_ink),
            max(self.glyph_ink_em, other.glyph_ink_em),
            max(self.line_length, other.line_length),
            max(self.line_area, other.line_area),
            max(self.dashes, other.dashes),
            max(self.dash_outline, other.dash_outline),
        )

    def share(self, part: float) -> FaceLoad:
        """That part of the load (a board's icons and glyphs on some of its pages)."""
        return FaceLoad(
            int(self.shapes * part),
            self.paint * part,
            int(self.pictures * part),
            self.outline * part,
            self.points * part,
            int(self.glyph_points * part),
            self.glyph_outline * part,
            self.glyph_em * part,
            int(self.overprint * part),
            self.overprint_ink * part,
            self.glyph_ink * part,
            self.glyph_ink_em * part,
            self.line_length * part,
            self.line_area * part,
            int(self.dashes * part),
            self.dash_outline * part,
        )


def face_load(items: list[Any], job: Any) -> FaceLoad:
    """What one resolved face draws of the game's SVG icons (`icons_load`) and of pictures
    (each image element's picture, whole), as a face draws them: at most what one face may
    (`pictures.MAX_FACE_PIXELS`; past it a face leaves them out). Its game fonts' glyphs:
    `glyph_weight.face_load_with_glyphs`."""
    from toolkit.render.pictures import MAX_FACE_PIXELS

    icons = icons_load(items, job.icons)
    drawn = sum(item.element.pictures_drawn(item, job) for item in items)
    return icons + FaceLoad(pictures=min(drawn, MAX_FACE_PIXELS))


def icons_load(items: list[Any], icons: Any) -> FaceLoad:
    """What the game's SVG icons one resolved face draws weigh (shapes, square points
    painted, points of outline, the outlines' own points), its icon elements and inline
    icons alike, as a face draws them: at most what one face may
    (`icons.MAX_FACE_ICON_WEIGHT`, `icons.MAX_FACE_ICON_PAINT`; past them it leaves the
    icons blank). A built-in icon is a few strokes, priced with its element."""
    from toolkit.render.icons import (
        ICONS,
        MAX_FACE_ICON_PAINT,
        MAX_FACE_ICON_WEIGHT,
        icon_outline,
        icon_paint,
        icon_points,
        icon_weight,
    )

    shapes, paint, outline, points = 0, 0.0, 0.0, 0.0
    for item in items:
        for name, side in item.element.icons_drawn(item, icons.names):
            if icons.drawers.get(name) is ICONS.get(name):
                continue
            shapes += icon_weight(name, icons)
            paint += icon_paint(name, icons) * side * side
            outline += icon_outline(name, icons) * side
            points += icon_points(name, icons)
    shapes, paint = min(shapes, MAX_FACE_ICON_WEIGHT), min(paint, float(MAX_FACE_ICON_PAINT))
    return FaceLoad(shapes, paint, 0, outline, points)


def load_price(load: FaceLoad, dpi: float) -> int:
    """What rasterising faces of that load (`face_load`, faces summed) costs at `dpi`, in
    image pixels: `ICON_SHAPE` and `ICON_SHAPE_PER_DPI` an icon's shape, `FILL` for each
    pixel their shapes paint, `ICON_EDGE` each pixel of their outlines, `ICON_POINT` each
    point of them, `PICTURE_PIXEL` a picture's pixel, and what the game fonts' glyphs and
    overprinted letters cost by their size (`glyph_weight`), `LINE_EDGE`, `LINE_WIDTH`,
    `DASH_PER_DPI` and `DASH_EDGE` what a board's styled lines and their dashes cost
    (`load_floor`: what is the same at any dpi)."""
    scale = dpi / 72.0
    icons = load.shapes * ICON_SHAPE_PER_DPI * dpi
    icons += load.paint * scale * scale * FILL + load.outline * scale * ICON_EDGE
    glyphs = load.glyph_em * scale * GLYPH_EM
    glyphs += load.overprint_ink * scale * scale * OVERPRINT_INK
    glyphs += load.glyph_ink * scale * scale * GLYPH_INK
    lines = load.line_length * scale * LINE_EDGE + load.line_area * scale * scale * LINE_WIDTH
    lines += load.dashes * DASH_PER_DPI * dpi + load.dash_outline * scale * DASH_EDGE
    return int(icons + glyphs + lines) + load_floor(load)


def load_floor(load: FaceLoad) -> int:
    """What of `load_price` no dpi lowers, in image pixels: `ICON_SHAPE` an icon's shape,
    `ICON_POINT` a point of their outlines, `PICTURE_PIXEL` a picture's pixel, and the game
    fonts' glyphs by their points and em of outline (`glyph_weight`) and overprinted
    letters."""
    floor = load.shapes * ICON_SHAPE + load.points * ICON_POINT
    floor += load.glyph_points * GLYPH_POINT + load.glyph_outline * GLYPH_OUTLINE
    floor += load.overprint * OVERPRINT_LETTER + load.glyph_ink_em * GLYPH_INK_EM
    return int(floor + load.pictures * PICTURE_PIXEL)
