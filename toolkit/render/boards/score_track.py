"""Score tracks: numbered squares in a rectangular loop around a landscape page, clockwise
from the top-left corner, the board's name in the middle.

The top and bottom rows hold square cells; the two sides share the rest, so their cells are
as near square as the count allows (one side may hold one cell more). Multiples of
`emphasis` are larger and in the `fifth` space style's colour; an icon sits above a number.
A count the page cannot hold at `MIN_CELL_MM` a cell has no plan (`validate` says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.content.models.score_track import ScoreTrackBoard
from toolkit.render.boards.look import ICON_SIDE, Look
from toolkit.render.fonts import text_width
from toolkit.render.pdf import PAPERS
from toolkit.render.tiling import MARGIN, Drawing

MIN_CELL_MM = 9.0  # a pawn or a cube must fit a square
EDGE = 4 * mm  # between the drawing's edge and the loop
INK = HexColor("#1e1e1e")
BACK = HexColor("#fbf8f1")
SQUARE = "#fffdf7"  # an unstyled square: light, so the numbers and fifths read
ICON_RADIUS = 0.22  # a square's icon, in the square's side: above its number

PHRASES = {
    "fr": "une piste de score {first}–{last}",
    "es": "un marcador de puntos {first}–{last}",
    "en": "a score track {first}–{last}",
}


@dataclass(frozen=True)
class Cell:
    """One square: its number and its box in points (origin at the drawing's bottom left)."""

    number: int
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class ScorePlan:
    width: float
    height: float
    cells: tuple[Cell, ...]
    inner: tuple[float, float, float, float]  # the free middle: x, y, w, h


def drawing_size(board: ScoreTrackBoard) -> tuple[float, float]:
    """The board's page (landscape) inside the sheet margins: it prints on one sheet."""
    w, h = sorted(PAPERS[board.paper], reverse=True)
    return w - 2 * MARGIN, h - 2 * MARGIN


def plan_score(board: ScoreTrackBoard) -> ScorePlan | None:
    """The loop with the squarest cells that holds `count`, or None if even the best one
    has a cell under MIN_CELL_MM."""
    width, height = drawing_size(board)
    inner_w, inner_h = width - 2 * EDGE, height - 2 * EDGE
    best: tuple[float, int, int, int] | None = None
    for across in range(2, board.count // 2):
        side = board.count - 2 * across
        right, left = side // 2, side - side // 2
        cell = inner_w / across
        free = inner_h - 2 * cell
        if right < 1 or free <= 0:
            continue
        smallest = min(cell, free / left)
        if smallest < MIN_CELL_MM * mm:
            continue
        skew = abs(math.log(free / left / cell)) + abs(math.log(free / right / cell))
        if best is None or skew < best[0]:
            best = (skew, across, right, left)
    if best is None:
        return None
    _, across, right, left = best
    cells = _cells(board, inner_w, inner_h, across, right, left)
    return ScorePlan(width, height, cells, _middle(width, height, inner_w / across))


def _middle(width: float, height: float, cell: float) -> tuple[float, float, float, float]:
    pad = EDGE + cell + 6 * mm
    return pad, pad, width - 2 * pad, height - 2 * pad


def _cells(
    board: ScoreTrackBoard, inner_w: float, inner_h: float, across: int, right: int, left: int
) -> tuple[Cell, ...]:
    """Clockwise from the top-left corner: top row, right side, bottom row, left side."""
    cell = inner_w / across
    x0, y0 = EDGE, EDGE
    top = y0 + inner_h
    free = inner_h - 2 * cell
    boxes: list[tuple[float, float, float, float]] = []
    boxes += [(x0 + i * cell, top - cell, cell, cell) for i in range(across)]
    rh = free / right
    boxes += [(x0 + inner_w - cell, top - cell - (j + 1) * rh, cell, rh) for j in range(right)]
    boxes += [(x0 + inner_w - (i + 1) * cell, y0, cell, cell) for i in range(across)]
    lh = free / left
    boxes += [(x0, y0 + cell + j * lh, cell, lh) for j in range(left)]
    numbers = [board.start + k * board.step for k in range(board.count)]
    return tuple(Cell(n, *box) for n, box in zip(numbers, boxes, strict=True))


def fit_message(board: ScoreTrackBoard) -> str:
    """Why the count does not fit (for `validate`), with the most squares that do."""
    most = next(
        (n for n in range(board.count - 1, 3, -1) if plan_score(_with_count(board, n))), None
    )
    room = f" (at most {most} fit)" if most else ""
    return (
        f"{board.count} squares do not fit around the {board.paper.upper()} page at "
        f"{MIN_CELL_MM:g} mm a square{room}: use fewer squares, a larger step, or a larger "
        "`paper`"
    )


def _with_count(board: ScoreTrackBoard, count: int) -> ScoreTrackBoard:
    return board.model_copy(update={"count": count})


def phrase(board: ScoreTrackBoard, lang: str) -> str:
    """The rulebook component list's words for it: "a score track 0–40"."""
    words = PHRASES.get(lang, PHRASES["en"])
    return words.format(first=_number(board.start), last=_number(board.last))


def _number(value: int) -> str:
    """A number as printed: a true minus sign."""
    return str(value).replace("-", "\u2212")


def problems(board: ScoreTrackBoard) -> list[tuple[tuple[str | int, ...], str]]:
    """What `validate` reports (P016): a count the page cannot hold, at `count`."""
    return [] if plan_score(board) is not None else [(("count",), fit_message(board))]


def _emphasised(board: ScoreTrackBoard, number: int) -> bool:
    return board.emphasis > 0 and number % board.emphasis == 0


def _cell(c: Canvas, board: ScoreTrackBoard, look: Look, cell: Cell) -> None:
    strong = _emphasised(board, cell.number)
    own = board.style.spaces.get("square")
    if strong:
        space = look.space("fifth")
        fill, ink = space.colour, space.text_colour
        outline = space.outline
    else:
        space = look.space("square")
        fill = own.colour if own is not None and own.colour else SQUARE
        ink = own.text_colour if own is not None and own.text_colour else "#1e1e1e"
        outline = space.outline
    c.setFillColor(HexColor(fill))
    c.setStrokeColor(HexColor(outline) if outline else INK)
    c.setLineWidth(1.2 if strong else 0.6)
    c.rect(cell.x, cell.y, cell.w, cell.h, stroke=1, fill=1)
    side = min(cell.w, cell.h)
    icon = board.icons.get(cell.number)
    text = _number(cell.number)
    style = "bold" if strong else "regular"
    size = side * (0.46 if strong else 0.36)
    size = min(size, cell.w * 0.86 / max(text_width(text, 1.0, look.face(style)), 0.01))
    cx, cy = cell.x + cell.w / 2, cell.y + cell.h / 2
    if icon:
        look.draw_icon(c, icon, cx, cy + side * 0.2, side * ICON_RADIUS, ink)
        size = min(size, side * 0.3)
        cy -= side * 0.22
    c.setFillColor(HexColor(ink))
    c.setFont(look.font(style), size)
    c.drawCentredString(cx, cy - size * 0.35, text)


def icon_uses(
    board: ScoreTrackBoard, look: Look
) -> list[tuple[tuple[str | int, ...], str, int, float]]:
    """(field, icon, 1, its box's side in points) of each numbered square's icon
    (`BoardKind.icon_uses`), so that `validate` weighs what the squares paint as it weighs a
    map's spaces; none for a count that does not fit (`validate` refuses it first)."""
    plan = plan_score(board)
    if plan is None:
        return []
    sides = {cell.number: min(cell.w, cell.h) for cell in plan.cells}
    return [
        (("icons", number), icon, 1, sides[number] * ICON_RADIUS * ICON_SIDE)
        for number, icon in board.icons.items()
        if number in sides
    ]


def _start_arrow(c: Canvas, cell: Cell) -> None:
    """A small arrow in the first square's corner: where counting starts and which way."""
    s = min(cell.w, cell.h) * 0.16
    x, y = cell.x + cell.w - s * 1.6, cell.y + cell.h - s * 1.5
    path = c.beginPath()
    path.moveTo(x, y - s / 2)
    path.lineTo(x + s, y)
    path.lineTo(x, y + s / 2)
    path.close()
    c.setFillColor(INK)
    c.drawPath(path, stroke=0, fill=1)


def draw_score(c: Canvas, board: ScoreTrackBoard, look: Look, plan: ScorePlan) -> None:
    c.setFillColor(BACK)
    c.rect(0, 0, plan.width, plan.height, stroke=0, fill=1)
    for cell in plan.cells:
        _cell(c, board, look, cell)
    _start_arrow(c, plan.cells[0])
    x, y, w, h = plan.inner
    title = look.text(board.name)
    size = min(44.0, w * 0.8 / max(text_width(title, 1.0, look.face("bold")), 0.01))
    c.setFillColor(INK)
    c.setFont(look.font("bold"), size)
    c.drawCentredString(x + w / 2, y + h / 2, title)
    span = f"{_number(board.start)}–{_number(board.last)}"
    c.setFont(look.font("regular"), size * 0.45)
    c.setFillColor(HexColor("#5b606b"))
    c.drawCentredString(x + w / 2, y + h / 2 - size * 0.9, span)


def draw(board: ScoreTrackBoard, look: Look) -> list[Drawing]:
    """The board kind's drawer: one page with the loop (nothing for a count that does not
    fit: `validate` refuses it first)."""
    plan = plan_score(board)
    if plan is None:
        raise ValueError(fit_message(board))
    title = look.text(board.name)
    return [Drawing(plan.width, plan.height, title, lambda c: draw_score(c, board, look, plan))]
