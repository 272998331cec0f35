"""A board drawing put on paper: tiled over A4/Letter sheets, or whole on one large page.

Boards are designed at poster size (A2), bigger than a home printer's paper. The drawing is
stored once as a PDF form and each tile shows a clipped, translated view of it, so every page
stays vector and the file stays small. Tiles overlap by 15 mm; crosshairs printed in the
overlaps, at the same board position on both neighbours, make assembly a matter of lining
them up. A first page shows the whole board with the tile grid.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.render.fonts import font_name, text_width
from toolkit.render.line_tally import drawn_at
from toolkit.render.pdf import PAPERS, pdf_canvas
from toolkit.render.textfit import wrap

Faces = tuple[str, str]  # (regular, bold) faces: toolkit.render.fonts
MARGIN = 10 * mm  # unprinted border of every sheet; home printers cannot print to the edge
OVERLAP = 15 * mm
MIN_SCALE = 0.85  # a board may shrink this far to save sheets
POSTER = "a2"
FORM = "board"
INK = (0.15, 0.15, 0.15)
BLUE = HexColor("#1a59cc")

TEXT = {
    "fr": {
        "assembly": (
            "Assemblage\u00a0: imprimez les {n} pages suivantes à 100\u00a0% (sans «\u00a0ajuster "
            "à la page\u00a0»). Coupez les marges, superposez les bords voisins sur {ov}\u00a0mm "
            "et alignez les mires."
        ),
        "grid": "{cols}\u00a0×\u00a0{rows} feuilles {paper}, A1 en haut à gauche.",
        "scale": "Échelle du plateau\u00a0: {pc}\u00a0%.",
    },
    "es": {
        "assembly": (
            "Montaje: imprime las {n} páginas siguientes al 100\u00a0% (sin «ajustar a la "
            "página»). Recorta los márgenes, superpón los bordes vecinos {ov}\u00a0mm y alinea "
            "las cruces de registro."
        ),
        "grid": "{cols}\u00a0×\u00a0{rows} hojas {paper}, A1 arriba a la izquierda.",
        "scale": "Escala del tablero: {pc}\u00a0%.",
    },
    "en": {
        "assembly": (
            "Assembly: print the next {n} pages at 100\u00a0% (no “fit to page”). Trim the "
            "margins, overlap neighbouring edges by {ov}\u00a0mm and line up the crosshairs."
        ),
        "grid": "{cols}\u00a0×\u00a0{rows} sheets of {paper}, A1 at the top left.",
        "scale": "Board scale: {pc}\u00a0%.",
    },
}


@dataclass(frozen=True)
class Drawing:
    """A whole board in its own coordinates (points, origin at the bottom left)."""

    width: float
    height: float
    title: str
    draw: Callable[[Canvas], None]


def poster_area(landscape: bool) -> tuple[float, float]:
    """The size boards are designed at: an A2 sheet inside its margins (so A2 prints 1:1)."""
    w, h = PAPERS[POSTER]
    if landscape:
        w, h = h, w
    return w - 2 * MARGIN, h - 2 * MARGIN


def paper_size(name: str) -> tuple[float, float]:
    try:
        return PAPERS[name.lower()]
    except KeyError:
        known = ", ".join(PAPERS)
        raise ValueError(f"unknown paper {name!r} (known: {known})") from None


def paper_label(name: str) -> str:
    return name.upper() if name.lower().startswith("a") else name.capitalize()


def _oriented(page: tuple[float, float], landscape: bool) -> tuple[float, float]:
    w, h = sorted(page)
    return (h, w) if landscape else (w, h)


@dataclass(frozen=True)
class Grid:
    """How a drawing is cut into sheets: tile (row, col) shows a window of the drawing."""

    page: tuple[float, float]
    cols: int
    rows: int
    drawing: Drawing
    scale: float = 1.0  # slightly below 1 when that saves a row or column of sheets

    @property
    def width(self) -> float:
        return self.drawing.width * self.scale

    @property
    def height(self) -> float:
        return self.drawing.height * self.scale

    @property
    def window(self) -> tuple[float, float]:
        return self.page[0] - 2 * MARGIN, self.page[1] - 2 * MARGIN

    @property
    def step(self) -> tuple[float, float]:
        w, h = self.window
        return w - OVERLAP, h - OVERLAP

    @property
    def shift(self) -> tuple[float, float]:
        """How far the grid sticks out beyond the drawing on each side (it is centred)."""
        sx, sy = self.step
        return (
            (self.cols * sx + OVERLAP - self.width) / 2,
            (self.rows * sy + OVERLAP - self.height) / 2,
        )

    def tile(self, row: int, col: int) -> tuple[float, float]:
        """The bottom-left corner of a tile's window (row 0 on top), in the scaled drawing."""
        (sx, sy), (ox, oy) = self.step, self.shift
        top = self.height + oy - row * sy
        return col * sx - ox, top - self.window[1]

    def seams(self) -> tuple[list[float], list[float]]:
        """Centre lines of the overlaps: x of vertical seams, y of horizontal ones."""
        (sx, sy), (ox, oy) = self.step, self.shift
        xs = [(c + 1) * sx - ox + OVERLAP / 2 for c in range(self.cols - 1)]
        ys = [self.height + oy - (r + 1) * sy - OVERLAP / 2 for r in range(self.rows - 1)]
        return xs, ys

    def marks(self) -> list[tuple[float, float]]:
        """Crosshair positions: two per seam per tile, plus every seam crossing."""
        (w, h) = self.window
        xs, ys = self.seams()
        out = [(x, y) for x in xs for y in ys]
        for row in range(self.rows):
            y0 = self.tile(row, 0)[1]
            out += [(x, y0 + h * f) for x in xs for f in (0.3, 0.7)]
        for col in range(self.cols):
            x0 = self.tile(0, col)[0]
            out += [(x0 + w * f, y) for y in ys for f in (0.3, 0.7)]
        return out

    @staticmethod
    def name(row: int, col: int) -> str:
        letters = ""
        n = row
        while True:
            letters = chr(ord("A") + n % 26) + letters
            n = n // 26 - 1
            if n < 0:
                return f"{letters}{col + 1}"


def plan(drawing: Drawing, paper: tuple[float, float]) -> Grid:
    """The fewest sheets: either orientation, and shrinking the board down to MIN_SCALE when
    that saves a row or a column (then the largest scale, then portrait)."""
    best: tuple[tuple[int, float, int], Grid] | None = None
    for landscape in (False, True):
        page = _oriented(paper, landscape)
        sx, sy = page[0] - 2 * MARGIN - OVERLAP, page[1] - 2 * MARGIN - OVERLAP
        cols = max(1, math.ceil((drawing.width - OVERLAP) / sx - 1e-9))
        rows = max(1, math.ceil((drawing.height - OVERLAP) / sy - 1e-9))
        for c in sorted({cols, max(1, cols - 1)}):
            for r in sorted({rows, max(1, rows - 1)}):
                scale = min(
                    1.0, (c * sx + OVERLAP) / drawing.width, (r * sy + OVERLAP) / drawing.height
                )
                if scale < MIN_SCALE:
                    continue
                key = (c * r, -scale, int(landscape))
                if best is None or key < best[0]:
                    best = key, Grid(page, c, r, drawing, scale)
    assert best is not None
    return best[1]


def halo_text(
    c: Canvas, x: float, y: float, text: str, font: str, size: float, colour: Color, halo: float
) -> None:
    """Stroke the text in white, then fill it; the render mode is reset for later text."""
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(halo)
    c.setLineJoin(1)
    c.setFillColor(colour)
    t = c.beginText()
    t.setFont(font, size)
    t.setTextOrigin(x, y)
    t.setTextRenderMode(1)
    t.textOut(text)
    t.setTextOrigin(x, y)
    t.setTextRenderMode(0)
    t.textOut(text)
    c.drawText(t)


def _crosshair(canvas: Canvas, x: float, y: float) -> None:
    r = 2.2 * mm
    canvas.setStrokeColorRGB(1, 1, 1)
    canvas.setLineWidth(1.6)
    canvas.circle(x, y, r, stroke=1, fill=0)
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.45)
    canvas.circle(x, y, r, stroke=1, fill=0)
    arm = 4 * mm
    canvas.line(x - arm, y, x + arm, y)
    canvas.line(x, y - arm, x, y + arm)


def _define_form(canvas: Canvas, drawing: Drawing, index: int) -> str:
    name = f"{FORM}{index}"
    canvas.beginForm(name, lowerx=0, lowery=0, upperx=drawing.width, uppery=drawing.height)
    drawing.draw(canvas)
    canvas.endForm()
    return name


def _text(lang: str) -> dict[str, str]:
    return TEXT.get(lang, TEXT["en"])


def _overview(
    canvas: Canvas,
    grid: Grid,
    lang: str,
    heading: str,
    paper: str,
    form: str,
    faces: Faces = ("regular", "bold"),
) -> None:
    """First page: the board scaled down with the tile grid and how to assemble it, in the
    game's faces (regular, bold)."""
    regular, bold = faces
    drawing = grid.drawing
    page = _oriented(paper_size(paper), drawing.width > drawing.height)
    canvas.setPageSize(page)
    pw, ph = page
    width = pw - 2 * MARGIN
    canvas.setFillColorRGB(*INK)
    canvas.setFont(font_name(bold), 15)
    canvas.drawString(MARGIN, ph - MARGIN - 12, heading)
    text = _text(lang)
    n = grid.rows * grid.cols
    lines = wrap(text["assembly"].format(n=n, ov=round(OVERLAP / mm)), width, 9, regular, lang) or [
        text["assembly"]
    ]
    lines.append(text["grid"].format(cols=grid.cols, rows=grid.rows, paper=paper_label(paper)))
    if grid.scale < 0.995:
        lines[-1] += " " + text["scale"].format(pc=round(grid.scale * 100))
    canvas.setFont(font_name(regular), 9)
    y = ph - MARGIN - 30
    for line in lines:
        canvas.drawString(MARGIN, y, line)
        y -= 12
    top = y - 4
    area_w, area_h = width, top - MARGIN
    (sx, sy), (ox, oy) = grid.step, grid.shift
    (ww, wh) = grid.window
    full_w = grid.cols * sx + OVERLAP
    full_h = grid.rows * sy + OVERLAP
    scale = min(area_w / full_w, area_h / full_h)
    left = MARGIN + (area_w - full_w * scale) / 2 + ox * scale
    bottom = MARGIN + (area_h - full_h * scale) / 2 + oy * scale
    canvas.saveState()
    canvas.translate(left, bottom)
    canvas.scale(scale, scale)
    canvas.saveState()
    canvas.scale(grid.scale, grid.scale)
    canvas.doForm(form)
    canvas.restoreState()
    canvas.setStrokeColorRGB(0.5, 0.5, 0.5)
    canvas.setLineWidth(0.5 / scale)
    canvas.rect(0, 0, grid.width, grid.height, stroke=1, fill=0)
    canvas.setFillColor(BLUE)
    canvas.setFillAlpha(0.08)
    xs, ys = grid.seams()
    for x in xs:
        canvas.rect(x - OVERLAP / 2, -oy, OVERLAP, full_h, stroke=0, fill=1)
    for y in ys:
        canvas.rect(-ox, y - OVERLAP / 2, full_w, OVERLAP, stroke=0, fill=1)
    canvas.setFillAlpha(1)
    size = min(ww, wh) * 0.18
    for row in range(grid.rows):
        for col in range(grid.cols):
            x0, y0 = grid.tile(row, col)
            canvas.setStrokeColor(BLUE)
            canvas.setLineWidth(1.2 / scale)
            canvas.rect(x0, y0, ww, wh, stroke=1, fill=0)
            label = Grid.name(row, col)
            tx, ty = x0 + ww / 2, y0 + wh / 2 - size * 0.35
            halo_text(
                canvas,
                tx - text_width(label, size, bold) / 2,
                ty,
                label,
                font_name(bold),
                size,
                BLUE,
                size * 0.12,
            )
    canvas.restoreState()
    canvas.showPage()


def _tile_page(
    canvas: Canvas,
    grid: Grid,
    row: int,
    col: int,
    footer: str,
    form: str,
    faces: Faces = ("regular", "bold"),
) -> None:
    regular, bold = faces
    canvas.setPageSize(grid.page)
    (w, h) = grid.window
    x0, y0 = grid.tile(row, col)
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(MARGIN, MARGIN, w, h)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(MARGIN - x0, MARGIN - y0)
    canvas.saveState()
    canvas.scale(grid.scale, grid.scale)
    canvas.doForm(form)
    canvas.restoreState()
    for x, y in grid.marks():
        if x0 - 5 * mm < x < x0 + w + 5 * mm and y0 - 5 * mm < y < y0 + h + 5 * mm:
            _crosshair(canvas, x, y)
    canvas.restoreState()
    canvas.setStrokeColorRGB(0.6, 0.6, 0.6)
    canvas.setLineWidth(0.3)
    canvas.rect(MARGIN, MARGIN, w, h, stroke=1, fill=0)
    name = Grid.name(row, col)
    canvas.setFillColorRGB(*INK)
    canvas.setFont(font_name(bold), 9)
    canvas.drawString(MARGIN, MARGIN - 6.5 * mm, name)
    canvas.setFont(font_name(regular), 7)
    canvas.drawString(MARGIN + text_width(name, 9, bold) + 6, MARGIN - 6.5 * mm, footer)
    canvas.showPage()


def tiled_pdf(
    drawings: Sequence[Drawing],
    paper: str,
    lang: str,
    doc_title: str,
    faces: Faces = ("regular", "bold"),
) -> bytes:
    """For each drawing an overview page (unless it fits one sheet), then the drawing cut
    into overlapping sheets of `paper` (footers count the sheets of that drawing), its words
    in `faces`."""
    grids = [plan(drawing, paper_size(paper)) for drawing in drawings]
    with pdf_canvas(grids[0].page, doc_title, faces[0]) as (canvas, buffer):
        for index, (drawing, grid) in enumerate(zip(drawings, grids, strict=True)):
            form = _define_form(canvas, drawing, index)
            n = grid.rows * grid.cols
            if n > 1:  # one sheet needs no assembly map: it is the board itself
                _overview(canvas, grid, lang, drawing.title, paper, form, faces)
            for row in range(grid.rows):
                for col in range(grid.cols):
                    sheet = 1 + row * grid.cols + col
                    footer = f"{drawing.title}  ·  {sheet}/{n}"
                    _tile_page(canvas, grid, row, col, footer, form, faces)
        canvas.save()
    return buffer.getvalue()


def poster_pdf(
    drawings: Sequence[Drawing],
    paper: str,
    doc_title: str,
    bleed: float = 0.0,
    face: str = "regular",
) -> bytes:
    """Each drawing whole on one page of `paper`, scaled to fit inside the margins.

    With `bleed` (points, the press profile) each page is the paper plus the bleed all round,
    with TrimBox and BleedBox, and every page has the first drawing's orientation (a drawing
    the other way round is turned a quarter), so the file holds one trim size."""
    landscape_all = drawings[0].width > drawings[0].height if drawings else False
    with pdf_canvas(paper_size(paper), doc_title, face) as (canvas, buffer):
        for index, drawing in enumerate(drawings):
            landscape = drawing.width > drawing.height
            turned = bool(bleed) and landscape != landscape_all
            page = _oriented(paper_size(paper), landscape_all if bleed else landscape)
            pw, ph = page
            dw, dh = (drawing.height, drawing.width) if turned else (drawing.width, drawing.height)
            scale = min((pw - 2 * MARGIN) / dw, (ph - 2 * MARGIN) / dh)
            with drawn_at(scale):
                form = _define_form(canvas, drawing, index)
            canvas.setPageSize((pw + 2 * bleed, ph + 2 * bleed))
            if bleed:
                canvas.setTrimBox((bleed, bleed, bleed + pw, bleed + ph))
                canvas.setBleedBox((0, 0, pw + 2 * bleed, ph + 2 * bleed))
            canvas.saveState()
            canvas.translate(bleed + (pw - dw * scale) / 2, bleed + (ph - dh * scale) / 2)
            if turned:
                canvas.translate(dw * scale, 0)
                canvas.rotate(90)
            canvas.scale(scale, scale)
            canvas.doForm(form)
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()
