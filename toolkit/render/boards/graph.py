"""Graph boards (maps): spaces at their real places, links, routes and a legend.

Positions come from latitude and longitude through an equirectangular projection corrected by
cos(latitude), scaled to an A2 poster. Spaces closer than a pawn are pushed apart on paper
only (the data keeps real coordinates), then names are placed where they hide the least.
Colours, icons, lines and words come from the board's look (`look.py`).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.content.models.board import GraphBoard, GraphSpace, LineStyle
from toolkit.render.boards.look import ICON_SIDE, Look, Space
from toolkit.render.fonts import font_name, text_width
from toolkit.render.line_tally import polyline_length, tally_line
from toolkit.render.tiling import Drawing, halo_text, poster_area

Rect = tuple[float, float, float, float]
Chain = tuple[str, list[str]]  # (line kind, the spaces it runs through)

INSET = 14 * mm  # free border around the map inside the drawing
GAP = 3.2 * mm  # least paper between two spaces after nudging
START_RING = 1.7 * mm
MARKER = 2.6 * mm  # the radius of a line's marker
RING = 1.2 * mm  # width of the region-coloured ring
INK = HexColor("#1e1e1e")
PAPER = HexColor("#f3f7fa")
CAPS = {"butt": 0, "round": 1, "square": 2}


@dataclass
class Spot:
    """A space as drawn: where, how big, in which colours, and where its name goes."""

    space: GraphSpace
    x: float
    y: float
    style: Space
    ring: str | None
    start: bool
    label: tuple[float, float] | None = None  # baseline origin of the name

    @property
    def r(self) -> float:
        return self.style.radius_mm * mm

    @property
    def reach(self) -> float:
        return self.r + (START_RING + 0.6 * mm if self.start else 0)


@dataclass
class Plan:
    """Everything the draw step needs, computed once (the drawing is drawn per tile)."""

    board: GraphBoard
    look: Look
    width: float
    height: float
    spots: dict[str, Spot]
    links: list[Chain]  # plain links, each a chain of two
    routes: list[Chain]  # straight routes through their stops
    arcs: list[tuple[str, Arc]]
    km: float  # points per km on paper, for the scale bar (0 without geography)
    title_box: Rect = (0, 0, 0, 0)
    legend_box: Rect = (0, 0, 0, 0)
    legend_rows: list[tuple[str, str, str]] = field(default_factory=list)
    crowded: bool = False  # the spreading and nudging stopped at MAX_PAIRS
    unweighed: int = 0  # names put east of their space past MAX_LABEL_WORK

    @property
    def lang(self) -> str:
        return self.look.lang


# ---------------------------------------------------------------- geometry


def _project(spaces: list[GraphSpace]) -> tuple[dict[str, tuple[float, float]], bool]:
    """Plane coordinates (km, y up): lat/lon if every space has them, else layout mm."""
    if all(s.lat is not None and s.lon is not None for s in spaces):
        lats = [s.lat for s in spaces if s.lat is not None]
        mid = (min(lats) + max(lats)) / 2
        k = math.cos(math.radians(mid)) * 111.2
        return {s.id: ((s.lon or 0) * k, (s.lat or 0) * 111.2) for s in spaces}, True
    if all(s.x is not None and s.y is not None for s in spaces):
        return {s.id: (s.x or 0.0, -(s.y or 0.0)) for s in spaces}, False
    n = len(spaces)
    return {
        s.id: (100 * math.cos(2 * math.pi * i / n), 100 * math.sin(2 * math.pi * i / n))
        for i, s in enumerate(spaces)
    }, False


MAX_PAIRS = 100_000
"""Pairs of nearby spaces the spreading and nudging of one board may compare, together.
Each round compares every space with those in the cells around it, so spaces piled on one
spot cost the square of their number per round: 400 spaces at one place took 170 s, 2,000
spaces spread over a map over two minutes. The bundled map compares about 7,600 pairs; a
board that reaches the bound is printed as its spaces lie then (some may touch; 200 spaces
a tenth of a degree apart compare more than 50,000). A pair costs ~1-2 µs with what the
spreading does with it, so ~0.15 s a board at the bound: it was 400,000 until budget59,
when 85 boards of 100 spaces piled on one spot (449 kB) took a cold `validate` 10 s; a game
lists at most toolkit.content.game.MAX_BOARD_FILES boards."""


@dataclass
class _Work:
    """What is left of a board's `MAX_PAIRS`."""

    pairs: int = MAX_PAIRS

    def spend(self, count: int) -> bool:
        """Count `count` comparisons; False once the bound is reached."""
        self.pairs -= count
        return self.pairs >= 0


def _too_close(spots: list[Spot], work: _Work | None = None) -> list[tuple[int, int, float]]:
    """Pairs closer than they may be on paper, with the factor that would free each (the
    pairs found until `work` runs out)."""
    work = work if work is not None else _Work()
    reach = [s.reach for s in spots]
    cell = 2 * max(reach) + GAP
    buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, s in enumerate(spots):
        buckets[(int(s.x // cell), int(s.y // cell))].append(i)
    xs = [s.x for s in spots]
    ys = [s.y for s in spots]
    out: list[tuple[int, int, float]] = []
    hypot = math.hypot
    for (cx, cy), members in sorted(buckets.items()):
        around = [buckets.get((cx + dx, cy + dy), []) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        count = sum(len(ids) for ids in around)
        for i in members:
            if not work.spend(count):
                return out
            ax, ay, ra = xs[i], ys[i], reach[i]
            for ids in around:  # the cells around, in order; each cell's spaces ascend
                for j in ids[bisect_right(ids, i) :]:  # the pairs i < j
                    d = hypot(xs[j] - ax, ys[j] - ay)
                    need = ra + reach[j] + GAP
                    if d < need:
                        least = need / 4  # need / max(d, least), without the call
                        out.append((i, j, need / (least if least > d else d)))
    return out


def _root(parent: list[int], i: int) -> int:
    """Union-find root, halving the path on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _spread(spots: list[Spot], rounds: int = 60, work: _Work | None = None) -> None:
    """Enlarge each crowded group about its own centre: it keeps its shape (who lies west of
    whom), which pushing pairs apart one by one would scramble."""
    work = work if work is not None else _Work()
    for _ in range(rounds):
        pairs = _too_close(spots, work)
        if not pairs or work.pairs < 0:
            return
        parent = list(range(len(spots)))
        factor: dict[int, float] = {}
        for i, j, _f in pairs:
            # parent[_root(parent, i)] = _root(parent, j), without the calls (j's first, as
            # Python works out the value before the place it goes)
            while parent[j] != j:
                parent[j] = parent[parent[j]]
                j = parent[j]
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            parent[i] = j
        roots = [_root(parent, i) for i in range(len(spots))]
        for i, _j, f in pairs:
            r = roots[i]
            kept = factor.get(r, 1.0)
            factor[r] = f if f > kept else kept  # max(kept, f)
        groups: dict[int, list[int]] = defaultdict(list)
        for i, r in enumerate(roots):
            if r in factor:
                groups[r].append(i)
        for r, members in sorted(groups.items()):
            f = min(factor[r], 1.6) + 0.02
            mx = sum(spots[i].x for i in members) / len(members)
            my = sum(spots[i].y for i in members) / len(members)
            for i in members:
                spots[i].x = mx + (spots[i].x - mx) * f
                spots[i].y = my + (spots[i].y - my) * f


def _nudge(
    spots: list[Spot], width: float, height: float, rounds: int = 600, work: _Work | None = None
) -> None:
    """Push apart spaces that would overlap or touch on paper, as little as needed (until
    `work` runs out)."""
    work = work if work is not None else _Work()
    cell = 2 * max(s.reach for s in spots) + GAP
    golden = math.pi * (3 - math.sqrt(5))
    for _ in range(rounds):
        buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, s in enumerate(spots):
            buckets[(int(s.x // cell), int(s.y // cell))].append(i)
        moved = False
        for (cx, cy), members in sorted(buckets.items()):
            near = [
                j
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
                for j in buckets.get((cx + dx, cy + dy), ())
            ]
            for i in members:
                if not work.spend(len(near)):
                    break
                a = spots[i]
                for j in near:
                    if j <= i:
                        continue
                    b = spots[j]
                    need = a.reach + b.reach + GAP
                    dx, dy = b.x - a.x, b.y - a.y
                    d = math.hypot(dx, dy)
                    if d >= need - 1e-6:
                        continue
                    if d < 1e-6:
                        angle = golden * (i + j)
                        dx, dy, d = math.cos(angle), math.sin(angle), 1.0
                    push = (need - d) / 2 + 0.05
                    ux, uy = dx / d, dy / d
                    a.x, a.y = a.x - ux * push, a.y - uy * push
                    b.x, b.y = b.x + ux * push, b.y + uy * push
                    moved = True
        for s in spots:
            s.x = min(max(s.x, s.reach + 2 * mm), width - s.reach - 2 * mm)
            s.y = min(max(s.y, s.reach + 2 * mm), height - s.reach - 2 * mm)
        if not moved or work.pairs < 0:
            return


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _covered(
    rect: Rect, rects: list[Rect], base: float = 0.0, weight: float = 1.0, bound: float = math.inf
) -> float:
    """`sum(_overlap(rect, r) for r in rects)`, the same float (the same terms added in the
    same order; a zero term leaves a sum of areas as it is), without a call per rectangle:
    a name weighs its eight places against every name and space near it (`_weigh_labels`),
    so this loop is most of a crowded board's layout. The sum so far is returned once
    `base + sum * weight` reaches `bound`: the whole sum, which only grows, would too."""
    x0, y0, x1, y1 = rect
    total = 0.0
    for a0, b0, a1, b1 in rects:
        # min(x1, a1) - max(x0, a0), as min and max pick between equal or unordered values
        w = (a1 if a1 < x1 else x1) - (a0 if a0 > x0 else x0)
        if w > 0:
            h = (b1 if b1 < y1 else y1) - (b0 if b0 > y0 else y0)
            if h > 0:
                total += w * h
                if base + total * weight >= bound:
                    return total
    return total


def _touching(area: Rect, rects: list[Rect], ids: list[int]) -> list[int]:
    """The indices in `ids` whose rectangle overlaps `area` (`_overlap(area, r) > 0`), in
    order."""
    x0, y0, x1, y1 = area
    kept = []
    for i in ids:
        a0, b0, a1, b1 = rects[i]
        w = (a1 if a1 < x1 else x1) - (a0 if a0 > x0 else x0)
        if w > 0:
            h = (b1 if b1 < y1 else y1) - (b0 if b0 > y0 else y0)
            if h > 0 and w * h > 0:
                kept.append(i)
    return kept


def _segment_hits(rect: Rect, p: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether segment pq crosses the rectangle (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = rect
    dx, dy = q[0] - p[0], q[1] - p[1]
    t0, t1 = 0.0, 1.0
    for edge_p, edge_q in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _hits(
    rect: Rect,
    segs: list[tuple[tuple[float, float], tuple[float, float]]],
    cost: float,
    best: float | None,
) -> int:
    """How many of `segs` cross `rect`, counted until `cost` + 40 a road crossed reaches
    `best`: the place then loses to the best one whatever the rest of the count (the sum
    only grows), so the choice is the one the whole count makes."""
    count = 0
    for p, q in segs:
        if _segment_hits(rect, p, q):
            count += 1
            if best is not None and cost + 40 * count >= best:
                return count
    return count


def _spot_box(s: Spot) -> Rect:
    return (s.x - s.reach, s.y - s.reach, s.x + s.reach, s.y + s.reach)


def _segments(plan: Plan) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    pts = {k: (s.x, s.y) for k, s in plan.spots.items()}
    segs = []
    for _kind, chain in plan.links + plan.routes:
        segs += [(pts[a], pts[b]) for a, b in zip(chain, chain[1:], strict=False)]
    return segs


def _place_box(plan: Plan, w: float, h: float, corners: list[str], taken: list[Rect]) -> Rect:
    """Where a w×h block (title, legend) hides the fewest spaces and roads, near an edge."""
    m = 6 * mm
    W, H = plan.width, plan.height
    starts = {
        "tl": (m, H - m - h),
        "tr": (W - m - w, H - m - h),
        "bl": (m, m),
        "br": (W - m - w, m),
    }
    candidates: list[Rect] = []
    for corner in corners:
        x, y = starts[corner]
        sx = 1 if corner[1] == "l" else -1
        sy = 1 if corner[0] == "b" else -1
        for k in range(0, 40):
            for dx, dy in ((k * 5 * mm * sx, 0), (0, k * 5 * mm * sy)):
                cx, cy = x + dx, y + dy
                if m <= cx <= W - m - w and m <= cy <= H - m - h:
                    candidates.append((cx, cy, cx + w, cy + h))
    if not candidates:  # wider or taller than the page allows: at its first corner's margin
        x, y = (max(v, m) for v in starts[corners[0]])
        return (x, y, x + w, y + h)
    boxes = [_spot_box(s) for s in plan.spots.values()]
    box_grid = _Grid()
    for b in boxes:
        box_grid.add(b)
    segs = _segments(plan)
    # each candidate is weighed against every space and road: past MAX_LABEL_WORK, fewer
    # candidates, evenly chosen (the bundled map weighs at most 86,000)
    step = math.ceil(len(candidates) * (len(boxes) + len(segs) + 1) / MAX_LABEL_WORK)
    candidates = candidates[:: max(1, step)]
    best, best_cost = candidates[0], math.inf
    for i, rect in enumerate(candidates):
        x0, y0, x1, y1 = rect
        cost = i * 1e-3 + 1000 * sum(1 for t in taken if _overlap(rect, t) > 0)
        cost += 50 * sum(
            1
            for b in map(boxes.__getitem__, box_grid.near(rect))  # a count: in any order
            if b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0
        )
        if cost >= best_cost:
            continue
        cost += 10 * sum(1 for p, q in segs if _segment_hits(rect, p, q))
        if cost < best_cost:
            best, best_cost = rect, cost
    return best


def _label_rect(s: Spot, where: str, width: float, size: float) -> tuple[Rect, tuple[float, float]]:
    gap = 1.0 * mm
    asc, desc = size * 0.75, size * 0.22
    r = s.reach
    d = r * 0.72
    if where == "e":
        ox, oy = s.x + r + gap, s.y - size * 0.3
    elif where == "w":
        ox, oy = s.x - r - gap - width, s.y - size * 0.3
    elif where == "n":
        ox, oy = s.x - width / 2, s.y + r + gap + desc
    elif where == "s":
        ox, oy = s.x - width / 2, s.y - r - gap - asc
    elif where == "ne":
        ox, oy = s.x + d + gap * 0.5, s.y + d + desc
    elif where == "nw":
        ox, oy = s.x - d - gap * 0.5 - width, s.y + d + desc
    elif where == "se":
        ox, oy = s.x + d + gap * 0.5, s.y - d - asc
    else:  # sw
        ox, oy = s.x - d - gap * 0.5 - width, s.y - d - asc
    return (ox, oy - desc, ox + width, oy + asc), (ox, oy)


MAX_LABEL_WORK = 400_000
"""Boxes, names and roads the names of one board may be weighed against, together (the
bundled map: about 11,000; `_may_unweigh` bounds it under 290,000, so `validate` need not
place its names), ~0.5 µs a unit: ~0.2 s a board at the bound. Each name is weighed only
against what lies near it (`_Grid`), but names piled on one spot lie near each other: past
the bound, the names left go east of their space unweighed."""

GRID = 15 * mm
"""Cell of the grid that finds what lies near a name (the area a name looks at reaches 15 mm
above and below its space)."""
GRID_SPAN = 64
"""Cells a rectangle may cover in the grid; a larger one (a long road, the title) is near
everything."""


class _Grid:
    """The rectangles of a list (by index), found by the grid cells they cover."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)
        self.everywhere: list[int] = []
        self.count = 0

    @staticmethod
    def _span(rect: Rect) -> tuple[range, range] | None:
        if not all(math.isfinite(v) for v in rect):
            return None
        xs = range(math.floor(rect[0] / GRID), math.floor(rect[2] / GRID) + 1)
        ys = range(math.floor(rect[1] / GRID), math.floor(rect[3] / GRID) + 1)
        return (xs, ys) if len(xs) * len(ys) <= GRID_SPAN else None

    def add(self, rect: Rect) -> None:
        span = self._span(rect)
        if span is None:
            self.everywhere.append(self.count)
        else:
            for cx in span[0]:
                for cy in span[1]:
                    self.cells[(cx, cy)].append(self.count)
        self.count += 1

    def near(self, area: Rect) -> list[int]:
        """The indices of the rectangles that may overlap `area`, in list order."""
        span = self._span(area)
        if span is None:
            return list(range(self.count))
        found = set(self.everywhere)
        for cx in span[0]:
            for cy in span[1]:
                found.update(self.cells.get((cx, cy), ()))
        return sorted(found)


PLACES = ("e", "w", "n", "s", "ne", "nw", "se", "sw")
"""Where a name may go beside its space, the first preferred."""


PLACED_KEPT = 64
"""Label placements kept (`_place_labels`): a board's in each language, for a few boards."""

_placed: dict[tuple[object, ...], tuple[list[tuple[str, tuple[float, float] | None]], int]] = {}


def _place_labels(plan: Plan) -> None:
    """Where each name goes (`_weigh_labels`), worked out once for the same inputs: a board
    whose names, title and legend take the same room in several languages places its names
    once, not once per language, and `validate`, `build` and the preview share it (probe 42
    M5: 10 boards of 400 spaces in 3 languages, 18.7 s to preview, most of it placing)."""
    key = _labels_key(plan)
    kept = _placed.get(key)
    if kept is None:
        _weigh_labels(plan)
        kept = ([(k, s.label) for k, s in plan.spots.items()], plan.unweighed)
        if len(_placed) >= PLACED_KEPT:
            _placed.pop(next(iter(_placed)), None)  # the oldest
        _placed[key] = kept
        return
    labels, unweighed = kept
    for k, label in labels:
        plan.spots[k].label = label
    plan.unweighed = unweighed


def _labels_key(plan: Plan) -> tuple[object, ...]:
    """Everything `_weigh_labels` reads: the spaces' ids, kinds, places and sizes, the
    printed names' widths (name, face and size), the roads, the title and legend boxes."""
    prefix = plan.look.style.unnamed_prefix
    spots = tuple(
        (
            k,
            s.space.id,
            s.space.kind,
            s.x,
            s.y,
            s.reach,
            s.style.font_size,
            text_width(s.space.name, s.style.font_size, plan.look.face(s.style.font))
            if _named(s, prefix)
            else None,
        )
        for k, s in plan.spots.items()
    )
    return (
        tuple(plan.look.style.spaces),
        plan.width,
        plan.height,
        plan.title_box,
        plan.legend_box,
        spots,
        tuple(_segments(plan)),
        MAX_LABEL_WORK,
    )


def _weigh_labels(plan: Plan) -> None:
    """Greedy: the most important names first, each where it covers the least."""
    order = list(plan.look.style.spaces)
    spots = sorted(
        (s for s in plan.spots.values() if _named(s, plan.look.style.unnamed_prefix)),
        key=lambda s: (order.index(s.space.kind) if s.space.kind in order else 99, s.space.id),
    )
    all_boxes = [(k, _spot_box(s)) for k, s in plan.spots.items()]
    box_rects = [b for _, b in all_boxes]
    all_segs = _segments(plan)
    seg_boxes = [
        (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]) + 1, max(p[1], q[1]) + 1)
        for p, q in all_segs
    ]
    placed: list[Rect] = [plan.title_box, plan.legend_box]
    box_grid, seg_grid, placed_grid = _Grid(), _Grid(), _Grid()
    for _, b in all_boxes:
        box_grid.add(b)
    for b in seg_boxes:
        seg_grid.add(b)
    for p in placed:
        placed_grid.add(p)
    left = MAX_LABEL_WORK
    for s in spots:
        width = text_width(s.space.name, s.style.font_size, plan.look.face(s.style.font))
        if left < 0:  # past the bound: east of the space, unweighed
            rect, s.label = _label_rect(s, "e", width, s.style.font_size)
            placed.append(rect)
            plan.unweighed += 1
            continue
        best: tuple[float, tuple[float, float], Rect] | None = None
        # Only what lies near this space can be hidden by its name.
        area = (s.x - width - 15 * mm, s.y - 15 * mm, s.x + width + 15 * mm, s.y + 15 * mm)
        box_ids, placed_ids, seg_ids = (g.near(area) for g in (box_grid, placed_grid, seg_grid))
        left -= len(box_ids) + len(placed_ids) + len(seg_ids)
        box_ids = _touching(area, box_rects, box_ids)
        near = [placed[i] for i in _touching(area, placed, placed_ids)]
        segs = [all_segs[i] for i in _touching(area, seg_boxes, seg_ids)]
        left -= 8 * (len(box_ids) + len(near) + len(segs))
        others = [box_rects[i] for i in box_ids if all_boxes[i][0] != s.space.id]
        for rank, where in enumerate(PLACES):
            rect, origin = _label_rect(s, where, width, s.style.font_size)
            cost = rank * 0.5
            if rect[0] < 2 * mm or rect[2] > plan.width - 2 * mm:
                cost += 1e6
            if rect[1] < 2 * mm or rect[3] > plan.height - 2 * mm:
                cost += 1e6
            bound = math.inf if best is None else best[0]
            cost += _covered(rect, near, cost, 2.0, bound) * 2.0
            if best is not None and cost >= bound:
                continue  # the boxes' overlap only adds
            cost += _covered(rect, others, cost, 1.0, bound) * 1.0
            if best is not None and cost >= best[0]:
                continue
            cost += 40 * _hits(rect, segs, cost, None if best is None else best[0])
            if best is None or cost < best[0]:
                best = (cost, origin, rect)
        assert best is not None
        s.label = best[1]
        placed.append(best[2])
        placed_grid.add(best[2])


def _named(s: Spot, prefix: str | None) -> bool:
    return prints_name(s.space, s.style, prefix)


def prints_name(space: GraphSpace, style: Space, prefix: str | None) -> bool:
    """Whether a space's name is printed: its kind is `named`, the name not a filler's
    (the board style's `unnamed_prefix`)."""
    return style.named and not (prefix and space.name.startswith(prefix))


def printed_names(board: GraphBoard, look: Look) -> Iterator[tuple[Path, str]]:
    """The place names the map prints as written (for the checks of printed letters), with
    their paths in the board's data."""
    prefix = look.style.unnamed_prefix
    styles = {kind: look.space(kind) for kind in {s.kind for s in board.spaces}}
    for index, space in enumerate(board.spaces):
        if prints_name(space, styles[space.kind], prefix):
            yield ("spaces", index, "name"), space.name


# ---------------------------------------------------------------- plan


def plan_graph(board: GraphBoard, look: Look) -> Plan:
    """Project, scale, nudge and label: the whole layout, computed once."""
    plan, arcs = _spaced(board, look, kept=True)
    _surround(plan, arcs)
    return plan


SPREADS_KEPT = 64
"""Spreadings kept (`_spaced`): a board's, for a few boards, whatever the language."""

_spreads: dict[tuple[object, ...], tuple[list[tuple[float, float]], bool]] = {}


def _spread_key(spots: list[Spot], width: float, height: float) -> tuple[object, ...]:
    """Everything `_spread` and `_nudge` read: each spot's place and reach (a zero's sign
    too), the poster's size and the pairs they may compare."""
    places = tuple(
        (s.x, s.y, s.reach, math.copysign(1.0, s.x), math.copysign(1.0, s.y)) for s in spots
    )
    return (width, height, places, MAX_PAIRS)


def _spaced(
    board: GraphBoard, look: Look, kept: bool = False
) -> tuple[Plan, list[tuple[str, str, str]]]:
    """The plan with its spaces projected, scaled, spread and nudged (`crowded` said), and
    the arcs to bow: nothing placed around the spaces yet. With `kept`, a spreading worked
    out before for the same spots is reused (`_spreads`): a board is laid out in each
    language by `build` and the preview, and its spreading, ~half of a crowded board's
    layout, reads nothing of the language."""
    coords, geographic = _project(board.spaces)
    xs = [p[0] for p in coords.values()]
    ys = [p[1] for p in coords.values()]
    span_x, span_y = max(max(xs) - min(xs), 1e-6), max(max(ys) - min(ys), 1e-6)
    width, height = poster_area(landscape=span_x > span_y)
    scale = min((width - 2 * INSET) / span_x, (height - 2 * INSET) / span_y)
    left = (width - span_x * scale) / 2 - min(xs) * scale
    bottom = (height - span_y * scale) / 2 - min(ys) * scale
    regions = {r.id: r.colour for r in board.regions}
    styles = {kind: look.space(kind) for kind in {s.kind for s in board.spaces}}
    spots = {
        s.id: Spot(
            s,
            coords[s.id][0] * scale + left,
            coords[s.id][1] * scale + bottom,
            styles[s.kind],
            regions.get(s.region) if s.region else None,
            "start" in s.tags,
        )
        for s in board.spaces
    }
    listed = list(spots.values())
    key = _spread_key(listed, width, height) if kept else None
    known = _spreads.get(key) if key is not None else None
    if known is None:
        work = _Work()
        _spread(listed, work=work)
        _nudge(listed, width, height, work=work)
        known = ([(s.x, s.y) for s in listed], work.pairs < 0)
        if key is not None:
            if len(_spreads) >= SPREADS_KEPT:
                _spreads.pop(next(iter(_spreads)), None)  # the oldest
            _spreads[key] = known
    else:
        for s, (x, y) in zip(listed, known[0], strict=True):
            s.x, s.y = x, y
    routes, arcs, links = _lines(board, look)
    plan = Plan(board, look, width, height, spots, links, routes, [], scale if geographic else 0.0)
    plan.crowded = known[1]
    return plan, arcs


def _surround(plan: Plan, arcs: list[tuple[str, str, str]]) -> None:
    """Bow the arcs and place the title, the legend and the names around the spaces."""
    plan.arcs = _arcs(plan, arcs)
    tw, th = _title_size(plan)
    plan.title_box = _place_box(plan, tw, th, ["tl", "tr", "bl", "br"], [])
    plan.legend_rows = _legend_rows(plan)
    lw, lh = _legend_size(plan)
    plan.legend_box = _place_box(plan, lw, lh, ["br", "bl", "tr", "tl"], [plan.title_box])
    _place_labels(plan)


def _lines(
    board: GraphBoard, look: Look
) -> tuple[list[Chain], list[tuple[str, str, str]], list[Chain]]:
    """Straight routes, arcs (kind, from, to) and the links no route already draws. A stop
    or link end that names no space (R004's finding) is left out: a route is drawn in the
    runs of its known stops, an arc or a link only between two known spaces."""
    known = {s.id for s in board.spaces}
    routed = set()
    routes: list[Chain] = []
    arcs: list[tuple[str, str, str]] = []
    for route in sorted(board.routes, key=lambda r: (look.line(r.kind).shape == "arc", r.kind)):
        routed |= {frozenset(p) for p in zip(route.stops, route.stops[1:], strict=False)}
        if look.line(route.kind).shape == "arc":
            pairs = zip(route.stops, route.stops[1:], strict=False)
            arcs += [(route.kind, a, b) for a, b in pairs if a in known and b in known]
        elif known.issuperset(route.stops):
            routes.append((route.kind, route.stops))
        else:
            routes += [(route.kind, run) for run in _known_runs(route.stops, known) if len(run) > 1]
    links = [
        (lk.kind, [lk.a, lk.b])
        for lk in board.links
        if frozenset((lk.a, lk.b)) not in routed and lk.a in known and lk.b in known
    ]
    return routes, arcs, links


def _known_runs(stops: list[str], known: set[str]) -> list[list[str]]:
    """The runs of consecutive stops that name spaces, in order."""
    runs: list[list[str]] = [[]]
    for stop in stops:
        if stop in known:
            runs[-1].append(stop)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def _title_size(plan: Plan) -> tuple[float, float]:
    title = plan.board.name.get(plan.lang, plan.board.id)
    return text_width(title, 26, plan.look.face("bold")) + 4 * mm, 14 * mm


Path = tuple[str | int, ...]


def problems(board: GraphBoard, look: Look, laid_out: bool) -> list[tuple[Path, str, bool]]:
    """What `validate` reports of the board as drawn in `look`'s language (P016): a title or
    legend larger than the poster (it would run off the page: an error, True), and with
    `laid_out`, a board past the layout's work bounds (some spaces may touch, some names are
    put east of their space without avoiding the rest: a warning, False) and a place name
    that runs off the poster wherever it goes (an error). The whole layout runs only when
    the board's size could reach a bound or a name could run off."""
    found: list[tuple[Path, str, bool]] = []
    coords, geographic = _project(board.spaces)
    xs = [p[0] for p in coords.values()]
    ys = [p[1] for p in coords.values()]
    width, height = poster_area(landscape=max(xs) - min(xs) > max(ys) - min(ys))
    frame = Plan(board, look, width, height, {}, [], [], [], 0.0)
    room_w, room_h = width - 12 * mm, height - 12 * mm  # _place_box's margins
    tw, _th = _title_size(frame)
    if tw > room_w:
        found.append(
            (
                ("name", look.lang) if look.lang in board.name else ("id",),
                f"the title is {tw / mm:.0f} mm wide in {look.lang}, the poster holds "
                f"{room_w / mm:.0f} mm: it would run off the page (shorten it)",
                True,
            )
        )
    crowding, labelling = laid_out and _may_crowd(board), laid_out and _may_unweigh(board, look)
    if labelling:  # the names' work is known by placing them
        plan = plan_graph(board, look)
    else:
        plan = _framed(board, look, width, height)
        if crowding:  # the spreading's work is known by spreading; no name goes unweighed
            plan.crowded = _spaced(board, look)[0].crowded
    if laid_out and _may_run_off(plan):  # where a long name may go is known by laying out
        found += _names_off_page(plan if labelling else plan_graph(board, look))
    lw, lh = _legend_size(plan)
    if lw > room_w or lh > room_h:
        rows = [r for r in plan.legend_rows if r[0] != "gap"]
        found.append(
            (
                ("spaces",),
                f"the legend ({len(rows)} rows: the kinds of space and road, the regions) is "
                f"{lw / mm:.0f} × {lh / mm:.0f} mm in {look.lang}, the poster holds "
                f"{room_w / mm:.0f} × {room_h / mm:.0f} mm: it would run off the page "
                "(fewer kinds or regions, or shorter labels)",
                True,
            )
        )
    if plan.crowded or plan.unweighed:
        what = []
        if plan.crowded:
            what.append("some spaces may touch (too many lie close together to push apart)")
        if plan.unweighed:
            what.append(
                f"{plan.unweighed} of its names are put east of their space without avoiding "
                "the others"
            )
        found.append(
            (
                ("spaces",),
                f"{len(board.spaces)} spaces are more than the map's layout weighs: "
                + " and ".join(what)
                + " (spread the spaces, or split the board)",
                False,
            )
        )
    return found


def icon_uses(board: GraphBoard, look: Look) -> list[tuple[Path, str, int, float]]:
    """(style field, icon, places, its box's side in points) of each icon the map draws
    (`BoardKind.icon_uses`): a
    space kind's icon in each of its spaces and its legend row, a line's marker on each arc
    of its kind and its legend row (at most: a marker goes where the arc is clear)."""
    uses: list[tuple[Path, str, int, float]] = []
    spaces = Counter(s.kind for s in board.spaces)
    for kind, count in spaces.items():
        style = look.space(kind)
        if style.icon and style.icon != "none":
            side = style.radius_mm * mm * ICON_SIDE  # at most: a ring draws it smaller
            uses.append((("style", "spaces", kind, "icon"), style.icon, count + 1, side))
    known = {s.id for s in board.spaces}
    arcs: Counter[str] = Counter({link.kind: 0 for link in board.links})  # a legend row
    first: dict[str, Path] = {}
    for index, route in enumerate(board.routes):
        pairs = zip(route.stops, route.stops[1:], strict=False)
        arcs[route.kind] += sum(1 for a, b in pairs if a in known and b in known)
        first.setdefault(route.kind, ("routes", index, "kind"))
    for kind, count in arcs.items():
        line = look.line(kind)
        if line.shape != "arc" or not line.marker:
            continue  # only an arc draws its marker (a link is never one: its legend row is)
        own = look.style.links.get(kind)
        named = own is not None and own.marker is not None
        path = ("style", "links", kind, "marker") if named else first.get(kind, ("links",))
        uses.append((path, line.marker, count + 1, MARKER * ICON_SIDE))
    return uses


def _names_off_page(plan: Plan) -> list[tuple[Path, str, bool]]:
    """An error at each place name that runs off the poster wherever it goes beside its
    space (`_place_labels` tries eight places and takes the one it covers least with, the
    page's edge weighing most): a name is printed at its kind's size, never shrunk."""
    found: list[tuple[Path, str, bool]] = []
    prefix = plan.look.style.unnamed_prefix
    for index, space in enumerate(plan.board.spaces):
        s = plan.spots.get(space.id)
        if s is None or s.space is not space or not _named(s, prefix):
            continue
        size = s.style.font_size
        width = text_width(space.name, size, plan.look.face(s.style.font))
        rects = [_label_rect(s, where, width, size)[0] for where in PLACES]
        if any(_on_page(plan, rect) for rect in rects):
            continue
        found.append(
            (
                ("spaces", index, "name"),
                f"the place name {space.name!r} is {width / mm:.0f} mm long at {size:g} pt:"
                " wherever it goes beside its space it runs off the poster"
                f" ({plan.width / mm:.0f} × {plan.height / mm:.0f} mm); shorten it, or make"
                " its kind's `font_size` smaller",
                True,
            )
        )
    return found


def _may_run_off(plan: Plan) -> bool:
    """Whether a place name could run off the poster, wherever its space lies: not when each
    fits east or west of a space on the page (the wider side holds half the page) and its
    height the border the nudge keeps around a space, so the layout need not run."""
    prefix = plan.look.style.unnamed_prefix
    for s in plan.spots.values():
        if not _named(s, prefix):
            continue
        size = s.style.font_size
        room = plan.width / 2 - s.reach - 1.0 * mm  # `_label_rect`'s gap
        if 0.52 * size > s.reach + 2 * mm:  # the name's reach below its centre line
            return True
        if text_width(s.space.name, size, plan.look.face(s.style.font)) > room:
            return True
    return False


def _on_page(plan: Plan, rect: Rect) -> bool:
    return rect[0] >= 0 and rect[1] >= 0 and rect[2] <= plan.width and rect[3] <= plan.height


def _may_crowd(board: GraphBoard) -> bool:
    """Whether spreading and nudging `board` could reach MAX_PAIRS: each round of spreading
    (60) and nudging (600) compares each space with at most every other."""
    n = len(board.spaces)
    return 660 * n * n > MAX_PAIRS


def _may_unweigh(board: GraphBoard, look: Look) -> bool:
    """Whether placing the names of `board` could reach MAX_LABEL_WORK, from what
    `_place_labels` may spend at most: the k-th name placed weighs (once, then 8 times more
    for those near it) at most every space, every road segment, the title, the legend and
    the k names before it. Below this bound no name goes unweighed, wherever the spaces
    lie, so the layout need not run to know it."""
    prefix = look.style.unnamed_prefix
    styles = {kind: look.space(kind) for kind in {s.kind for s in board.spaces}}
    named = sum(1 for s in board.spaces if prints_name(s, styles[s.kind], prefix))
    routes, _arcs, links = _lines(board, look)
    segments = sum(max(len(chain) - 1, 0) for _kind, chain in links + routes)
    each = len(board.spaces) + segments + 2
    return 9 * (named * each + named * (named - 1) // 2) > MAX_LABEL_WORK


def _framed(board: GraphBoard, look: Look, width: float, height: float) -> Plan:
    """A plan with what the legend lists (kinds, roads, regions, the scale), not laid out."""
    coords, geographic = _project(board.spaces)
    spots = {
        s.id: Spot(s, *coords[s.id], look.space(s.kind), None, "start" in s.tags)
        for s in board.spaces
    }
    routes, arcs, links = _lines(board, look)
    routes += [(kind, [a, b]) for kind, a, b in arcs]  # the legend lists their kinds only
    plan = Plan(board, look, width, height, spots, links, routes, [], 1.0 if geographic else 0.0)
    plan.legend_rows = _legend_rows(plan)
    return plan


# ---------------------------------------------------------------- spaces


def _glyph(c: Canvas, look: Look, style: Space, x: float, y: float, r: float) -> None:
    """The symbol inside a space, so kinds read without colour: its icon (a game glyph, an
    SVG or a toolkit icon), else its label's initial in the build language."""
    c.setLineJoin(1)
    c.setLineCap(1)
    if style.icon == "none":
        return
    if style.icon and look.draw_icon(c, style.icon, x, y, r, style.text_colour):
        return
    u = r / (4.4 * mm)
    c.setFillColor(HexColor(style.text_colour))
    c.setFont(look.font("bold"), 8 * u)
    c.drawCentredString(x, y - 2.9 * u, style.initial)


def draw_space(
    c: Canvas,
    look: Look,
    x: float,
    y: float,
    style: Space,
    r: float,
    ring: str | None,
    start: bool = False,
) -> None:
    """One space: region ring, kind fill, symbol; a start gets an extra black ring."""
    if start:
        c.setStrokeColor(INK)
        c.setFillColor(HexColor("#ffffff"))
        c.setLineWidth(1.4)
        c.circle(x, y, r + START_RING, stroke=1, fill=1)
    c.setLineWidth(0.5)
    c.setStrokeColor(INK if ring or not style.outline else HexColor(style.outline))
    if ring:
        c.setFillColor(HexColor(ring))
        c.circle(x, y, r, stroke=1, fill=1)
        c.setFillColor(HexColor(style.colour))
        c.circle(x, y, r - RING, stroke=0, fill=1)
    else:
        c.setFillColor(HexColor(style.colour))
        c.circle(x, y, r, stroke=1, fill=1)
    _glyph(c, look, style, x, y, r - (RING if ring else 0))


def _halo_text(
    c: Canvas, x: float, y: float, text: str, font: str, size: float, colour: Color = INK
) -> None:
    """Text with a white outline under it, readable across roads and tints (`font` is a
    face: toolkit.render.fonts)."""
    halo_text(c, x, y, text, font_name(font), size, colour, size * 0.28)


# ---------------------------------------------------------------- legend

ROW = 7.0 * mm
LEGEND_SIZE = 8.5
PAD = 4 * mm
SWATCH = 11 * mm
START = Space(
    "start", "", "#ffffff", "#ffffff", None, "none", 2.1, "regular", 7.5, None, True, False, 0
)


def _legend_rows(plan: Plan) -> list[tuple[str, str, str]]:
    """(what, key, label) rows: kinds present, start, line kinds, regions, scale."""
    look = plan.look
    kinds = {s.space.kind for s in plan.spots.values()}
    styled = list(look.style.spaces)
    order = styled + sorted(kinds - set(styled))
    rows = [("space", k, look.space(k).label) for k in order if k in kinds]
    if any(s.start for s in plan.spots.values()):
        rows.append(("start", "start", look.label("start")))
    rows.append(("gap", "", ""))
    drawn = {kind for kind, _ in plan.links + plan.routes} | {kind for kind, _ in plan.arcs}
    known = look.line_order()
    for kind in known + sorted(drawn - set(known)):
        if kind in drawn:
            rows.append(("line", kind, look.line_word(kind)))
    if plan.board.regions:
        rows.append(("gap", "", ""))
        rows += [
            ("region", r.colour or "#9e9e9e", r.name.get(plan.lang, r.id))
            for r in plan.board.regions
        ]
    if plan.km:
        rows.append(("gap", "", ""))
        rows.append(("scale", "", ""))
    return rows


def _row_height(kind: str) -> float:
    return ROW * 0.45 if kind == "gap" else ROW


def _legend_size(plan: Plan) -> tuple[float, float]:
    face = plan.look.face("regular")
    widest = max(text_width(t, LEGEND_SIZE, face) for _, _, t in plan.legend_rows)
    height = sum(_row_height(k) for k, _, _ in plan.legend_rows)
    return max(2 * PAD + SWATCH + 3 * mm + widest, 50 * mm), height + 2 * PAD


def _scale_km(plan: Plan) -> int:
    """A round distance whose bar is 25-60 mm long."""
    for km in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000):
        if km * plan.km >= 25 * mm:
            return km
    return 5000


def _draw_legend(c: Canvas, plan: Plan) -> None:
    x0, y0, x1, y1 = plan.legend_box
    c.setFillColor(HexColor("#ffffff"))
    c.setStrokeColor(HexColor("#9e9e9e"))
    c.setLineWidth(0.6)
    c.roundRect(x0, y0, x1 - x0, y1 - y0, 2 * mm, stroke=1, fill=1)
    y = y1 - PAD
    sx = x0 + PAD + SWATCH / 2
    tx = x0 + PAD + SWATCH + 3 * mm
    for kind, key, text in plan.legend_rows:
        h = _row_height(kind)
        cy = y - h / 2
        y -= h
        if kind == "gap":
            continue
        if kind == "space":
            st = plan.look.space(key)
            draw_space(c, plan.look, sx, cy, st, min(st.radius_mm * mm, 2.8 * mm), None)
        elif kind == "start":
            draw_space(c, plan.look, sx, cy, START, 2.1 * mm, None, start=True)
        elif kind == "line":
            _line_sample(c, plan.look, key, sx - SWATCH / 2, cy, sx + SWATCH / 2)
        elif kind == "region":
            c.setFillColor(HexColor(key))
            c.setStrokeColor(INK)
            c.setLineWidth(0.5)
            c.circle(sx, cy, 2.8 * mm, stroke=1, fill=1)
            c.setFillColor(HexColor("#ffffff"))
            c.circle(sx, cy, 2.8 * mm - RING, stroke=0, fill=1)
        elif kind == "scale":
            km = _scale_km(plan)
            length = km * plan.km
            left = x0 + PAD
            c.setStrokeColor(INK)
            c.setLineWidth(1.2)
            c.line(left, cy, left + length, cy)
            c.line(left, cy - 1.2 * mm, left, cy + 1.2 * mm)
            c.line(left + length, cy - 1.2 * mm, left + length, cy + 1.2 * mm)
            text = f"{km}\u00a0km"
            tx_scale = left + length + 2.5 * mm
            c.setFillColor(INK)
            c.setFont(plan.look.font("regular"), LEGEND_SIZE)
            c.drawString(tx_scale, cy - LEGEND_SIZE * 0.32, text)
            continue
        c.setFillColor(INK)
        c.setFont(plan.look.font("regular"), LEGEND_SIZE)
        c.drawString(tx, cy - LEGEND_SIZE * 0.32, text)


def _line_sample(c: Canvas, look: Look, kind: str, xa: float, y: float, xb: float) -> None:
    line = look.line(kind)
    if line.shape == "arc":
        _draw_arc(c, look, line, _arc((xa, y - 1.0 * mm), (xb, y - 1.0 * mm), 2.5 * mm))
    else:
        _stroke(c, line, [(xa, y), (xb, y)])


# ---------------------------------------------------------------- lines


def _polyline(c: Canvas, pts: list[tuple[float, float]]) -> None:
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    c.drawPath(p, stroke=1, fill=0)


def _stroke(c: Canvas, line: LineStyle, pts: list[tuple[float, float]]) -> None:
    """A straight line through `pts` as its style says: dashed, cased (a thinner line of
    another colour inside), or plain."""
    if not line.dash:
        c.setDash()
    if line.cap in CAPS:
        c.setLineCap(CAPS[line.cap])
    assert line.colour is not None and line.width is not None  # Look.line sets every field
    c.setStrokeColor(HexColor(line.colour))
    c.setLineWidth(line.width)
    if line.dash:
        c.setDash(line.dash)
    _polyline(c, pts)
    length = polyline_length(pts)
    tally_line(length, line.width, line.dash, line.cap)
    if line.inner_colour:
        c.setStrokeColor(HexColor(line.inner_colour))
        inner = line.inner_width or (line.width or 1.0) / 2.5
        c.setLineWidth(inner)
        _polyline(c, pts)
        tally_line(length, inner, line.dash, line.cap)
    if line.dash:
        c.setDash()


@dataclass(frozen=True)
class Arc:
    """A flight drawn as a quadratic curve, with a plane marker where it hides nothing."""

    a: tuple[float, float]
    control: tuple[float, float]
    b: tuple[float, float]
    marker: tuple[float, float] | None
    angle: float


def _arc_point(arc: Arc, t: float) -> tuple[float, float]:
    u = 1 - t
    return (
        u * u * arc.a[0] + 2 * u * t * arc.control[0] + t * t * arc.b[0],
        u * u * arc.a[1] + 2 * u * t * arc.control[1] + t * t * arc.b[1],
    )


def _arc(a: tuple[float, float], b: tuple[float, float], bulge: float) -> Arc:
    """Control point `bulge` × 2 off the chord's middle, so the curve peaks at `bulge`."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d, dx / d
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    control = (mx + nx * bulge * 2, my + ny * bulge * 2)
    return Arc(a, control, b, None, math.degrees(math.atan2(dy, dx)) - 90)


def _arcs(plan: Plan, pairs: list[tuple[str, str, str]]) -> list[tuple[str, Arc]]:
    """Arcs bowing away from the map's centre; markers on the first clear point of each."""
    pts = {k: (s.x, s.y) for k, s in plan.spots.items()}
    cx = sum(p[0] for p in pts.values()) / len(pts)
    cy = sum(p[1] for p in pts.values()) / len(pts)
    arcs = []
    for kind, a, b in pairs:
        pa, pb = pts[a], pts[b]
        d = math.hypot(pb[0] - pa[0], pb[1] - pa[1])
        nx, ny = -(pb[1] - pa[1]), pb[0] - pa[0]
        mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
        outward = (mx - cx) * nx + (my - cy) * ny >= 0
        arc = _arc(pa, pb, (0.12 if outward else -0.12) * d)
        marker = None
        for t in (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74):
            x, y = _arc_point(arc, t)
            clear = all(
                math.hypot(s.x - x, s.y - y) > s.reach + 4 * mm for s in plan.spots.values()
            )
            if clear:
                marker = (x, y)
                break
        arcs.append((kind, Arc(arc.a, arc.control, arc.b, marker, arc.angle)))
    return arcs


def _draw_arc(c: Canvas, look: Look, line: LineStyle, arc: Arc) -> None:
    """A curve with its marker icon: such lines skip the roads, so they curve away."""
    (ax, ay), (cx, cy), (bx, by) = arc.a, arc.control, arc.b
    assert line.colour is not None and line.width is not None  # Look.line sets every field
    colour = HexColor(line.colour)
    c.setStrokeColor(colour)
    c.setLineWidth(line.width)
    if line.cap in CAPS:
        c.setLineCap(CAPS[line.cap])
    c.setDash(line.dash or [])
    p = c.beginPath()
    p.moveTo(ax, ay)
    p.curveTo(
        ax + (cx - ax) * 2 / 3,
        ay + (cy - ay) * 2 / 3,
        bx + (cx - bx) * 2 / 3,
        by + (cy - by) * 2 / 3,
        bx,
        by,
    )
    c.drawPath(p, stroke=1, fill=0)
    # the curve is no longer than its control polygon
    tally_line(polyline_length([arc.a, arc.control, arc.b]), line.width, line.dash, line.cap)
    c.setDash()
    if arc.marker and line.marker:
        c.saveState()
        c.translate(*arc.marker)
        c.rotate(arc.angle)
        c.setFillColor(HexColor("#ffffff"))
        c.setStrokeColor(colour)
        c.setLineWidth(0.6)
        c.circle(0, 0, 2.6 * mm, stroke=1, fill=1)
        c.setLineJoin(1)
        c.setLineCap(1)
        look.draw_icon(c, line.marker, 0, 0, MARKER, line.colour)
        c.restoreState()


# ---------------------------------------------------------------- drawing


def _tint(colour: str, amount: float) -> Color:
    """`colour` mixed with white: pale region tints behind the spaces."""
    v = int(colour[1:], 16)
    rgb = [(v >> s) & 255 for s in (16, 8, 0)]
    mixed = [round(255 - (255 - ch) * amount) for ch in rgb]
    return HexColor("#" + "".join(f"{ch:02x}" for ch in mixed))


def draw_graph(c: Canvas, plan: Plan) -> None:
    c.setFillColor(PAPER)
    c.rect(0, 0, plan.width, plan.height, stroke=0, fill=1)
    spots = plan.spots
    for s in spots.values():
        if s.ring:
            c.setFillColor(_tint(s.ring, 0.16))
            c.circle(s.x, s.y, s.reach + 6 * mm, stroke=0, fill=1)
    pts = {k: (s.x, s.y) for k, s in spots.items()}
    for kind, chain in plan.links + plan.routes:
        _stroke(c, plan.look.line(kind), [pts[k] for k in chain])
    for kind, arc in plan.arcs:
        _draw_arc(c, plan.look, plan.look.line(kind), arc)
    for s in spots.values():
        draw_space(c, plan.look, s.x, s.y, s.style, s.r, s.ring, s.start)
    for s in spots.values():
        if s.label:
            colour = HexColor(s.style.name_colour) if s.style.name_colour else INK
            face = plan.look.face(s.style.font)
            _halo_text(c, *s.label, s.space.name, face, s.style.font_size, colour)
    x0, y0, x1, y1 = plan.title_box
    _halo_text(
        c,
        x0 + 2 * mm,
        y0 + 4 * mm,
        plan.board.name.get(plan.lang, plan.board.id),
        plan.look.face("bold"),
        26,
    )
    _draw_legend(c, plan)


def draw(board: GraphBoard, look: Look) -> list[Drawing]:
    """The board kind's drawer: one map."""
    plan = plan_graph(board, look)
    name = board.name.get(look.lang, board.id)
    return [Drawing(plan.width, plan.height, name, lambda c: draw_graph(c, plan))]
