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

from collections.abc import Mapping
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

OVERPRINT_ADVANCE = 0.2
"""The least a letter advances along its line, in em: a line of a real font's letters
advances a quarter of an em a letter or more. Letters past what a line's width holds at
that are overprinted: a font whose glyphs advance nothing fits any text on one line, and
prints them all on one another (probe 62-6)."""

OVERPRINT_LETTER = 900.0
"""An overprinted letter, in image pixels, whatever its size: ~7.4 µs (312,000 letters of
12 points on 80 full-card boxes, 2.3 s more than the same boxes filled honestly)."""

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
    """What one face, or faces summed, draw beyond their elements' boxes: the shapes and the
    square points painted of the game's SVG icons, and the pixels of their pictures."""

    shapes: int = 0
    paint: float = 0.0
    pictures: int = 0
    outline: float = 0.0
    """Points of the icons' stroked outlines (`svg_icons.SvgIcon.outline` times each use's
    size)."""
    glyph_points: int = 0
    """Outline points of the game fonts' glyphs drawn, each (glyph, size) once (`glyph_load`)."""
    glyph_outline: float = 0.0
    """Their em of outline."""
    glyph_em: float = 0.0
    """Their em of outline, each times the size (points) it is drawn at."""
    overprint: int = 0
    """Letters of the game fonts drawn past what their lines' widths hold
    (`OVERPRINT_ADVANCE`)."""
    overprint_ink: float = 0.0
    """Their em squares, in square points."""
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
            self.glyph_points + other.glyph_points,
            self.glyph_outline + other.glyph_outline,
            self.glyph_em + other.glyph_em,
            self.overprint + other.overprint,
            self.overprint_ink + other.overprint_ink,
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
            max(self.glyph_points, other.glyph_points),
            max(self.glyph_outline, other.glyph_outline),
            max(self.glyph_em, other.glyph_em),
            max(self.overprint, other.overprint),
            max(self.overprint_ink, other.overprint_ink),
            max(self.line_length, other.line_length),
            max(self.line_area, other.line_area),
            max(self.dashes, other.dashes),
            max(self.dash_outline, other.dash_outline),
        )


def face_load(items: list[Any], job: Any, glyphs: Glyphs | None = None) -> FaceLoad:
    """What one resolved face draws of the game's SVG icons (`icons_load`), of pictures
    (each image element's picture, whole), as a face draws them: at most what one face may
    (`pictures.MAX_FACE_PIXELS`; past it a face leaves them out), and of the game fonts'
    glyphs (`glyph_load`); with `glyphs`, those are added to it instead (faces of one
    document rasterise a glyph at a size once)."""
    from toolkit.render.pictures import MAX_FACE_PIXELS

    shapes, paint, outline = icons_load(items, job.icons)
    drawn = sum(item.element.pictures_drawn(item, job) for item in items)
    load = FaceLoad(shapes, paint, min(drawn, MAX_FACE_PIXELS), outline)
    if glyphs is not None:
        glyph_load(items, job, glyphs)
        return load
    own = Glyphs()
    glyph_load(items, job, own)
    why = own.problem()
    if why is not None:
        raise GlyphsRefused(why)
    return load + own.load()


class Glyphs:
    """The game fonts' characters a document draws, by font and size, and its letters drawn
    past what their lines hold (`glyph_load`)."""

    def __init__(self) -> None:
        self.drawn: dict[tuple[str, float], set[str]] = {}
        self.files: Mapping[str, str] = {}  # each game font's file, as the findings name it
        self.overprint = 0
        self.overprint_ink = 0.0

    def load(self) -> FaceLoad:
        """Their outline points and em × size (`game_fonts.outline_sums`), as a FaceLoad."""
        from toolkit.render.game_fonts import outline_sums

        points, outline, em = 0, 0.0, 0.0
        for (font, size), characters in self.drawn.items():
            more, length = outline_sums(font, characters)
            points, outline, em = points + more, outline + length, em + length * size
        return FaceLoad(
            glyph_points=points,
            glyph_outline=outline,
            glyph_em=em,
            overprint=self.overprint,
            overprint_ink=self.overprint_ink,
        )

    def problem(self) -> str | None:
        """Why a game font cannot draw the characters drawn in it (`game_fonts.reach_problem`,
        P009's bounds on a glyph), with its file: `validate` judges the characters a game
        writes, and a layout's template may print others (probe 62-5)."""
        from toolkit.render.game_fonts import reach_problem

        fonts: dict[str, set[str]] = {}
        for (font, _), characters in self.drawn.items():
            fonts.setdefault(font, set()).update(characters)
        for font, characters in sorted(fonts.items()):
            why = reach_problem(font, characters)
            if why is not None:
                return f"{self.files.get(font, font)}: {why} (P009)"
        return None


class GlyphsRefused(ValueError):
    """A face draws a glyph of a game font past P009's bounds (`Glyphs.problem`)."""


def glyph_load(items: list[Any], job: Any, glyphs: Glyphs) -> None:
    """Add to `glyphs` the characters one resolved face draws in the game's own fonts
    (`Element.glyphs_drawn`): a rasteriser walks a glyph's outline for each size a document
    prints it at, so 450 distinct glyphs of 87 em at 17 sizes in 10 languages took `export
    png` of a 70 kB game 26 s more than a light font (probe 62-2). The toolkit's own fonts
    are light (under 30 em a glyph) and are not counted."""
    from toolkit.render.printjob import game_fonts

    own = game_fonts(job.game).files
    if not own:
        return
    glyphs.files = own
    for item in items:
        for font, size, text in item.element.glyphs_drawn(item, job):
            if font not in own:
                continue
            glyphs.drawn.setdefault((font, round(size, 3)), set()).update(text)
            overprinted(glyphs, font, size, text)


def overprinted(glyphs: Glyphs, font: str, size: float, text: str) -> None:
    """Add to `glyphs` the letters of a line of `text` drawn past what its width holds at
    `OVERPRINT_ADVANCE` an em a letter."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if size <= 0:
        return
    holds = stringWidth(text, font, size) / (OVERPRINT_ADVANCE * size) + 1
    letters = len(text) - text.count(" ")
    if letters > holds:
        glyphs.overprint += int(letters - holds)
        glyphs.overprint_ink += (letters - holds) * size * size


def icons_load(items: list[Any], icons: Any) -> tuple[int, float, float]:
    """(shapes, square points painted, points of stroked outline) of the game's SVG icons
    one resolved face draws, its
    icon elements and inline icons alike, as a face draws them: at most what one face may
    (`icons.MAX_FACE_ICON_WEIGHT`, `icons.MAX_FACE_ICON_PAINT`; past them it leaves the
    icons blank). A built-in icon is a few strokes, priced with its element."""
    from toolkit.render.icons import (
        ICONS,
        MAX_FACE_ICON_PAINT,
        MAX_FACE_ICON_WEIGHT,
        icon_outline,
        icon_paint,
        icon_weight,
    )

    shapes, paint, outline = 0, 0.0, 0.0
    for item in items:
        for name, side in item.element.icons_drawn(item, icons.names):
            if icons.drawers.get(name) is ICONS.get(name):
                continue
            shapes += icon_weight(name, icons)
            paint += icon_paint(name, icons) * side * side
            outline += icon_outline(name, icons) * side
    return min(shapes, MAX_FACE_ICON_WEIGHT), min(paint, float(MAX_FACE_ICON_PAINT)), outline


def load_price(load: FaceLoad, dpi: float) -> int:
    """What rasterising faces of that load (`face_load`, faces summed) costs at `dpi`, in
    image pixels: `ICON_SHAPE` and `ICON_SHAPE_PER_DPI` an icon's shape, `FILL` for each
    pixel their shapes paint, `EDGE` each pixel of their stroked outlines, `PICTURE_PIXEL`
    a picture's pixel, `GLYPH_POINT`, `GLYPH_OUTLINE` and `GLYPH_EM` what the game
    fonts' glyphs cost, and `LINE_EDGE`, `LINE_WIDTH`, `DASH_PER_DPI` and `DASH_EDGE` what a
    board's styled lines and their dashes cost."""
    scale = dpi / 72.0
    icons = load.shapes * (ICON_SHAPE + ICON_SHAPE_PER_DPI * dpi)
    icons += load.paint * scale * scale * FILL + load.outline * scale * EDGE
    glyphs = load.glyph_points * GLYPH_POINT + load.glyph_outline * GLYPH_OUTLINE
    glyphs += load.glyph_em * scale * GLYPH_EM
    glyphs += load.overprint * OVERPRINT_LETTER + load.overprint_ink * scale * scale * OVERPRINT_INK
    lines = load.line_length * scale * LINE_EDGE + load.line_area * scale * scale * LINE_WIDTH
    lines += load.dashes * DASH_PER_DPI * dpi + load.dash_outline * scale * DASH_EDGE
    return int(icons + load.pictures * PICTURE_PIXEL + glyphs + lines)
