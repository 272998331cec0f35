"""A game's own icons: SVG files in its `icons/` folder, drawn as vectors (svglib turns each
into a reportlab Drawing once; pages draw it scaled into the icon's box).

An SVG keeps its own colours: the designer drew it. Where it says `currentColor` (a fill or a
stroke), that part takes the colour it is printed in (a layout's `colour:`, the text's colour),
as the built-in icons do and as a browser does for an inline SVG, so one file serves every
colour. A file svglib cannot read is no icon and a positioned problem, which `validate`
reports (P008), never a traceback.
"""

from __future__ import annotations

import copy
import hashlib
import io
import math
import os
import re
import threading
import warnings
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.content.game import display_path
from toolkit.diagnostics import Span
from toolkit.fileio import FileVersion, file_version, open_regular, read_open, real_path, sparse
from toolkit.render import svg_fonts, svg_guard
from toolkit.render.stretch import stretch

if TYPE_CHECKING:  # svglib, lxml and reportlab.graphics load only for a game with SVG icons
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas  # and the canvas only to draw (see _probe)


@cache
def _quiet_svglib() -> None:
    """svglib logs what it cannot draw: those failures become P008, so its logger is silenced
    before svglib is first used (logging itself is imported only for a game with SVG icons)."""
    import logging

    logging.getLogger("svglib.svglib").setLevel(logging.CRITICAL)


MIN_SIZE, MAX_SIZE = 0.01, 1_000_000.0
"""An icon's own width and height (user units): it is scaled into its box, but reportlab
cannot write a page of 1e308 or 1e-308."""


@dataclass(frozen=True)
class Problem:
    """Why an SVG file gives no icon, where."""

    file: str
    span: Span
    message: str


# What `currentColor` resolves to while svglib reads the file (the `color` it inherits from
# outside the SVG); parts drawn in it are recoloured when the icon is drawn.
CURRENT = "#fd01fe"
USES_CURRENT = re.compile(rb"currentcolor", re.IGNORECASE)
OWN_COLOR = re.compile(r"(?:^|;)\s*color\s*:")  # the SVG root's own `color` in its style
PDF_STRING = re.compile(r"\((?:\\.|[^\\)])*\)")
NOT_A_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:nan|inf)(?!\w)", re.IGNORECASE)
"""What reportlab writes for a NaN or infinite number, without complaint (`nan nan nan nan 0
0 cm` from `transform="matrix(nan 0 0 nan 0 0)"`): no PDF reader draws that page."""


@dataclass(frozen=True)
class SvgIcon:
    """One SVG drawn in a unit square, its aspect ratio kept and centred; with `tinted`, its
    `currentColor` parts in the colour it is drawn in."""

    drawing: Drawing
    tinted: bool = False
    _by_colour: dict[str, Drawing] = field(default_factory=dict, compare=False, repr=False)

    def __call__(self, c: Canvas, size: float, colour: Any = None) -> None:
        from reportlab.graphics.renderbase import renderScaledDrawing

        drawing = self.drawing if colour is None or not self.tinted else self.coloured(colour)
        width, height = float(drawing.width), float(drawing.height)
        scale = size / max(width, height)
        c.translate((size - width * scale) / 2, (size - height * scale) / 2)
        c.scale(scale, scale)
        _picture_renderer()().draw(renderScaledDrawing(drawing), c, 0, 0)

    def place(self, c: Canvas, size: float, colour: Any = None) -> None:
        """Draw as calling the icon does, but its drawing written once per PDF (per colour
        for a tinted icon) as a form XObject, and each use one `Do` of that form: drawing an
        SVG costs about a millisecond per element, and a card text may print one icon
        hundreds of times (600 `:name:` of a 2,000-element icon took 70 s)."""
        drawing = self.drawing
        width, height = float(drawing.width), float(drawing.height)
        scale = size / max(width, height)
        c.translate((size - width * scale) / 2, (size - height * scale) / 2)
        c.scale(scale, scale)
        tinted = colour is not None and self.tinted
        c.doForm(_tinted_form(c, self, colour) if tinted else _form(c, self, drawing))

    @cached_property
    def weight(self) -> int:
        """What drawing it once costs a rasteriser, in drawn elements: each shape and group
        of its drawing (every <use> expanded, as svglib made it; `svg_guard.MAX_EXPANDED`
        at most), and each picture it draws, one element per `PIXELS_PER_ELEMENT` of its
        pixels. The PDF holds the icon once as a form, but a rasteriser (`export png`, the
        preview) draws every use of it whole: a face counts the weights of the icons it
        draws (toolkit.render.icons.icon_weight). The dashes of its dashed strokes count
        too, `DASHES_PER_ELEMENT` as one element: a rasteriser draws each dash."""
        from reportlab.graphics.shapes import Image as ImageShape

        shapes = _shapes(self.drawing)
        pixels = sum(
            shape.path.pixels
            for shape in shapes
            if isinstance(shape, ImageShape) and isinstance(shape.path, Picture)
        )
        numbers = sum(len(getattr(shape, "points", None) or ()) for shape in shapes)
        dashes = int(self.dashes) // DASHES_PER_ELEMENT
        return (
            len(shapes)
            + pixels // PIXELS_PER_ELEMENT
            + numbers // svg_guard.NUMBERS_PER_ELEMENT
            + dashes
        )

    @cached_property
    def dashes(self) -> float:
        """How many dashes its dashed strokes draw, each copy of a <use> counted
        (`_dashed`), at most `DASH_CAP`."""
        return min(sum(count for count, _, _ in _dashed(self.drawing)), DASH_CAP)

    @cached_property
    def coverage(self) -> float:
        """How many times over its shapes paint the icon's box, each shape's bounding box
        clipped as its form clips it (`FORM_MARGIN`): a rasteriser fills each shape's pixels,
        so one use costs about this times the pixels of the box it is drawn in. 1,990
        translucent circles each covering the box cost 9.9 s for one full-card use (probe
        48 N1), 1,990 small ones a hundredth of that; a gradient's pixels count more
        (`_shading`)."""
        width, height = float(self.drawing.width), float(self.drawing.height)
        pad = FORM_MARGIN * max(width, height)
        clip = (-pad, -pad, width + pad, height + pad)
        area = max(width * height, 1e-9)
        painted = 0.0
        for low_x, low_y, high_x, high_y, shading in _leaf_bounds(self.drawing):
            w = min(high_x, clip[2]) - max(low_x, clip[0])
            h = min(high_y, clip[3]) - max(low_y, clip[1])
            if w > 0 and h > 0:
                painted += w * h / area * shading
        clipped = (clip[2] - clip[0]) * (clip[3] - clip[1])
        for vertices, stroke_area in _stroke_joins(self.drawing):
            painted += vertices * min(stroke_area, clipped) / area
        return painted

    @cached_property
    def outline(self) -> float:
        """How many times over its shapes' outlines run across its box, once for each pass a
        rasteriser makes along them (`_outlines`: a fill one, a stroke and a gradient fill
        more, `PASSES`): their lengths (each group's scale applied) over the box's larger side. A
        rasteriser strokes every pixel of every outline, so one path of 24,000 segments
        zig-zagging across the box cost ~0.37 s a full-card use at 300 dpi while it weighed
        964 shapes (probe 54-8), and fills it as slowly (probe 60-2)."""
        side = max(float(self.drawing.width), float(self.drawing.height), 1e-9)
        return min(sum(_outlines(self.drawing)) / side, DASH_CAP)

    @cached_property
    def points(self) -> float:
        """The points of its shapes' outlines a rasteriser reads and sets up at each use,
        whatever the size it is drawn at (`_points`): once for each pass along them (a
        shape that paints nothing is still read once)."""
        return min(float(sum(_points(self.drawing))), DASH_CAP)

    def coloured(self, colour: Any) -> Drawing:
        """The drawing with its `currentColor` fills and strokes in `colour` (made once per
        colour; alpha from the SVG's own opacity kept)."""
        from reportlab.lib.colors import Color, toColor

        paint = toColor(colour)
        key = paint.hexval()
        made = self._by_colour.get(key)
        if made is None:
            made = copy.deepcopy(self.drawing)
            for shape in _shapes(made):
                for attr in ("fillColor", "strokeColor"):
                    value = getattr(shape, attr, None)
                    if isinstance(value, Color) and _is_current(value):
                        alpha = getattr(value, "alpha", 1)
                        setattr(shape, attr, Color(paint.red, paint.green, paint.blue, alpha))
            self._by_colour[key] = made
        return made


PIXELS_PER_ELEMENT = 8_000
"""Pixels of a picture an icon draws that weigh as one drawn element (`SvgIcon.weight`): a
rasteriser draws a 4000×4000 picture (`svg_guard.MAX_PIXELS`) in about the time of 2,000
shapes (999 uses of one on a card took `export png` 19 s, 999 uses of a 1,990-circle icon
14 s)."""


DASHES_PER_ELEMENT = 4
"""Dashes of an icon's dashed strokes (`stroke-dasharray`) that weigh as one drawn element
(`SvgIcon.weight`): PDFium draws each dash on its own, 0.3 to 0.46 µs a dash at 150 and 300
dpi once a dash is longer than ~0.05 device pixel (shorter ones it draws as a solid line),
however the dashes lie; a small circle of the 1,990-circle icon costs 1.5 µs (23 mm, 150
dpi) to 5.5 µs (50 mm, 300 dpi) filled, 2.9 to 11 µs stroked. One path of 20,000 segments
dashed every 0.1 unit (20 million dashes, a 168 kB icon) took `export png` 75 s for three
cards, with validate clean (probe 50 P50-1)."""

MAX_DASHES = svg_guard.MAX_EXPANDED * DASHES_PER_ELEMENT
"""Dashes one icon may draw: as many as weigh the `svg_guard.MAX_EXPANDED` elements it may
draw. A dashed circle of radius 40 (`stroke-dasharray="4 2"`) draws 42."""

DASH_CAP = 1e18
"""What the dashes of an icon are counted at most (a length over a period of 1e-300 is no
number a weight can hold)."""


FORM_MARGIN = 0.25
"""How far beyond its own box (its viewBox, times its width or height) a form keeps what an
icon draws: a form clips to its bounding box, as a browser clips an SVG to its viewport (a
stroke on the edge kept whole). Unclipped, an icon of 1,990 translucent circles of radius
100,000 painted the whole card, and one use took `export png` 9.9 s (probe 47 K9); clipped,
a shape costs the rasteriser at most its box's pixels."""

_FORMS = "_playset_icon_forms"  # the attribute of a canvas holding its icons' forms


def _form(c: Canvas, icon: SvgIcon, drawing: Drawing) -> str:
    """The name of the form XObject of `drawing` (one of `icon`'s) in the PDF of `c`: made
    at its first use in that PDF, named in the order forms are made (so a build writes the
    same bytes again)."""
    forms: dict[int, tuple[Drawing, str]] | None = getattr(c, _FORMS, None)
    if forms is None:
        forms = {}
        setattr(c, _FORMS, forms)
    made = forms.get(id(drawing))
    if made is not None and made[0] is drawing:
        return made[1]
    name = f"PlaysetIcon{len(forms)}"
    forms[id(drawing)] = (drawing, name)  # the drawing kept: its id is not reused
    _write_form(c, drawing, name)
    return name


_TINTS = "_playset_icon_tints"  # the attribute of a canvas holding its tinted icons' drawings


@dataclass(frozen=True)
class _Tint:
    """A tinted icon's drawing as written in a PDF, its `currentColor` parts in `CURRENT`:
    the form of each colour is these operators with `CURRENT`'s replaced by the colour's.
    Drawing a copy of the icon in each colour took ~90 ms a colour and kept each copy (500
    colours of a 1,700-element icon: 83 s and 1.4 GB from a 45 kB game: probe 23)."""

    drawing: Drawing  # kept: its id is the key
    box: tuple[float, float, float, float]
    code: tuple[str, ...]
    forms_in_use: tuple[Any, ...]
    shadings: dict[str, Any]
    colour_spaces: dict[str, Any]
    states: Any  # the transparency states its operators name (`/gRLs0 gs`: an opacity)


def _tinted_form(c: Canvas, icon: SvgIcon, colour: Any) -> str:
    """The name of the form XObject of `icon` in `colour` in the PDF of `c` (made at its
    first use, as `_form`'s): the icon is drawn once per PDF, its other colours' forms are
    its operators recoloured."""
    from reportlab.lib.colors import toColor

    paint = toColor(colour)
    forms: dict[Any, tuple[Drawing, str]] | None = getattr(c, _FORMS, None)
    if forms is None:
        forms = {}
        setattr(c, _FORMS, forms)
    key = (id(icon.drawing), paint.hexval()[:8])  # rgb alone: the SVG's opacities stay
    made = forms.get(key)
    if made is not None and made[0] is icon.drawing:
        return made[1]
    name = f"PlaysetIcon{len(forms)}"
    forms[key] = (icon.drawing, name)
    tints: dict[int, _Tint] = getattr(c, _TINTS, None) or {}
    setattr(c, _TINTS, tints)
    tint = tints.get(id(icon.drawing))
    if tint is None or tint.drawing is not icon.drawing:
        written = _write_form(c, icon.drawing, name, paint)
        assert written is not None  # with a paint, the drawing as written
        tints[id(icon.drawing)] = written
    else:
        _replay_form(c, tint, name, paint)
    return name


def _recoloured(code: list[str] | tuple[str, ...], paint: Any) -> list[str]:
    """`code` with the fill and stroke colour operators of `CURRENT` in `paint`'s colour."""
    from reportlab.lib.colors import toColor
    from reportlab.lib.rl_accel import fp_str

    current = toColor(CURRENT)
    was = fp_str(current.red, current.green, current.blue)
    now = fp_str(paint.red, paint.green, paint.blue)
    pairs = ((f"{was} rg", f"{now} rg"), (f"{was} RG", f"{now} RG"))
    out = []
    for line in code:
        if was in line:
            for old, new in pairs:
                line = line.replace(old, new)
        out.append(line)
    return out


def _replay_form(c: Canvas, tint: _Tint, name: str, paint: Any) -> None:
    """Write form XObject `name`: `tint`'s operators in `paint`'s colour, with its resources."""
    page: Any = c
    if not page._code:  # reportlab keeps a page's operators aside only if it has some
        c.saveState()
        c.restoreState()
    page.beginForm(name, *tint.box)
    page._code.extend(_recoloured(tint.code, paint))
    page._formsinuse.extend(tint.forms_in_use)
    page._shadingUsed.update(tint.shadings)
    page._colorsUsed.update(tint.colour_spaces)
    # (reportlab gives a form the states set while it is drawn: none here, its operators
    # name the first form's; an opacity was lost in every colour but the first: probe 24)
    _end_form(c, name, dict(tint.shadings), dict(tint.colour_spaces), tint.states)


def _write_form(c: Canvas, drawing: Drawing, name: str, paint: Any = None) -> _Tint | None:
    """Write `drawing` (in its own units, from its origin) as form XObject `name` of the PDF
    of `c`, with the resources it uses: reportlab gives a form its fonts, pictures and
    procedure sets but not the transparency states, shadings and colour spaces a page gets
    (an icon's opacity and gradients use them). With `paint`, its `currentColor` parts in
    that colour, and the drawing as written is returned for the icon's other colours."""
    from reportlab.graphics.renderbase import renderScaledDrawing

    width, height = float(drawing.width), float(drawing.height)
    pad = FORM_MARGIN * max(width, height)
    low_x, low_y, high_x, high_y = -pad, -pad, width + pad, height + pad
    page: Any = c
    if not page._code:  # reportlab keeps a page's operators aside only if it has some
        c.saveState()
        c.restoreState()
    box = (low_x, low_y, high_x, high_y)
    page.beginForm(name, *box)  # reportlab's stubs say int
    _picture_renderer()().draw(renderScaledDrawing(drawing), c, 0, 0)
    shadings, colour_spaces = dict(page._shadingUsed), dict(page._colorsUsed)
    if paint is None:
        _end_form(c, name, shadings, colour_spaces)
        return None
    code, in_use = tuple(page._code), tuple(page._formsinuse)
    page._code[:] = _recoloured(code, paint)
    states = _end_form(c, name, shadings, colour_spaces)
    return _Tint(drawing, box, code, in_use, shadings, colour_spaces, states)


def _end_form(
    c: Canvas,
    name: str,
    shadings: dict[str, Any],
    colour_spaces: dict[str, Any],
    states: Any = None,
) -> Any:
    """End form `name` and give it every resource its operators use (`states`: the
    transparency states they name, when not set while it was drawn); returns those."""
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, xObjectName

    page: Any = c
    c.endForm()
    form = page._doc.idToObject[xObjectName(name)]
    resources: Any = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    states = form.ExtGState or states
    if states:
        resources.ExtGState = states
    resources.setShading(shadings)
    resources.setColorSpace(colour_spaces)
    form.Resources = resources
    return states


def _is_current(value: Any) -> bool:
    return bool(value.hexval()[:8] == "0x" + CURRENT[1:])


def _shapes(node: Any) -> list[Any]:
    """Every shape of a drawing or group, nested groups included."""
    out = [node]
    for child in getattr(node, "contents", None) or []:
        out += _shapes(child)
    return out


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _leaf_bounds(node: Any, transform: tuple[float, ...] = _IDENTITY) -> list[tuple[float, ...]]:
    """The bounding box, in the drawing's own units, of each shape of a drawing or group that
    holds no other (its groups' transforms applied), with what a pixel of it costs to fill
    (`_shading`); a shape reportlab cannot measure is left out."""
    from reportlab.graphics.transform import mmult, transformPoint

    contents = getattr(node, "contents", None)
    if contents is None:
        try:
            bounds = node.getBounds()
        except Exception:  # noqa: BLE001 - a shape with no size (an empty path)
            return []
        if not bounds:
            return []
        low_x, low_y, high_x, high_y = bounds
        if getattr(node, "strokeColor", None) is not None:  # a stroke paints past its outline
            half = abs(float(getattr(node, "strokeWidth", 0) or 0)) / 2
            low_x, low_y, high_x, high_y = low_x - half, low_y - half, high_x + half, high_y + half
        corners = [
            transformPoint(transform, point)
            for point in ((low_x, low_y), (low_x, high_y), (high_x, low_y), (high_x, high_y))
        ]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return [(min(xs), min(ys), max(xs), max(ys), _shading(node))]
    own = getattr(node, "transform", None)
    if own is not None and tuple(own) != _IDENTITY:
        transform = tuple(mmult(transform, own))
    out: list[tuple[float, ...]] = []
    for child in contents:
        out += _leaf_bounds(child, transform)
    return out


RADIAL_SHADING = 12.0
"""A pixel a radial gradient fills, in plain fills: PDFium works the shading out at each
pixel of the clipped region, ~21 ns a pixel against ~2 for a plain fill (60 radial
gradients over the box of a full-card icon, ~0.7 s a face: probe 60-14)."""
LINEAR_SHADING = 2.0
"""A pixel a linear gradient fills, in plain fills (the same 60 as linear gradients, ~0.1 s
a face)."""


def _shading(shape: Any) -> float:
    """How many plain fills a shape's pixel costs: more for a gradient (`RADIAL_SHADING`,
    `LINEAR_SHADING`), 1 otherwise."""
    return _SHADINGS.get(type(shape).__name__, 1.0)  # svglib's classes, not imported here


_SHADINGS = {"RadialGradientShape": RADIAL_SHADING, "LinearGradientShape": LINEAR_SHADING}


def _stroke_joins(node: Any, transform: tuple[float, ...] = _IDENTITY) -> list[tuple[int, float]]:
    """(vertices, the square of its stroke's width) of each stroked shape, in the drawing's
    units (its groups' transforms applied): a rasteriser strokes each vertex's join or cap
    as a shape about a width across, however short the segments between (20,000 segments of
    0.01 unit stroked 100 wide with round joins cost 0.25 s a use: probe 50 P50-7), and
    each end of each dash its cap when caps are round or square (7,800 dashes of a circle
    stroked 100 wide with round caps, 2 s a face: probe 52-6), which the shape's bounding
    box does not see."""
    contents = getattr(node, "contents", None)
    if contents is None:
        if getattr(node, "strokeColor", None) is None:
            return []
        width = abs(float(getattr(node, "strokeWidth", 0) or 0))
        points = getattr(node, "points", None)
        vertices = len(points) // 2 if points else 4  # a line, rect, circle: a few
        if getattr(node, "strokeLineCap", 0) in (1, 2):  # round or square: two a dash
            vertices = int(min(vertices + 2 * _dashes(node), DASH_CAP))
        scale = abs(transform[0] * transform[3] - transform[1] * transform[2])
        stroke_area = width * width * scale
        return [(vertices, stroke_area)] if stroke_area > 0 and math.isfinite(stroke_area) else []
    own = getattr(node, "transform", None)
    if own is not None and tuple(own) != _IDENTITY:
        from reportlab.graphics.transform import mmult

        transform = tuple(mmult(transform, own))
    out: list[tuple[int, float]] = []
    for child in contents:
        out += _stroke_joins(child, transform)
    return out


PASSES = {"fillColor": 1, "strokeColor": 3}
"""How many times a rasteriser goes along a shape's outline for what it paints, as it costs: a
fill once, a stroke three times (the outline of the line it strokes is both its sides, and
each join a polygon of its own). Measured (PDFium, CPU a use, zig-zags of 1,500 to 24,000
points, 18 mm boxes): a stroke costs 1.5 to 2.5 times the fill of the same path at any dpi
(its points), and a pixel of its outline 2 times a fill's 0.05 units wide, 2.2 times 5
units wide, 2.8 times 20 units wide (6,000 points at 300 dpi: 82 ms a use filled, 163, 177
and 228 stroked)."""

GRADIENT_PASSES = 2
"""A gradient-filled shape's passes along its outline: svglib fills the path (under the
shading) and clips the shading to it (`path W* f*`, then the path again unpainted), each
a rasterising of the path. Measured 1.5 to 1.9 times the flat fill of the same path."""


def _passes(node: Any) -> int:
    """How many times a rasteriser goes along a shape's outline (`PASSES`, a gradient
    `GRADIENT_PASSES`); 0 for one that paints nothing."""
    if getattr(node, "_clip_shape", None) is not None and _shading(node) > 1:
        return GRADIENT_PASSES  # it holds the path as its clip, no fillColor (probe 61-3)
    return sum(count for kind, count in PASSES.items() if getattr(node, kind, None) is not None)


def _outlines(node: Any, scale: float = 1.0) -> list[float]:
    """The length of each painted shape's outline, in the drawing's units (its groups'
    scales applied: the most each transform stretches a line, `stretch`), once for its fill and
    once for its stroke: a rasteriser walks every edge of a filled shape across each pixel
    row it crosses as it strokes an outline (one filled path of 24,000 points zig-zagging
    across the box, ~0.4 s a full-card use: probe 60-2); a stroke's and a gradient fill's
    more than once, as they cost (`_passes`)."""
    contents = getattr(node, "contents", None)
    if contents is None:
        passes = _passes(node)
        clip = getattr(node, "_clip_shape", None)
        shape = clip if clip is not None and _shading(node) > 1 else node
        return [_stroke_length(shape) * scale * passes] if passes else []
    own = getattr(node, "transform", None)
    if own is not None and tuple(own) != _IDENTITY:
        scale *= stretch(own)
    out: list[float] = []
    for child in contents:
        out += _outlines(child, scale)
    return out


FEW_POINTS = 13
"""The points of a shape svglib makes without a list of them (a circle, an ellipse, a box,
a line): a circle is four curves of three points each, and its start."""


def _points(node: Any) -> list[int]:
    """The points of each shape's outline (a curve its three), once for each pass a
    rasteriser makes along it (`_passes`), at least once (a PDF reader parses a path it
    does not paint too): what drawing the icon costs at any size, beyond the pixels its
    outlines cross (`_outlines`)."""
    contents = getattr(node, "contents", None)
    if contents is None:
        clip = getattr(node, "_clip_shape", None)
        shape = clip if clip is not None and _shading(node) > 1 else node
        points = getattr(shape, "points", None)
        count = len(points) // 2 if points else FEW_POINTS
        return [count * max(1, _passes(node))]
    out: list[int] = []
    for child in contents:
        out += _points(child)
    return out


def _dashes(shape: Any) -> float:
    """How many dashes one shape's dashed stroke draws (`_dashed`), 0 if none."""
    return sum(count for count, _, _ in _dashed(shape))


def _dashed(drawing: Any) -> list[tuple[float, tuple[float, ...], float]]:
    """(dashes, dash array, length) of each dashed stroke of a drawing: each shape that
    strokes with a dash array, the length of its outline over its dash period (the sum of
    the array, twice that for an odd number of values, as PDF repeats it), both in the
    shape's own units (a transform scales them alike). A curve counts its control polygon,
    which is no shorter. A period that is no positive number counts none: reportlab refuses
    to write it (load_svg then refuses the icon)."""
    out = []
    for shape in _shapes(drawing):
        array = getattr(shape, "strokeDashArray", None)
        if not array or getattr(shape, "contents", None) is not None:
            continue
        if len(array) == 2 and isinstance(array[1], (list, tuple)):  # reportlab's (phase, array)
            array = array[1]
        try:
            values = tuple(float(v) for v in array)
        except (TypeError, ValueError):
            continue
        period = sum(values) * (2 if len(values) % 2 else 1)
        if not (period > 0 and math.isfinite(period)):
            continue
        if shape.getProperties().get("strokeColor") is None:  # as its renderer sees it
            continue  # not stroked (svglib's fill-only and clipping paths say so)
        length = _stroke_length(shape)
        if length > 0:
            out.append((min(length / period, DASH_CAP), values, length))
    return out


def _stroke_length(shape: Any) -> float:
    """The length of the outline a shape strokes, in its own units (an upper bound for a
    curve or a rounded corner); 0 for one reportlab cannot measure."""
    from reportlab.graphics.shapes import Circle, Ellipse, Line, Path, PolyLine, Rect

    try:
        if isinstance(shape, Circle):
            length = 2 * math.pi * abs(float(shape.r))
        elif isinstance(shape, Ellipse):
            length = 2 * math.pi * max(abs(float(shape.rx)), abs(float(shape.ry)))
        elif isinstance(shape, Rect):
            length = 2 * (abs(float(shape.width)) + abs(float(shape.height)))
        elif isinstance(shape, Line):
            length = math.hypot(shape.x2 - shape.x1, shape.y2 - shape.y1)
        elif isinstance(shape, Path):
            length = _path_length(shape)
        elif getattr(shape, "points", None):  # a polygon closes back to its first point
            length = _polyline_length(shape.points, closed=not isinstance(shape, PolyLine))
        else:  # a shape svglib does not make: the outline of its box, twice over
            low_x, low_y, high_x, high_y = shape.getBounds()
            length = 4 * ((high_x - low_x) + (high_y - low_y))
    except Exception:  # noqa: BLE001 - a shape reportlab cannot measure draws nothing
        return 0.0
    return length if math.isfinite(length) else DASH_CAP


def _polyline_length(points: Any, closed: bool) -> float:
    """The length of the line through `points` (flat x, y, x, y…), closed back to its first."""
    pairs = list(zip(points[0::2], points[1::2], strict=False))  # reportlab's are even
    length = sum(map(math.dist, pairs, pairs[1:]))
    if closed and len(pairs) > 1:
        length += math.dist(pairs[0], pairs[-1])
    return float(length)


def _path_length(path: Any) -> float:
    """The length of a reportlab path's segments (each curve its control polygon), each
    `closePath` back to its subpath's start."""
    from reportlab.graphics.shapes import (  # type: ignore[attr-defined]  # its operators
        _CLOSEPATH,
        _CURVETO,
        _LINETO,
        _MOVETO,
    )

    points = path.points
    length = 0.0
    at = start = (0.0, 0.0)
    i = 0
    for op in path.operators:
        if op == _MOVETO:
            at = start = (points[i], points[i + 1])
            i += 2
        elif op == _LINETO:
            to = (points[i], points[i + 1])
            length += math.dist(at, to)
            at, i = to, i + 2
        elif op == _CURVETO:
            one, two = (points[i], points[i + 1]), (points[i + 2], points[i + 3])
            to = (points[i + 4], points[i + 5])
            length += math.dist(at, one) + math.dist(one, two) + math.dist(two, to)
            at, i = to, i + 6
        elif op == _CLOSEPATH:
            length += math.dist(at, start)
            at = start
    return length


MAX_REACH = 4
"""How far beyond its own box (times its width or height) a shape of an icon may reach: what
lies outside the box plus `FORM_MARGIN` is clipped away, but a rasteriser still works
through the whole outline (32 circles of radius 100,000 in a 100-unit box took `export png`
of a board 17.7 s; probe 48 N2)."""


def _far_reaching(drawing: Any) -> bool:
    """Whether a shape of `drawing` reaches more than `MAX_REACH` times its size beyond it."""
    width, height = float(drawing.width), float(drawing.height)
    reach = MAX_REACH * max(width, height)
    return any(
        low_x < -reach or low_y < -reach or high_x > width + reach or high_y > height + reach
        for low_x, low_y, high_x, high_y, _ in _leaf_bounds(drawing)
    )


def load_svg(
    path: Path,
    display: str,
    icons: Path | None = None,
    game: Path | None = None,
    budget: svg_guard.Budget | None = None,
) -> tuple[SvgIcon | None, Problem | None]:
    """The icon in `path`, or None and a diagnostic at the line and column that fail.

    Checked first (svg_guard): its size, what its hrefs reach (only files inside `icons`,
    the game's icons/ folder; `path`'s own folder if None) and its <use> expansion. Then
    drawn once into a throwaway page, so a size or value reportlab cannot write (1e308) is
    a finding in validate, not a traceback in build.

    The file itself is read once, and only if the file opened lies inside `game` (the game
    folder; `icons`' parent if None), so a link switched after the caller's check is not
    followed out; svglib draws those same bytes. With `budget` (what the game's icons
    loaded before it spent), one that takes the game's icons past a bound of theirs together
    (`svg_guard.Budget`) is refused before svglib reads it, and once the bytes or elements
    of the icons read before it are at their bound, it is not read at all."""
    from lxml import etree

    icons = icons if icons is not None else path.parent
    spent = budget.spent() if budget is not None else ""
    if spent:
        return None, Problem(display, Span(), spent)
    try:
        data = svg_guard.read(path, game if game is not None else icons.parent)
        if budget is not None:
            budget.bytes += len(data)  # parsed at least once, whatever the verdict
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
    refusal = svg_guard.check(path, icons, data, budget)
    if refusal is not None:
        shown = display if refusal.path == path else display_path(refusal.path)
        return None, Problem(shown, Span(refusal.line, refusal.col), refusal.message)
    try:
        drawing, tinted = _read(path, icons, data)
    except MemoryError:  # its message is empty: say what it was
        message = "svglib cannot draw it: drawing it needs more memory than the machine gives"
        return None, Problem(display, Span(), message)
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
    stops = _gradient_stops(drawing)
    if stops > MAX_STOPS:
        gradient = next((e for e in root.iter() if _is_gradient(e)), root)
        message = (
            f"its gradients draw {stops:,} colour stops (more than {MAX_STOPS:,}): each shape"
            " filled with a gradient draws all of its stops; use fewer stops, or fill fewer"
            " shapes with it"
        )
        return None, Problem(display, Span(*svg_guard.column(text, gradient)), message)
    if _far_reaching(drawing):
        message = (
            f"a shape of it reaches more than {MAX_REACH} times its size beyond its box (what"
            " lies outside the box is not printed, but a picture of the card still traces"
            " it whole); keep its shapes near its viewBox"
        )
        return None, Problem(display, where, message)
    icon = SvgIcon(drawing, tinted)
    page = _probe()(io.BytesIO())
    try:
        icon(page, 10.0)
    except Exception as exc:  # reportlab refuses a value it cannot write (1e308, nan)
        reason = str(exc).splitlines()[-1].strip() if str(exc).strip() else type(exc).__name__
        message = f"it cannot be printed: a size or coordinate is out of range ({reason})"
        return None, Problem(display, where, message)
    if _not_a_number(page):
        message = (
            "it cannot be printed: a size, coordinate or transform is not a number (NaN or"
            " infinity)"
        )
        return None, Problem(display, where, message)
    if icon.dashes > MAX_DASHES:
        return None, _too_many_dashes(icon, display, text, root, where)
    return icon, None


def _too_many_dashes(icon: SvgIcon, display: str, text: str, root: Any, where: Span) -> Problem:
    """The problem of an icon whose dashed strokes draw more than `MAX_DASHES` dashes: at
    the element whose dash array draws most (as far as its own attribute or style says),
    naming that array."""
    count, values, length = max(_dashed(icon.drawing), key=lambda item: item[0])
    array = " ".join(f"{v:g}" for v in values)
    element = _dash_element(root, values)
    at = Span(*svg_guard.column(text, element)) if element is not None else where
    message = (
        f"its dashed strokes draw {icon.dashes:,.0f} dashes, more than the {MAX_DASHES:,} an"
        " icon may draw (a picture of the card draws each dash on its own): its"
        f' stroke-dasharray "{array}" on a stroke {length:,.4g} units long draws'
        f" {count:,.0f} of them; use longer dashes, or dash fewer or shorter strokes"
    )
    return Problem(display, at, message)


_DASH_STYLE = re.compile(r"(?:^|;)\s*stroke-dasharray\s*:([^;]*)", re.IGNORECASE)
_DASH_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _dash_element(root: Any, values: tuple[float, ...]) -> Any:
    """The first element whose own `stroke-dasharray` (attribute or style) holds `values`,
    else the first with one at all, else None (a dash array a <style> rule sets)."""
    first = None
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        found = _DASH_STYLE.search(element.get("style") or "")
        value = found.group(1) if found else element.get("stroke-dasharray")
        if value is None or value.strip().lower() in ("", "none"):
            continue
        first = first if first is not None else element
        numbers = tuple(float(n) for n in _DASH_NUMBER.findall(value))
        if len(numbers) == len(values) and all(
            math.isclose(a, b, rel_tol=1e-6) for a, b in zip(numbers, values, strict=True)
        ):
            return element
    return first


MAX_STOPS = svg_guard.MAX_EXPANDED
"""Colour stops an icon's gradients draw, each shape filled with one counted: svglib gives
every such shape its own shading of all the stops, written again at every draw (a 50 kB icon,
a 1,000-stop gradient on 480 <use> of one rectangle, took 1.3 s and 125 MB per card)."""


def _gradient_stops(drawing: Any) -> int:
    """Colour stops the gradient fills of a drawing hold, each shape's counted."""
    from svglib.svglib import LinearGradientShape, RadialGradientShape

    kinds = (LinearGradientShape, RadialGradientShape)
    return sum(len(s._rl_colors) for s in _shapes(drawing) if isinstance(s, kinds))


def _is_gradient(element: Any) -> bool:
    tag = element.tag
    return isinstance(tag, str) and tag.rsplit("}", 1)[-1] in ("linearGradient", "radialGradient")


def pictures(icon: SvgIcon) -> dict[object, int]:
    """The pictures an icon draws: their pixels, by picture (the same file, the same key)."""
    from reportlab.graphics.shapes import Image as ImageShape

    return {
        shape.path.key: shape.path.pixels
        for shape in _shapes(icon.drawing)
        if isinstance(shape, ImageShape) and isinstance(shape.path, Picture)
    }


@cache
def _probe() -> type[Canvas]:
    """The class of the throwaway page an icon is drawn on once when it is read: its
    pictures are placed, not embedded (compressing a 16 M-pixel picture takes a second).
    Made on first use: a run that reads no SVG icon (`validate` of a game without any)
    does not import reportlab's canvas."""
    from reportlab.pdfgen.canvas import Canvas

    class _Probe(Canvas):
        __doc__ = _probe.__doc__

    return _Probe


def _not_a_number(page: Canvas) -> bool:
    """Whether the page's drawing operators hold a NaN or an infinity (its texts aside)."""
    code = "\n".join(page._code)  # type: ignore[attr-defined]  # the page's operators
    return bool(NOT_A_NUMBER.search(PDF_STRING.sub("()", code)))


def _read(path: Path, icons: Path, data: bytes) -> tuple[Drawing | None, bool]:
    """svglib's drawing of `path`, whose bytes are `data` (the ones checked: the file is not
    opened again), with references only inside `icons`; and whether it uses `currentColor`
    (read then in CURRENT, unless the SVG itself gives its root a `color`)."""
    _quiet_svglib()
    from svglib.svglib import load_svg_file

    from toolkit.render import pictures

    pictures.confine()  # the pictures it draws go to Pillow: never to Ghostscript (EPS)
    root = load_svg_file(io.BytesIO(data))
    if root is None:
        return None, False
    tinted = bool(USES_CURRENT.search(data))
    if tinted:
        for element in root.iter():
            for name, value in element.attrib.items():
                if "currentcolor" in value.lower():
                    element.set(name, re.sub("(?i)currentcolor", "currentColor", value))
        if not root.get("color") and not OWN_COLOR.search(root.get("style") or ""):
            root.set("color", CURRENT)
    renderer = _icon_renderer()(
        str(path), font_map=svg_fonts.confined(), external_reference_root=str(real_path(icons))
    )
    try:
        drawing = renderer.render(root)
    finally:
        # the renderer sits in reference cycles, so what it holds lives until a cyclic
        # collection, and Pillow's pixels do not count towards one: 40 icons of 48 MB each
        # held 2.5 GB. The drawing keeps the pictures it draws.
        _release(renderer)
    _own_pictures(drawing)
    return drawing, tinted


def _release(renderer: Any) -> None:
    """Drop the pictures a renderer (and those of the SVG files it drew from) read."""
    renderer.__dict__.pop("_pictures", None)
    externals = getattr(renderer, "_external_svgs", None) or {}
    for external in externals.values():
        _release(external.renderer)
    externals.clear()


@cache
def _icon_renderer() -> type:
    """svglib's renderer, given the files an icon references as the bytes it reads itself,
    only if the file opened lies inside `external_reference_root` (the icons/ folder):
    svglib opens a referenced file by its name after svg_guard's check, a picture again at
    every draw. A picture becomes a `Picture` (decoded once per process: svglib decoded it
    for each <image>, then reportlab at every draw)."""
    _quiet_svglib()
    from svglib.svglib import ExternalSVG, SvgRenderer, load_svg_file

    class IconRenderer(SvgRenderer):
        def xlink_href_target(self, node: Any, group: Any = None) -> Any:
            value = node.attrib.get(svg_guard.HREFS[0]) or node.attrib.get("href") or ""
            iri = value.strip().split("#", 1)[0]
            base, inside = self.source_path, self.external_reference_root
            if not iri or iri.lower().startswith("data:") or not isinstance(base, str):
                return super().xlink_href_target(node, group)
            if os.path.isabs(iri) or inside is None:
                return None
            path = os.path.normpath(os.path.join(os.path.dirname(base), iri))
            if not path.endswith(".svg"):  # a picture: svglib would return its name
                # once per file and drawing, whatever `_read_picture` keeps: an icon naming
                # more files than it keeps, in turn, would read them at every <image>
                pictures = self.__dict__.setdefault("_pictures", {})
                if path not in pictures:
                    pictures[path] = _read_picture(Path(path), Path(inside))
                return pictures[path]
            if path != base and path not in self._external_svgs:
                try:
                    data = svg_guard.read(Path(path), Path(inside))
                except (OSError, ValueError):
                    return None
                external = ExternalSVG.__new__(ExternalSVG)  # as svglib's, on these bytes
                external.root_node = load_svg_file(io.BytesIO(data))
                external.renderer = IconRenderer(
                    path,
                    parent_svgs=[*self._parent_chain, str(base)],
                    external_reference_root=inside,
                )
                external.renderer._use_expansions = self._use_expansions
                external.rendered = False
                self._external_svgs[path] = external
            return super().xlink_href_target(node, group)

    return IconRenderer


def _read_picture(path: Path, icons: Path) -> Picture | None:
    """The picture file an icon's `<image>` names, as a `Picture`, or None (svglib then
    draws nothing there; svg_guard refused the icon already, with a finding at the element,
    unless the file changed since). The file is opened once and looked at before it is
    read: a sparse one, or one over `svg_guard.MAX_PICTURE_BYTES`, is never read. Each
    version of a file (its identity) is read once per process, however many `<image>` name
    it: each was read whole again (a sparse 63 MB picture named 1,000 times: 128 s)."""
    try:
        now = os.stat(path)  # a version read already is not opened again
        key = file_version(now)  # the file, whatever name or link it is read by
        with _READ_LOCK:
            if key in _READ:
                _READ.move_to_end(key)
                return _READ[key]
            held = _HELD.get(key)
            if held is not None:
                return held
        with open_regular(path, inside=icons) as (fd, info):
            key = file_version(info)
            picture = None
            if not sparse(fd, info) and info.st_size <= svg_guard.MAX_PICTURE_BYTES:
                data = read_open(fd, svg_guard.MAX_PICTURE_BYTES)
                picture = _picture(data) if len(data) == info.st_size else None
    except OSError:
        return None
    with _READ_LOCK:
        older = _LAST_READ.get(str(path))
        if older is not None and older != key:  # the file saved again: its old decode goes
            _READ.pop(older, None)
        _LAST_READ[str(path)] = key
        _READ[key] = picture
        while len(_READ) > KEPT_PICTURES:
            _READ.popitem(last=False)
        if picture is not None:
            _HELD[key] = picture
    return picture


KEPT_PICTURES = 8
"""Versions of picture files `_read_picture` keeps, the most recently used (an icon being
drawn keeps its own: `IconRenderer`)."""
_READ: OrderedDict[FileVersion, Picture | None] = OrderedDict()
_HELD: weakref.WeakValueDictionary[FileVersion, Picture] = weakref.WeakValueDictionary()
"""Every version of a picture file some kept icon drawing still holds: icons drawing more
files than KEPT_PICTURES between them decoded each again for each icon, the drawings holding
all the copies (100 icons of the same nine 1.7 M-pixel PNGs: 1.26 GB; probe 66-3). Both are
keyed by the file itself (device, inode, version), not by the name it is read by: 40 links
to one 16 M-pixel picture were 40 decodes (2.6 GB; probe 68-1)."""
_LAST_READ: dict[str, FileVersion] = {}
"""The version of each picture file read last, by its path: in the preview each save of a
picture was one more version kept, none drawn (a 16 M-pixel picture saved 8 times held
633 MB; probe 68-4)."""
_READ_LOCK = threading.Lock()  # the preview draws in threads


def _picture(data: bytes) -> Picture | None:
    """The picture of a file's bytes, or None if Pillow reads none (svglib skips it too)."""
    from PIL.Image import DecompressionBombError

    try:
        return _decoded(data)
    except (OSError, ValueError, DecompressionBombError):
        return None


class Picture:
    """A picture an icon draws: decoded once, embedded once per PDF (an XObject) however
    many icons, cards and pages draw it. svglib gives the path of a referenced picture, and
    reportlab's renderer decodes and embeds it again (inline) at every draw: 20 icons of one
    16 M-pixel PNG took minutes to check and to print."""

    def __init__(self, image: Any, key: object = None) -> None:
        from reportlab.lib.utils import ImageReader

        self.key = key if key is not None else id(self)  # the same picture, the same key
        self.pixels = image.size[0] * image.size[1]
        self.image: Any = image  # decoded (as the reader holds it), for a resampled copy
        self.reader = ImageReader(image)
        self.size = self.reader.getSize()  # as svglib reads a PIL image's
        self._digest: str | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Picture:
        return self  # shared by an icon's drawings in each colour (SvgIcon.coloured)

    def draw(self, c: Canvas, x: float, y: float, width: float, height: float) -> None:
        """As reportlab's `drawImage` (no mask, as its inline images), the picture's digest
        computed once, not at every draw, and its image object made once a run, not once a
        PDF (`picture_objects`): a 16 M-pixel picture in an icon on 5 cards took the build
        of 20 languages 5.1 s beyond the same game's without it (the same bytes). In a PDF
        only rasterised, a copy of at most twice the pixels of its pages' longer side
        (`picture_scaled.within`: the icon's form is written once for every size it is
        drawn at): PDFium decoded the 16 M pixels in each language's document, 4 s more."""
        from reportlab.pdfbase import pdfdoc
        from reportlab.pdfgen.canvas import _digester  # type: ignore[attr-defined]

        from toolkit.render import picture_objects, picture_scaled

        if isinstance(c, _probe()):  # where and how large, not the pixels
            c.saveState()
            c.translate(x, y)
            c.scale(width, height)
            c.restoreState()
            return
        if self._digest is None:
            self._digest = _digester(self.reader.getRGBData() + b"None")
        digest = self._digest
        side = picture_objects.raster_side(c)
        size = None if side is None else picture_scaled.within(self.size, side)
        if size is not None:  # a PDF only rasterised, to pages of at most `side` pixels
            digest = _digester(f"{self._digest}@{size[0]}x{size[1]}".encode())

        def make() -> Any:
            reader = self.reader if size is None else self._copy(size)
            return pdfdoc.PDFImageXObject(digest, reader, mask=None)

        picture_objects.put_object(c, digest, ("icon picture", digest), make)
        doc = c._doc  # type: ignore[attr-defined]
        name = doc.getXObjectName(digest)
        c._currentPageHasImages = 1  # type: ignore[attr-defined]
        c.saveState()
        c.translate(x, y)
        c.scale(width, height)
        c._code.append(f"/{name} Do")  # type: ignore[attr-defined]
        c.restoreState()
        c._formsinuse.append(digest)  # type: ignore[attr-defined]

    def _copy(self, size: tuple[int, int]) -> Any:
        """The picture resampled to `size` (a box filter), its alpha dropped first as
        reportlab draws it here (no mask), as reportlab's ImageReader."""
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        image = self.image
        flat = image if image.mode in ("L", "RGB", "CMYK") else image.convert("RGB")
        return ImageReader(flat.resize(size, Image.Resampling.BOX))


def _decoded(data: bytes) -> Picture:
    """The picture of a file's bytes (decoded once per version of the file: `_read_picture`
    keeps it)."""
    from PIL import Image

    from toolkit.render import pictures

    with warnings.catch_warnings():  # its pixels are bounded by svg_guard
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        picture = Image.open(io.BytesIO(data))
        width, height = picture.size
        if width * height > svg_guard.MAX_PIXELS:  # the file svg_guard saw was another
            raise ValueError("too many pixels")
        paid = pictures.paid_bytes(data)
        if pictures.unpaid_pixels(width * height, paid) > svg_guard.MAX_UNPAID_PIXELS:
            raise ValueError("too many pixels for its bytes")
        if (
            picture.format in ("JPEG", "MPO")
            and pictures.jpeg_scans(data) > pictures.MAX_JPEG_SCANS
        ):
            raise ValueError("a JPEG of too many scans")
        picture.load()
    return Picture(picture, hashlib.sha256(data).digest())


def _own_pictures(drawing: Any) -> None:
    """Give each picture of `drawing` as a `Picture`: a data: URI's picture as svglib
    decoded it (a referenced file's is one already); anything else is not drawn."""
    from reportlab.graphics.shapes import Image as ImageShape

    for shape in _shapes(drawing):
        if isinstance(shape, ImageShape) and not isinstance(shape.path, Picture):
            shape.path = Picture(shape.path) if hasattr(shape.path, "mode") else None


@cache
def _picture_renderer() -> type:
    """reportlab's PDF renderer, drawing an icon's pictures as `Picture`s (made on first
    use: reportlab.graphics loads only for a game with SVG icons)."""
    from reportlab.graphics.renderPDF import _PDFRenderer

    class PictureRenderer(_PDFRenderer):
        def drawImage(self, image: Any) -> None:
            if isinstance(image.path, Picture):
                canvas = self._canvas  # type: ignore[attr-defined]
                image.path.draw(canvas, image.x, image.y, image.width, image.height)
            elif image.path is not None:
                super().drawImage(image)

    return PictureRenderer
