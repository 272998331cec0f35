"""Road boards: the stops in order, in rows that turn back like a serpent.

Each stop is a rounded square in its kind's colour; a double stop gets its second slot just
off the road; stages (a style's `stage: true`) are larger, hold a queue of slots and carry
their names. Legs (the stretches between stages) are numbered so players can follow the road
across the rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.content.models.board import RoadBoard, RoadStop
from toolkit.render.boards.look import Look, Space, quoted
from toolkit.render.fonts import font_name, text_width
from toolkit.render.textfit import Fit, fit_text
from toolkit.render.tiling import Drawing, halo_text, poster_area

INK = HexColor("#1e1e1e")
ROAD = HexColor("#e8dcc0")
ROAD_EDGE = HexColor("#b8a57a")
BACK = HexColor("#fbf8f1")
MARGIN = 12 * mm
Path = tuple[str | int, ...]
HEADER = 24 * mm
FOOTER = 30 * mm

TEXT = {  # the drawer's phrases; a style's `labels` (`leg`, `double`) may replace them
    "fr": {"leg": "Étape {n}", "double": "2e case\u00a0: dès {n}\u00a0joueurs"},
    "es": {"leg": "Tramo {n}", "double": "2.ª casilla: desde {n}\u00a0jugadores"},
    "en": {"leg": "Leg {n}", "double": "2nd slot: {n}+ players"},
}


@dataclass(frozen=True)
class RoadPlan:
    """Grid of the road, computed once: columns, row and column pitch, square size."""

    board: RoadBoard
    look: Look
    width: float
    height: float
    cols: int
    rows: int
    px: float
    py: float
    left: float
    top: float

    @property
    def size(self) -> float:
        return min(self.px * 0.7, self.py * 0.45)

    @property
    def slot(self) -> float:
        return self.size * 0.52

    def centre(self, i: int) -> tuple[float, float]:
        row, col = divmod(i, self.cols)
        if row % 2:
            col = self.cols - 1 - col
        return self.left + (col + 0.5) * self.px, self.top - (row + 0.5) * self.py

    def slot_centre(self, i: int) -> tuple[float, float]:
        x, y = self.centre(i)
        return x, y - self.size / 2 - 2.5 * mm - self.slot / 2


def _word(text: dict[str, str], lang: str) -> str:
    return text.get(lang) or next(iter(text.values()), "")


def plan_road(board: RoadBoard, look: Look) -> RoadPlan:
    n = len(board.stops)
    cols = max(2, round(math.sqrt(n * 2.2)))
    rows = math.ceil(n / cols)
    width, height = poster_area(landscape=True)
    area_h = height - 2 * MARGIN - HEADER - FOOTER
    py = area_h / rows
    px = (width - 2 * MARGIN - py) / cols  # room for the turns, half a row pitch each side
    left = (width - cols * px) / 2
    top = height - MARGIN - HEADER
    return RoadPlan(board, look, width, height, cols, rows, px, py, left, top)


def _road(c: Canvas, plan: RoadPlan) -> None:
    """The road itself: a broad band through every stop, with half turns between rows."""
    path = c.beginPath()
    n = len(plan.board.stops)
    path.moveTo(*plan.centre(0))
    for i in range(1, n):
        (x0, y0), (x1, y1) = plan.centre(i - 1), plan.centre(i)
        if y0 == y1:
            path.lineTo(x1, y1)
            continue
        r = (y0 - y1) / 2
        right = (i // plan.cols) % 2 == 1
        if right:
            path.arcTo(x0 - r, y1, x0 + r, y0, startAng=90, extent=-180)
        else:
            path.arcTo(x0 - r, y1, x0 + r, y0, startAng=90, extent=180)
    for width, colour in ((plan.size * 0.5 + 2, ROAD_EDGE), (plan.size * 0.5, ROAD)):
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        c.setLineCap(1)
        c.setLineJoin(1)
        c.drawPath(path, stroke=1, fill=0)


def _label_in(
    c: Canvas,
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    colour: str,
    look: Look,
    max_size: float,
    style: str = "bold",
) -> None:
    """Text centred in a box, wrapped and shrunk to fit, in the board's font; a text that
    does not fit even so (a P016 finding) stays inside its box."""
    fit = _fit(text, w, h, max_size, look, style, counted=False)
    assert fit is not None  # drawn: never refused
    style = look.face(style)
    if not fit.fits:
        c.saveState()
        path = c.beginPath()
        path.rect(x - w / 2, y - h / 2, w, h)
        c.clipPath(path, stroke=0, fill=0)
    c.setFillColor(HexColor(colour))
    c.setFont(font_name(style), fit.size)
    lead = fit.size * 1.2
    y0 = y + (len(fit.lines) - 1) * lead / 2 - fit.size * 0.35
    for k, line in enumerate(fit.lines):
        c.drawString(x - text_width(line, fit.size, style) / 2, y0 - k * lead, line)
    if not fit.fits:
        c.restoreState()


MIN_SIZE = 5
"""The smallest size a stop's words shrink to (whole words down to 7 pt, then broken)."""


def _fit(
    text: str, w: float, h: float, max_size: float, look: Look, style: str, counted: bool = True
) -> Fit | None:
    """How `_label_in` sets a text in a box of w × h points; None when `counted` against the
    game's checks' fitting budget (toolkit.render.textfit.fitting) and past it."""
    face = look.face(style)
    fit = fit_text(
        text, w, h, max_size, 7, face, "none", counted=counted
    )  # whole words if they fit
    if fit is not None and not fit.fits:
        fit = fit_text(text, w, h, max_size, MIN_SIZE, face, look.lang, counted=counted)
    return fit


def _stage_box(plan: RoadPlan) -> tuple[float, float]:
    """A stage's width and height (larger than a plain stop's square)."""
    s = plan.size
    return min(plan.px * 0.9, s * 1.35), s * 1.25


def stop_words(plan: RoadPlan, i: int) -> list[tuple[str, Path, float, float, float, float, str]]:
    """What stop `i` prints in its square: (text, where it is written, offset from the
    centre up, box width and height, largest size, style); a stage its name (else its
    kind's label) large and the label small under it, another stop its kind's label."""
    stop = plan.board.stops[i]
    style = plan.look.space(stop.kind)
    label: Path = ("style", "spaces", stop.kind, "label", plan.look.lang)
    if not style.stage:
        s = plan.size
        return [(style.label, label, -s * 0.04, s * 0.86, s * 0.5, 9.5, "bold")]
    w, h = _stage_box(plan)
    if not (stop.name and prints_name(stop, style)):
        return [(style.label, label, h * 0.2, w * 0.86, h * 0.36, 15.0, "bold")]
    name: Path = ("stops", i, "name")
    return [
        (stop.name, name, h * 0.2, w * 0.86, h * 0.36, 15.0, "bold"),
        (style.label, label, -h * 0.02, w * 0.86, h * 0.14, 8.0, "regular"),
    ]


def problems(board: RoadBoard, look: Look, laid_out: bool) -> list[tuple[Path, str, bool]]:
    """The words of a stop (a stage's place name, a style's label) that do not fit its
    square even at the smallest size, each at its field, once (for `validate`, P016); a
    label from the glossary or the toolkit is not the board's to say."""
    plan = plan_road(board, look)
    found: dict[Path, tuple[Path, str, bool]] = {}
    fitted: set[tuple[str, float, float, float, str]] = set()  # a label repeats stop by stop
    for i in range(len(board.stops)):
        for text, path, _, w, h, size, style in stop_words(plan, i):
            if path in found or (path[0] == "style" and not _own_label(look, path)):
                continue
            if (text, w, h, size, style) in fitted:
                continue
            fit = _fit(text, w, h, size, look, style)
            if fit is None:
                continue  # past the checks' fitting budget: not measured (board_styles says so)
            if fit.fits:
                fitted.add((text, w, h, size, style))
            else:
                found[path] = (path, _too_long(text, look), True)
    for path, message in [*_leg_problems(plan), *_legend_problems(plan)]:
        found.setdefault(path, (path, message, True))
    return list(found.values())


def _leg_problems(plan: RoadPlan) -> list[tuple[Path, str]]:
    """A leg's tag wider than the stop pitch: it would cover the next stops."""
    look = plan.look
    for text in dict.fromkeys(_leg_tags(plan).values()):
        width = _tag_width(text, look)
        if width > plan.px:
            path = look.label_path("leg") or ("kind",)
            return [
                (
                    path,
                    f"the leg's tag {quoted(text)} is {width / mm:.0f} mm wide in {look.lang},"
                    f" a stop {plan.px / mm:.0f} mm: it covers the next stops; shorten it",
                )
            ]
    return []


def _legend_problems(plan: RoadPlan) -> list[tuple[Path, str]]:
    """A legend wider than the page, at its longest label the style writes."""
    entries = _legend_entries(plan)
    face = plan.look.face("regular")
    widths = _legend_widths(entries, face)
    room = plan.width - 2 * MARGIN
    if sum(widths) <= room:
        return []
    look = plan.look
    own: list[tuple[float, Path]] = []
    for (kind, _), width in zip(entries, widths, strict=True):
        path = look.label_path("double") if kind == "double" else _space_label_path(look, kind)
        if path is not None:
            own.append((width, path))
    where = max(own)[1] if own else ("stops",)
    return [
        (
            where,
            f"the legend ({len(entries)} entries) is {sum(widths) / mm:.0f} mm wide in"
            f" {look.lang}, the page holds {room / mm:.0f} mm: it runs off the page; shorten"
            " its labels",
        )
    ]


def _space_label_path(look: Look, kind: str) -> Path | None:
    own = look.style.spaces.get(kind)
    if own is None or own.label is None:
        return None
    label = own.label
    return ("style", "spaces", kind, "label", *(() if isinstance(label, str) else (look.lang,)))


def _own_label(look: Look, path: Path) -> bool:
    own = look.style.spaces.get(str(path[2]))
    return own is not None and isinstance(own.label, dict) and look.lang in own.label


def _too_long(text: str, look: Look) -> str:
    return (
        f"{quoted(text)} ({look.lang}) does not fit its stop even at {MIN_SIZE} pt: it would"
        " run over the next stops; shorten it or break its longest word with a space or a hyphen"
    )


def prints_name(stop: RoadStop, style: Space) -> bool:
    """Whether a stop's name is printed: a stage's (no other stop carries its name)."""
    return style.stage and bool(stop.name)


def printed_names(board: RoadBoard, look: Look) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """The place names the road prints as written (for the checks of printed letters), with
    their paths in the board's data."""
    for index, stop in enumerate(board.stops):
        if stop.name and prints_name(stop, look.space(stop.kind)):
            yield ("stops", index, "name"), stop.name


def _stop(c: Canvas, plan: RoadPlan, i: int) -> None:
    stop = plan.board.stops[i]
    style = plan.look.space(stop.kind)
    fill, ink = style.colour, style.text_colour
    x, y = plan.centre(i)
    s = plan.size
    stage = style.stage
    w, h = _stage_box(plan) if stage else (s, s)
    c.setFillColor(HexColor(fill))
    c.setStrokeColor(INK)
    c.setLineWidth(1.2 if stage else 0.8)
    c.roundRect(x - w / 2, y - h / 2, w, h, s * 0.14, stroke=1, fill=1)
    for text, _, dy, bw, bh, size, face in stop_words(plan, i):
        _label_in(c, text, x, y + dy, bw, bh, ink, plan.look, size, face)
    if stage:
        slots = style.slots
        r = min(w * 0.82 / max(slots, 1) / 2 * 0.8, h * 0.11)
        for k in range(slots):
            cx = x - w * 0.41 + (k + 0.5) * w * 0.82 / slots
            c.setFillColor(HexColor("#ffffff"))
            c.setStrokeColor(INK)
            c.setLineWidth(0.6)
            c.circle(cx, y - h * 0.28, r, stroke=1, fill=1)
    c.setFillColor(HexColor(ink))
    c.setFont(plan.look.font("regular"), 6.5)
    c.drawString(x - w / 2 + 1.6 * mm, y + h / 2 - 3.6 * mm, str(i))
    if stop.double:
        sx, sy = plan.slot_centre(i)
        t = plan.slot
        c.setStrokeColor(INK)
        c.setLineWidth(0.8)
        c.line(x, y - s / 2, sx, sy + t / 2)
        c.setFillColor(HexColor(fill))
        c.setDash(2.5, 1.8)
        c.roundRect(sx - t / 2, sy - t / 2, t, t, t * 0.18, stroke=1, fill=1)
        c.setDash()
        if plan.board.double_from_players:
            _label_in(
                c,
                f"{plan.board.double_from_players}+",
                sx,
                sy,
                t * 0.8,
                t * 0.6,
                ink,
                plan.look,
                8,
            )


TAG_SIZE = 8.5


def _leg_tags(plan: RoadPlan) -> dict[int, str]:
    """Stop -> the 'Leg n' tag above it: the first stop after each stage but the last."""
    stops = plan.board.stops
    stage = {s.kind: plan.look.space(s.kind).stage for s in stops}
    stages = [i for i, s in enumerate(stops) if stage[s.kind]]
    tags = {}
    for k, i in enumerate(stages, start=1):
        if i + 1 >= len(stops) or stage[stops[i + 1].kind]:
            continue
        tags[i + 1] = plan.look.phrase("leg", TEXT, n=k)
    return tags


def _tag_width(text: str, look: Look) -> float:
    return text_width(text, TAG_SIZE, look.face("bold")) + 4 * mm


def _legs(c: Canvas, plan: RoadPlan) -> None:
    """'Leg n' tags above the first stop after each stage but the last."""
    stops = plan.board.stops
    for i, text in _leg_tags(plan).items():  # i: the stop after the stage
        x, y = plan.centre(i)
        size = TAG_SIZE
        w = _tag_width(text, plan.look)
        ty = y + plan.size / 2 + 2.2 * mm
        c.setFillColor(HexColor("#ffffff"))
        c.setStrokeColor(HexColor(plan.look.space(stops[i - 1].kind).colour))
        c.setLineWidth(0.9)
        c.roundRect(x - w / 2, ty, w, size + 2.6 * mm, 2 * mm, stroke=1, fill=1)
        c.setFillColor(INK)
        c.setFont(plan.look.font("bold"), size)
        c.drawString(x - w / 2 + 2 * mm, ty + 1.35 * mm + size * 0.18, text)


SWATCH = 6 * mm
LEGEND_SIZE = 9.5


def _legend_entries(plan: RoadPlan) -> list[tuple[str, str]]:
    """(space kind or `double`, words) of the legend, in order."""
    b = plan.board
    styled = list(plan.look.style.spaces)
    kinds = [k for k in styled if any(s.kind == k for s in b.stops)]
    kinds += sorted({s.kind for s in b.stops} - set(styled))
    entries = [(k, plan.look.space(k).label) for k in kinds]
    if any(s.double for s in b.stops) and b.double_from_players:
        entries.append(("double", plan.look.phrase("double", TEXT, n=b.double_from_players)))
    return entries


def _legend_widths(entries: list[tuple[str, str]], face: str) -> list[float]:
    return [SWATCH + 2.5 * mm + text_width(t, LEGEND_SIZE, face) + 7 * mm for _, t in entries]


def _legend(c: Canvas, plan: RoadPlan) -> None:
    sw = SWATCH
    size = LEGEND_SIZE
    entries = _legend_entries(plan)
    face = plan.look.face("regular")
    widths = _legend_widths(entries, face)
    total = sum(widths)
    x = (plan.width - total) / 2
    y = MARGIN + FOOTER / 2 - sw / 2
    for (kind, text), w in zip(entries, widths, strict=True):
        fill = plan.look.space(kind).colour if kind != "double" else "#ffffff"
        c.setFillColor(HexColor(fill))
        c.setStrokeColor(INK)
        c.setLineWidth(0.7)
        if kind == "double":
            c.setDash(2.5, 1.8)
        c.roundRect(x, y, sw, sw, 1.2 * mm, stroke=1, fill=1)
        c.setDash()
        c.setFillColor(INK)
        c.setFont(font_name(face), size)
        c.drawString(x + sw + 2.5 * mm, y + sw / 2 - size * 0.35, text)
        x += w


def draw_road(c: Canvas, plan: RoadPlan) -> None:
    c.setFillColor(BACK)
    c.rect(0, 0, plan.width, plan.height, stroke=0, fill=1)
    _road(c, plan)
    for i in range(len(plan.board.stops)):
        _stop(c, plan, i)
    _legs(c, plan)
    title = _word(plan.board.name, plan.look.lang)
    halo_text(c, MARGIN, plan.height - MARGIN - 22, title, plan.look.font("bold"), 26, INK, 6)
    _legend(c, plan)


def draw(board: RoadBoard, look: Look) -> list[Drawing]:
    """The board kind's drawer: one road."""
    plan = plan_road(board, look)
    name = _word(board.name, look.lang)
    return [Drawing(plan.width, plan.height, name, lambda c: draw_road(c, plan))]
