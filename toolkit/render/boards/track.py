"""Track boards: identical segments joined into a loop around the table.

One drawing per table arrangement: the segments a player count uses (say 4 for 2 or 4
players, 3, 5 and 6 for the others) as the sides of a regular polygon, each facing its seat. Every
arrangement keeps the hole pitch of the largest one, so pieces printed for one fit the
marbles of another. A segment is drawn once in a local frame (as the bottom side) and rotated
into place, so every seat reads its own labels the right way up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.content.models.board import TrackBoard
from toolkit.content.templating import MAX_FILLED, PLACEHOLDER
from toolkit.render.boards.look import Look, PhraseTooLong, quoted
from toolkit.render.fonts import font_name, text_width
from toolkit.render.tiling import Drawing, halo_text, poster_area

SEATS = ["#d1342f", "#2b6cb0", "#2f8f46", "#e0a800", "#7b3fa0", "#e06c1a", "#1a9c9c", "#8a5a2b"]
INK = HexColor("#1e1e1e")
WOOD = HexColor("#f1e2c4")
TABLE = HexColor("#fbf8f1")
OUT = 2.7  # band depth outside the track line, in hole pitches (room for the pen)
IN = 1.1  # band depth inside the track line

TEXT = {  # the drawer's phrases; a style's `labels` (`players`, `seats`, ...) may replace them
    "fr": {
        "players": "{n}\u00a0joueurs\u00a0: {m}\u00a0×\u00a0{segment}",
        "seats": "{n}\u00a0joueurs\u00a0: places aux {segment}s {list}",
        "title": "{board}\u00a0: {m}\u00a0{segment}s, {players}",
        "count": "{n}\u00a0joueurs",
        "or": " ou ",
    },
    "es": {
        "players": "{n}\u00a0jugadores: {m}\u00a0×\u00a0{segment}",
        "seats": "{n}\u00a0jugadores: puestos en los {segment}s {list}",
        "title": "{board}: {m}\u00a0{segment}s, {players}",
        "count": "{n}\u00a0jugadores",
        "or": " o ",
    },
    "en": {
        "players": "{n}\u00a0players: {m}\u00a0×\u00a0{segment}",
        "seats": "{n}\u00a0players: seats at {segment}s {list}",
        "title": "{board}: {m}\u00a0{segment}s, {players}",
        "count": "{n}\u00a0players",
        "or": " or ",
    },
}


@dataclass(frozen=True)
class TrackPlan:
    """Sizes of the loop, computed once: polygon of `sides` sides, hole pitch in points."""

    board: TrackBoard
    look: Look
    players: tuple[int, ...]  # the player counts that sit at this arrangement
    width: float
    height: float
    sides: int
    pitch: float
    cx: float
    cy: float

    @property
    def apothem(self) -> float:
        """Centre to track line of a segment."""
        return loop_apothem(self.board, self.sides) * self.pitch


def _tint(colour: str, amount: float) -> Color:
    v = int(colour[1:], 16)
    rgb = [(v >> s) & 255 for s in (16, 8, 0)]
    return HexColor("#" + "".join(f"{round(255 - (255 - ch) * amount):02x}" for ch in rgb))


HOME_CLEARANCE = 2.0  # pitches between a home's holes and the next segment's track


def loop_apothem(board: TrackBoard, sides: int, home: int | None = None) -> float:
    """Centre to track line in pitches: segments meet corner to corner, unless a home near
    a corner would run into the next segment's track (a triangle of long segments); then
    the sides move out and plain wooden joints without holes fill the corners. `home`: the
    home lane's holes, if not the board's (what fits, toolkit.render.boards.track_room)."""
    apothem = board.holes_per_segment / 2 / math.tan(math.pi / sides)
    phi = 2 * math.pi / sides
    x = board.holes_per_segment / 2 - (board.entrance_offset + 0.5)
    depth = board.home_holes if home is None else home
    # Distance from the deepest home hole (x, -a + depth) to the neighbouring side's track
    # line is a·(1 − cos φ) − x·sin φ + depth·cos φ; solve for the clearance.
    clear = HOME_CLEARANCE + x * math.sin(phi) - depth * math.cos(phi)
    needed = clear / (1 - math.cos(phi))
    return max(apothem, needed)


def _outline(board: TrackBoard, sides: int) -> tuple[float, float, float, float]:
    """(min x, max x, min y, max y) of the loop's outer edge in hole pitches, centred."""
    apothem = loop_apothem(board, sides)
    radius = (apothem + OUT + 0.4) / math.cos(math.pi / sides)
    angles = [math.pi * 3 / 2 + math.pi / sides + 2 * math.pi * k / sides for k in range(sides)]
    xs = [radius * math.cos(a) for a in angles]
    ys = [radius * math.sin(a) for a in angles]
    return min(xs), max(xs), min(ys), max(ys)


def box_pitch(board: TrackBoard) -> float:
    """The hole pitch (points) at which the box's full loop fills the poster area."""
    width, height = poster_area(landscape=True)
    x0, x1, y0, y1 = _outline(board, max(board.segments_in_box, 3))
    return min((width - 24 * mm) / (x1 - x0), (height - 24 * mm) / (y1 - y0))


def arrangements(board: TrackBoard) -> dict[int, tuple[int, ...]]:
    """Segments in the loop -> the player counts that use that loop, largest loop first."""
    out: dict[int, list[int]] = {}
    for players, segments in sorted(board.segments_by_players.items()):
        out.setdefault(segments, []).append(players)
    return {m: tuple(out[m]) for m in sorted(out, reverse=True)}


TITLE_BAND = 22 * mm  # above a smaller loop: the title
KEY_BAND = 22 * mm  # below it: what the marks mean, who sits where


def plan_track(board: TrackBoard, look: Look, segments: int, players: tuple[int, ...]) -> TrackPlan:
    """The box's loop fills the poster area; a smaller loop keeps its pitch and gets a sheet
    of its own size, with bands for the title and the key."""
    sides = max(segments, 3)
    pitch = box_pitch(board)
    x0, x1, y0, y1 = _outline(board, sides)
    if sides == max(board.segments_in_box, 3):
        width, height = poster_area(landscape=True)
        cy = height / 2 - (y1 + y0) / 2 * pitch
    else:
        width = max((x1 - x0) * pitch + 24 * mm, 300 * mm)
        height = (y1 - y0) * pitch + 24 * mm + TITLE_BAND + KEY_BAND
        cy = 12 * mm + KEY_BAND - y0 * pitch
    cx = width / 2 - (x1 + x0) / 2 * pitch
    return TrackPlan(board, look, players, width, height, sides, pitch, cx, cy)


def _hole(c: Canvas, x: float, y: float, r: float, fill: Color, ring: Color, lw: float) -> None:
    c.setFillColor(fill)
    c.setStrokeColor(ring)
    c.setLineWidth(lw)
    c.circle(x, y, r, stroke=1, fill=1)


def _centred(c: Canvas, x: float, y: float, text: str, style: str, size: float) -> None:
    """`text` centred on x; `style` is a face (toolkit.render.fonts): the board's."""
    c.setFillColor(INK)
    c.setFont(font_name(style), size)
    c.drawString(x - text_width(text, size, style) / 2, y, text)


def _segment(c: Canvas, plan: TrackPlan, m: int) -> None:
    """Segment `m` as the bottom side: holes run right to left (clockwise round the loop)."""
    b, p = plan.board, plan.pitch
    colour = SEATS[m % len(SEATS)]
    a = plan.apothem
    t = math.tan(math.pi / plan.sides)
    yo, yi = -(a + OUT * p), -(a - IN * p)
    band = c.beginPath()
    band.moveTo(-yo * t, yo)
    band.lineTo(yo * t, yo)
    band.lineTo(yi * t, yi)
    band.lineTo(-yi * t, yi)
    band.close()
    c.setFillColor(WOOD)
    c.setStrokeColor(HexColor("#8a6d3b"))
    c.setLineWidth(1.2)
    c.drawPath(band, stroke=1, fill=1)
    c.setFillColor(HexColor(colour))
    c.rect(yo * t * 0.62, yo, -yo * t * 1.24, 0.35 * p, stroke=0, fill=1)

    y = -a
    r = 0.34 * p

    def hole_x(k: int) -> float:
        return b.holes_per_segment * p / 2 - (k + 0.5) * p

    xs, xe = hole_x(b.start_offset), hole_x(b.entrance_offset)
    c.setStrokeColor(HexColor("#8a6d3b"))
    c.setLineWidth(0.35 * p)
    c.setLineCap(1)
    c.setStrokeColor(_tint(colour, 0.25))
    if b.home_holes:
        c.line(xe, y, xe, y + b.home_holes * p)
        c.setFillColor(_tint(colour, 0.12))
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(1.2)
        c.roundRect(
            xe - 0.62 * p,
            y + 0.45 * p,
            1.24 * p,
            (b.home_holes + 0.1) * p,
            0.6 * p,
            stroke=1,
            fill=1,
        )
    if b.pen_holes:
        dock_y = y - 1.65 * p
        c.setFillColor(_tint(colour, 0.12))
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(1.2)
        width = b.pen_holes * p
        c.roundRect(xs - width / 2, dock_y - 0.6 * p, width, 1.2 * p, 0.6 * p, stroke=1, fill=1)
        for j in range(b.pen_holes):
            _hole(
                c,
                xs - width / 2 + (j + 0.5) * p,
                dock_y,
                r,
                HexColor("#ffffff"),
                HexColor(colour),
                1.2,
            )
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(1.0)
        c.setDash(2, 2)
        c.line(xs, dock_y + 0.6 * p, xs, y - r - 0.5)
        c.setDash()
        size = min(0.42 * p, 12)
        c.setFillColor(INK)
        c.setFont(plan.look.font("bold"), size)
        c.drawString(xs + width / 2 + 0.35 * p, dock_y - size * 0.35, _word(b.pen_name, plan))
    for k in range(b.holes_per_segment):
        x = hole_x(k)
        if k == b.start_offset:
            _hole(c, x, y, r * 1.12, HexColor(colour), INK, 1.0)
            c.setFillColor(HexColor("#ffffff"))
            c.circle(x, y, r * 0.42, stroke=0, fill=1)
        elif k == b.entrance_offset:
            _hole(c, x, y, r * 1.12, HexColor("#ffffff"), HexColor(colour), 2.4)
        else:
            _hole(c, x, y, r, HexColor("#ffffff"), HexColor("#6b5530"), 0.9)
    for j in range(1, b.home_holes + 1):
        _hole(c, xe, y + j * p, r, HexColor("#ffffff"), HexColor(colour), 1.2)
    if b.home_holes:
        # An arrowhead from the entrance into the home.
        c.setFillColor(HexColor(colour))
        tip = y + 0.62 * p
        path = c.beginPath()
        path.moveTo(xe, tip + 0.02 * p)
        path.lineTo(xe - 0.2 * p, tip - 0.2 * p)
        path.lineTo(xe + 0.2 * p, tip - 0.2 * p)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        size = min(0.42 * p, 12)
        label = _word(b.home_name, plan)
        lx = xe + 0.95 * p
        c.saveState()
        c.translate(lx, y + (b.home_holes + 1) * p / 2)
        c.rotate(90)
        _centred(c, 0, -size * 0.35, label, plan.look.face("bold"), size)
        c.restoreState()
    # Travel direction: an arrow beside the track, pointing clockwise (right to left here).
    c.setStrokeColor(HexColor("#8a6d3b"))
    c.setFillColor(HexColor("#8a6d3b"))
    c.setLineWidth(1.2)
    ay = y - 0.8 * p
    head, tail = hole_x(b.holes_per_segment - 3), hole_x(b.holes_per_segment - 5)
    c.line(tail, ay, head + 0.25 * p, ay)
    arrow = c.beginPath()
    arrow.moveTo(head, ay)
    arrow.lineTo(head + 0.3 * p, ay + 0.13 * p)
    arrow.lineTo(head + 0.3 * p, ay - 0.13 * p)
    arrow.close()
    c.drawPath(arrow, stroke=0, fill=1)
    name = f"{_word(b.segment_name, plan)} {m + 1}"
    size = min(0.5 * p, 14)
    far = hole_x(b.holes_per_segment - 1) + 0.5 * p
    label_x = (far + xs - b.pen_holes * p / 2) / 2
    _centred(c, label_x, y - 1.95 * p, name, plan.look.face("bold"), size)


def _word(text: dict[str, str], plan: TrackPlan) -> str:
    return plan.look.text(text)


MARGIN = 12 * mm
TITLE_SIZE = 20
LEGEND_SIZE = 9
PILE_SIZE = 12
ROWS = {"start": "start-hole", "entrance": "entrance"}
"""The legend's rows of marks (drawn as the mark) and the label each is named by."""


def _legend(c: Canvas, plan: TrackPlan) -> None:
    """Top-left: title; bottom corners: what the marks mean and segments per player count."""
    look = plan.look
    m = MARGIN
    halo_text(c, m, plan.height - m - 20, title(plan), look.font("bold"), TITLE_SIZE, INK, 6)
    size = LEGEND_SIZE
    colour = SEATS[0]
    r = 0.34 * plan.pitch
    rows = [(kind, look.label(key)) for kind, key in ROWS.items()]
    y = m + 8 * mm
    x = m + r + 2
    for kind, word in rows:
        if kind == "start":
            _hole(c, x, y, r * 1.12, HexColor(colour), INK, 1.0)
            c.setFillColor(HexColor("#ffffff"))
            c.circle(x, y, r * 0.42, stroke=0, fill=1)
        else:
            _hole(c, x, y, r * 1.12, HexColor("#ffffff"), HexColor(colour), 2.4)
        c.setFillColor(INK)
        c.setFont(look.font("regular"), size)
        c.drawString(x + r + 3 * mm, y - size * 0.35, word)
        y -= 8 * mm
    lines = [line for _, line in legend_lines(plan)]
    c.setFont(look.font("regular"), size)
    right = plan.width - m
    y = m + (len(lines) - 1) * size * 1.4
    for line in lines:
        c.drawRightString(right, y, line)
        y -= size * 1.4


def legend_lines(plan: TrackPlan) -> list[tuple[str, str]]:
    """(phrase, line) of the key's lines, one per player count: where the seats are."""
    b, look = plan.board, plan.look
    segment = _word(b.segment_name, plan)
    lines = []
    for n in plan.players:
        seats = seat_segments(n, b.segments_by_players[n])
        if len(seats) < plan.sides:
            listed = ", ".join(str(m + 1) for m in seats)
            lines.append(("seats", look.phrase("seats", TEXT, n=n, segment=segment, list=listed)))
        else:
            lines.append(
                ("players", look.phrase("players", TEXT, n=n, m=plan.sides, segment=segment))
            )
    return lines


def seat_segments(players: int, segments: int) -> list[int]:
    """Segments with a seat: i × (segments / players), so 2 players on 4 sit opposite."""
    step = max(segments // max(players, 1), 1)
    return [i * step for i in range(players)]


def title(plan: TrackPlan) -> str:
    look = plan.look
    counts = look.phrase("or", TEXT).join(str(n) for n in plan.players)
    players = look.phrase("count", TEXT, n=counts)
    segment = _word(plan.board.segment_name, plan)
    board = _word(plan.board.name, plan)
    return look.phrase("title", TEXT, board=board, m=plan.sides, segment=segment, players=players)


def _pile_size(plan: TrackPlan) -> tuple[float, float]:
    """A card pile's width and height in the middle of the table (a poker card, smaller when
    the loop is small)."""
    cw, ch = 63 * mm, 88 * mm
    scale = min(1.0, plan.apothem * 0.55 / ch)
    return cw * scale, ch * scale


def _centre(c: Canvas, plan: TrackPlan) -> None:
    """The middle of the table: where the style's card piles go."""
    p = plan.pitch
    piles = plan.look.style.piles
    cw, ch = _pile_size(plan)
    for i, label in enumerate(piles):
        x = plan.cx + (i - (len(piles) - 1) / 2) * (cw + 0.6 * p) - cw / 2
        y = plan.cy - ch / 2
        c.setFillColor(HexColor("#ffffff"))
        c.setStrokeColor(HexColor("#8a6d3b"))
        c.setLineWidth(1.0)
        c.setDash(4, 3)
        c.roundRect(x, y, cw, ch, 3 * mm, stroke=1, fill=1)
        c.setDash()
        _centred(
            c, x + cw / 2, plan.cy - 4, plan.look.text(label), plan.look.face("bold"), PILE_SIZE
        )


def draw_track(c: Canvas, plan: TrackPlan) -> None:
    c.setFillColor(TABLE)
    c.rect(0, 0, plan.width, plan.height, stroke=0, fill=1)
    for m in range(plan.sides):
        c.saveState()
        c.translate(plan.cx, plan.cy)
        c.rotate(-m * 360 / plan.sides)
        _segment(c, plan, m)
        c.restoreState()
    _centre(c, plan)
    _legend(c, plan)


def draw(board: TrackBoard, look: Look) -> list[Drawing]:
    """The board kind's drawer: one drawing per table arrangement, the box's loop first."""
    drawings = []
    for segments, players in arrangements(board).items():
        plan = plan_track(board, look, segments, players)
        drawings.append(Drawing(plan.width, plan.height, title(plan), _drawer(plan)))
    return drawings


def _drawer(plan: TrackPlan) -> Callable[[Canvas], None]:
    return lambda c: draw_track(c, plan)


# ---------------------------------------------------------------- what validate says (P016)

Path = tuple[str | int, ...]


def problems(board: TrackBoard, look: Look, laid_out: bool) -> list[tuple[Path, str, bool]]:
    """What `validate` reports of the board as drawn in `look`'s language (P016): a title
    or a line of the key that would run off the page (an error), a pile's name that runs
    over its neighbour's (a warning), each at the label (or name) that makes it long, once."""
    found: dict[Path, tuple[Path, str, bool]] = {}
    for segments, players in arrangements(board).items():
        plan = plan_track(board, look, segments, players)
        for path, message in _plan_problems(plan):
            found.setdefault(path, (path, message, True))
        for path, message in _pile_problems(plan):
            found.setdefault(path, (path, message, False))
    return list(found.values())


def _plan_problems(plan: TrackPlan) -> Iterator[tuple[Path, str]]:
    """The title (top left, 20 pt) and the key's rows and lines (bottom corners, 9 pt) of one
    arrangement that are wider than the room the page leaves them."""
    look, lang = plan.look, plan.look.lang
    room = plan.width - 2 * MARGIN
    try:
        text = title(plan)
    except PhraseTooLong as exc:
        yield (
            _title_blame(plan),
            f"the board phrase {exc.key!r} ({lang}) would print more than {MAX_FILLED:,}"
            " characters in the title: the title joins every player count with `or` in"
            " `count`, and puts that in `title`; shorten the labels",
        )
        text = None
    if text is not None:
        width = text_width(text, TITLE_SIZE, look.face("bold"))
        if width > room:
            yield (
                _title_blame(plan),
                _off(f"the title {quoted(text)}", width, TITLE_SIZE, lang, room),
            )
    half = plan.width / 2 - MARGIN - 0.34 * plan.pitch - 3 * mm  # left: the marks; right: lines
    for kind, key in ROWS.items():
        word = look.label(key)
        width = text_width(word, LEGEND_SIZE, look.face("regular"))
        if width > half:
            own = look.label_path(key)
            what = f"the key's {kind} row {quoted(word)}"
            if own is None:  # a glossary term of that id, or the toolkit's word
                what += f" (the glossary term {key!r}, or `style.labels.{key}`)"
            yield own or ("kind",), _off(what, width, LEGEND_SIZE, lang, half)
    for key, line in legend_lines(plan):
        width = text_width(line, LEGEND_SIZE, look.face("regular"))
        if width > half:
            at = look.label_path(key) or ("segment_name", lang)
            yield at, _off(f"the key's line {quoted(line)}", width, LEGEND_SIZE, lang, half)


def _pile_problems(plan: TrackPlan) -> Iterator[tuple[Path, str]]:
    """A pile's name that runs over its neighbour's, or past the track's inner edge (the
    names are centred on piles a card and a gap apart)."""
    look, lang = plan.look, plan.look.lang
    piles = look.style.piles
    cw, _ = _pile_size(plan)
    pitch = cw + 0.6 * plan.pitch
    widths = [text_width(look.text(label), PILE_SIZE, look.face("bold")) for label in piles]
    inner = plan.apothem - IN * plan.pitch
    for i, label in enumerate(piles):
        centre = abs(i - (len(piles) - 1) / 2) * pitch
        near = [j for j in (i - 1, i + 1) if 0 <= j < len(piles) and widths[j] <= widths[i]]
        over = [(widths[i] + widths[j]) / 2 - pitch for j in near]  # the wider one is said
        if max(over, default=0.0) <= 0 and centre + widths[i] / 2 <= inner:
            continue
        word = look.text(label)
        path: Path = ("style", "piles", i, *(() if isinstance(label, str) else (lang,)))
        yield (
            path,
            f"the pile's name {quoted(word)} is {widths[i] / mm:.0f} mm wide at {PILE_SIZE} pt"
            f" in {lang}, the piles lie {pitch / mm:.0f} mm apart: it runs over the next"
            " pile's name or the track; shorten it",
        )


def _off(what: str, width: float, size: float, lang: str, room: float) -> str:
    return (
        f"{what} is {width / mm:.0f} mm wide at {size:g} pt in {lang}, the board holds"
        f" {room / mm:.0f} mm: it runs off the page; shorten it"
    )


def _names(words: str, name: str) -> int:
    return sum(1 for match in PLACEHOLDER.finditer(words) if match.group(1) == name)


def _title_blame(plan: TrackPlan) -> Path:
    """The style label (or the board's own name) that writes most of the title: each
    label's length times the times the phrases around it print it."""
    look, lang = plan.look, plan.look.lang
    words = {key: look.phrase_words(key, TEXT) for key in ("title", "count", "or")}
    players = _names(words["title"], "players")
    joins = max(len(plan.players) - 1, 0) * _names(words["count"], "n") * players
    shares: list[tuple[int, Path]] = [
        (len(words["title"]), look.label_path("title") or ()),
        (len(words["count"]) * players, look.label_path("count") or ()),
        (len(words["or"]) * joins, look.label_path("or") or ()),
        (len(_word(plan.board.name, plan)) * _names(words["title"], "board"), ("name", lang)),
        (
            len(_word(plan.board.segment_name, plan)) * _names(words["title"], "segment"),
            ("segment_name", lang),
        ),
    ]
    shares = [(share, path) for share, path in shares if path]
    return max(shares, key=lambda item: item[0])[1] if shares else ("name", lang)
