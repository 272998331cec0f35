"""Whether each seat's pen and home lane fit its segment of a track loop (P016).

The drawer (toolkit.render.boards.track) lays each segment as the bottom side of the loop,
in hole pitches: the track line at y = -apothem, the pen's row of holes below it centred on
the start hole, the home lane running straight in from the entrance hole. Nothing tied
those lengths to the loop: 50 home holes on a loop of three 18-hole segments ran across the
centre through the other seats' lanes, and a 50-hole pen ran past its segment's corners off
the page, with validate clean (probe 21). Sizes here are the drawer's, in pitches.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from toolkit.content.models.board import TrackBoard

LANE_HALF = 0.62  # half the home lane's width (its rounded box)
LANE_START = 0.45  # where the lane's box starts, in from the track line
LANE_END = 0.55  # past its last hole
PEN_ROW = 1.65  # the pen's holes below the track line
PEN_HALF = 0.6  # half the pen box's height
GAP = 0.1  # what two lanes keep between them at least

Point = tuple[float, float]
Path = tuple[str | int, ...]


def lane_problems(board: TrackBoard) -> Iterator[tuple[Path, str]]:
    """P016 at `home_holes` when the home lanes of a loop the board draws meet each other or
    another segment's track, and at `pen_holes` when a pen runs past its segment: once
    each, naming the first loop (fewest segments) where it happens and what fits on every
    loop the board draws."""
    holes = board.holes_per_segment
    offsets = {"start_offset": board.start_offset, "entrance_offset": board.entrance_offset}
    off = [(key, value) for key, value in offsets.items() if value >= holes]
    for key, value in off:  # the drawer lays a pen or a lane out from there, off the loop
        yield (
            (key,),
            f"{key} {value} is past the segment's last hole (a segment of {holes} holes"
            f" counts 0 to {holes - 1}): its pen or home lane would print off the loop",
        )
    if off:
        return  # no lane or pen is laid out from there
    loops = sorted({max(segments, 3) for segments in board.segments_by_players.values()})
    home = board.home_holes
    clashing = [sides for sides in loops if home and _homes_clash(board, sides, home)]
    if clashing:
        room = min(_home_room(board, sides) for sides in loops)
        yield (
            ("home_holes",),
            f"home lanes of {home} holes meet each other or another segment's track on the"
            f" loop of {clashing[0]} segments (they run in from the entrance hole): at most"
            f" {room} fit on every loop the board draws",
        )
    rooms = {sides: _pen_room(board, sides) for sides in loops}
    narrow = [sides for sides, room in rooms.items() if board.pen_holes > room]
    if narrow:
        yield (
            ("pen_holes",),
            f"a pen of {board.pen_holes} holes is wider than its segment on the loop of"
            f" {narrow[0]} segments (it lies along the segment, centred on the start hole):"
            f" at most {max(min(rooms.values()), 0)} fit on every loop the board draws",
        )


def _home_room(board: TrackBoard, sides: int) -> int:
    """The most home holes that fit the loop of `sides` (none when even one does not)."""
    fits = (h for h in range(board.home_holes, 0, -1) if not _homes_clash(board, sides, h))
    return next(fits, 0)


def _homes_clash(board: TrackBoard, sides: int, home: int) -> bool:
    """Whether the home lanes of `home` holes on a loop of `sides` meet one another or run
    into another segment's band (the lane of the bottom side against each other side's)."""
    from toolkit.render.boards.track import IN, loop_apothem

    a = loop_apothem(board, sides, home)
    x = board.holes_per_segment / 2 - (board.entrance_offset + 0.5)
    lane = ((x, -a + LANE_START), (x, -a + home + LANE_END))
    for k in range(1, sides):
        turn = 2 * math.pi * k / sides
        other = (_turned(lane[0], turn), _turned(lane[1], turn))
        if _distance(lane, other) < 2 * LANE_HALF + GAP:
            return True
        # the far end against side k's band: its inner edge lies a - IN from the centre
        if _depth(lane[1], turn) < -(a - IN) + LANE_HALF:
            return True
    return False


def _pen_room(board: TrackBoard, sides: int) -> int:
    """How many pen holes the segment holds along its outer band, centred on the start."""
    from toolkit.render.boards.track import loop_apothem

    a = loop_apothem(board, sides)
    half = (a + PEN_ROW - PEN_HALF) * math.tan(math.pi / sides)
    x = board.holes_per_segment / 2 - (board.start_offset + 0.5)
    return math.floor(2 * (half - abs(x)))


def _turned(point: Point, angle: float) -> Point:
    c, s = math.cos(angle), math.sin(angle)
    return point[0] * c - point[1] * s, point[0] * s + point[1] * c


def _depth(point: Point, angle: float) -> float:
    """The point's y in the frame of the side turned by `angle` (that side at the bottom)."""
    return _turned(point, -angle)[1]


def _distance(p: tuple[Point, Point], q: tuple[Point, Point]) -> float:
    """The least distance between two line segments."""
    if _cross(p, q):
        return 0.0
    return min(
        _to_segment(p[0], q),
        _to_segment(p[1], q),
        _to_segment(q[0], p),
        _to_segment(q[1], p),
    )


def _cross(p: tuple[Point, Point], q: tuple[Point, Point]) -> bool:
    def side(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = side(q[0], q[1], p[0]), side(q[0], q[1], p[1])
    d3, d4 = side(p[0], p[1], q[0]), side(p[0], p[1], q[1])
    return d1 * d2 < 0 and d3 * d4 < 0


def _to_segment(point: Point, seg: tuple[Point, Point]) -> float:
    (x1, y1), (x2, y2) = seg
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    t = (
        0.0
        if length == 0
        else max(0.0, min(1.0, ((point[0] - x1) * dx + (point[1] - y1) * dy) / length))
    )
    return math.hypot(point[0] - (x1 + t * dx), point[1] - (y1 + t * dy))
