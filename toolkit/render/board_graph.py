"""Graph boards (maps): spaces at their real places, roads, ferries, flights and a legend.

Positions come from latitude and longitude through an equirectangular projection corrected by
cos(latitude), scaled to an A2 poster. Spaces closer than a pawn are pushed apart on paper
only (the data keeps real coordinates), then names are placed where they hide the least.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.content.models.board import GraphBoard, GraphSpace
from toolkit.render.fonts import font_name, text_width
from toolkit.render.tiling import Drawing, halo_text, poster_area

Words = Callable[[str], str]
Rect = tuple[float, float, float, float]

INSET = 14 * mm  # free border around the map inside the drawing
GAP = 3.2 * mm  # least paper between two spaces after nudging
START_RING = 1.7 * mm
RING = 1.2 * mm  # width of the region-coloured ring
ROAD = HexColor("#4d4d4d")
SEA_LINE = HexColor("#1f5fa8")
FLIGHT = HexColor("#6a5acd")
INK = HexColor("#1e1e1e")
PAPER = HexColor("#f3f7fa")
ANONYMOUS_PREFIX = "Road to "  # names the map generator gives nameless road steps


@dataclass(frozen=True)
class KindStyle:
    """How a kind of space looks: fill, size, glyph, and the weight of its name."""

    fill: str
    radius: float
    glyph: str
    font: str = "regular"
    size: float = 7.5
    labelled: bool = True


STYLES: dict[str, KindStyle] = {
    "distillery": KindStyle("#7b3f12", 4.4 * mm, "bottle", "bold", 8.5),
    "lost_distillery": KindStyle("#555555", 4.4 * mm, "lost", "bolditalic", 8.5),
    "city": KindStyle("#1d1d1b", 4.8 * mm, "star", "bold", 10),
    "pub": KindStyle("#7a1f3d", 4.0 * mm, "mug"),
    "port": KindStyle("#1f3f6e", 4.0 * mm, "anchor"),
    "airport": KindStyle("#ffffff", 4.2 * mm, "plane"),
    "junction": KindStyle("#d9d9d9", 3.3 * mm, "none"),
    "special": KindStyle("#c0392b", 3.6 * mm, "s"),
    "resource": KindStyle("#ead8a8", 3.6 * mm, "barrel"),
    "path": KindStyle("#ffffff", 2.9 * mm, "none", "italic", 6.5),
    "sea": KindStyle("#bfe0f5", 3.4 * mm, "waves", labelled=False),
}
DEFAULT_STYLE = KindStyle("#9e9e9e", 3.6 * mm, "letter")


def style_of(kind: str) -> KindStyle:
    return STYLES.get(kind, DEFAULT_STYLE)


@dataclass
class Spot:
    """A space as drawn: where, how big, in which colours, and where its name goes."""

    space: GraphSpace
    x: float
    y: float
    style: KindStyle
    ring: str | None
    start: bool
    label: tuple[float, float] | None = None  # baseline origin of the name

    @property
    def r(self) -> float:
        return self.style.radius

    @property
    def reach(self) -> float:
        return self.r + (START_RING + 0.6 * mm if self.start else 0)


@dataclass
class Plan:
    """Everything the draw step needs, computed once (the drawing is drawn per tile)."""

    board: GraphBoard
    lang: str
    words: Words
    width: float
    height: float
    spots: dict[str, Spot]
    links: list[tuple[str, str]]
    ferries: list[list[str]]
    flights: list[Arc]
    bridges: list[list[str]]
    km: float  # points per km on paper, for the scale bar (0 without geography)
    title_box: Rect = (0, 0, 0, 0)
    legend_box: Rect = (0, 0, 0, 0)
    legend_rows: list[tuple[str, str, str]] = field(default_factory=list)


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


def _too_close(spots: list[Spot]) -> list[tuple[int, int, float]]:
    """Pairs closer than they may be on paper, with the factor that would free each."""
    cell = 2 * max(s.reach for s in spots) + GAP
    buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, s in enumerate(spots):
        buckets[(int(s.x // cell), int(s.y // cell))].append(i)
    out = []
    for (cx, cy), members in sorted(buckets.items()):
        for i in members:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for j in buckets.get((cx + dx, cy + dy), ()):
                        if j <= i:
                            continue
                        a, b = spots[i], spots[j]
                        d = math.hypot(b.x - a.x, b.y - a.y)
                        need = a.reach + b.reach + GAP
                        if d < need:
                            out.append((i, j, need / max(d, need / 4)))
    return out


def _root(parent: list[int], i: int) -> int:
    """Union-find root, halving the path on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _spread(spots: list[Spot], rounds: int = 60) -> None:
    """Enlarge each crowded group about its own centre: it keeps its shape (who lies west of
    whom), which pushing pairs apart one by one would scramble."""
    for _ in range(rounds):
        pairs = _too_close(spots)
        if not pairs:
            return
        parent = list(range(len(spots)))
        factor: dict[int, float] = {}
        for i, j, _f in pairs:
            parent[_root(parent, i)] = _root(parent, j)
        for i, _j, f in pairs:
            r = _root(parent, i)
            factor[r] = max(factor.get(r, 1.0), f)
        groups: dict[int, list[int]] = defaultdict(list)
        for i in range(len(spots)):
            if _root(parent, i) in factor:
                groups[_root(parent, i)].append(i)
        for r, members in sorted(groups.items()):
            f = min(factor[r], 1.6) + 0.02
            mx = sum(spots[i].x for i in members) / len(members)
            my = sum(spots[i].y for i in members) / len(members)
            for i in members:
                spots[i].x = mx + (spots[i].x - mx) * f
                spots[i].y = my + (spots[i].y - my) * f


def _nudge(spots: list[Spot], width: float, height: float, rounds: int = 600) -> None:
    """Push apart spaces that would overlap or touch on paper, as little as needed."""
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
        if not moved:
            return


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


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


def _spot_box(s: Spot) -> Rect:
    return (s.x - s.reach, s.y - s.reach, s.x + s.reach, s.y + s.reach)


def _segments(plan: Plan) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    pts = {k: (s.x, s.y) for k, s in plan.spots.items()}
    segs = [(pts[a], pts[b]) for a, b in plan.links]
    for chain in plan.ferries + plan.bridges:
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
    boxes = [_spot_box(s) for s in plan.spots.values()]
    segs = _segments(plan)
    best, best_cost = candidates[0], math.inf
    for i, rect in enumerate(candidates):
        x0, y0, x1, y1 = rect
        cost = i * 1e-3 + 1000 * sum(1 for t in taken if _overlap(rect, t) > 0)
        cost += 50 * sum(1 for b in boxes if b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0)
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


def _place_labels(plan: Plan) -> None:
    """Greedy: the most important names first, each where it covers the least."""
    order = list(STYLES)
    spots = sorted(
        (s for s in plan.spots.values() if _named(s)),
        key=lambda s: (order.index(s.space.kind) if s.space.kind in order else 99, s.space.id),
    )
    all_boxes = [(k, _spot_box(s)) for k, s in plan.spots.items()]
    all_segs = _segments(plan)
    placed: list[Rect] = [plan.title_box, plan.legend_box]
    for s in spots:
        width = text_width(s.space.name, s.style.size, s.style.font)
        best: tuple[float, tuple[float, float], Rect] | None = None
        # Only what lies near this space can be hidden by its name.
        area = (s.x - width - 15 * mm, s.y - 15 * mm, s.x + width + 15 * mm, s.y + 15 * mm)
        boxes = [(k, b) for k, b in all_boxes if _overlap(area, b) > 0]
        near = [p for p in placed if _overlap(area, p) > 0]
        segs = [
            (p, q)
            for p, q in all_segs
            if _overlap(
                area, (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]) + 1, max(p[1], q[1]) + 1)
            )
            > 0
        ]
        for rank, where in enumerate(("e", "w", "n", "s", "ne", "nw", "se", "sw")):
            rect, origin = _label_rect(s, where, width, s.style.size)
            cost = rank * 0.5
            if rect[0] < 2 * mm or rect[2] > plan.width - 2 * mm:
                cost += 1e6
            if rect[1] < 2 * mm or rect[3] > plan.height - 2 * mm:
                cost += 1e6
            cost += sum(_overlap(rect, p) for p in near) * 2.0
            cost += sum(_overlap(rect, b) for k, b in boxes if k != s.space.id) * 1.0
            if best is not None and cost >= best[0]:
                continue
            cost += 40 * sum(1 for p, q in segs if _segment_hits(rect, p, q))
            if best is None or cost < best[0]:
                best = (cost, origin, rect)
        assert best is not None
        s.label = best[1]
        placed.append(best[2])


def _named(s: Spot) -> bool:
    return s.style.labelled and not s.space.name.startswith(ANONYMOUS_PREFIX)


# ---------------------------------------------------------------- plan


def plan_graph(board: GraphBoard, lang: str, words: Words) -> Plan:
    """Project, scale, nudge and label: the whole layout, computed once."""
    coords, geographic = _project(board.spaces)
    xs = [p[0] for p in coords.values()]
    ys = [p[1] for p in coords.values()]
    span_x, span_y = max(max(xs) - min(xs), 1e-6), max(max(ys) - min(ys), 1e-6)
    width, height = poster_area(landscape=span_x > span_y)
    scale = min((width - 2 * INSET) / span_x, (height - 2 * INSET) / span_y)
    left = (width - span_x * scale) / 2 - min(xs) * scale
    bottom = (height - span_y * scale) / 2 - min(ys) * scale
    regions = {r.id: r.colour for r in board.regions}
    spots = {
        s.id: Spot(
            s,
            coords[s.id][0] * scale + left,
            coords[s.id][1] * scale + bottom,
            style_of(s.kind),
            regions.get(s.region) if s.region else None,
            "start" in s.tags,
        )
        for s in board.spaces
    }
    _spread(list(spots.values()))
    _nudge(list(spots.values()), width, height)
    routed = set()
    ferries: list[list[str]] = []
    bridges: list[list[str]] = []
    flights: list[tuple[str, str]] = []
    for route in board.routes:
        routed |= {frozenset(p) for p in zip(route.stops, route.stops[1:], strict=False)}
        if route.kind == "ferry":
            ferries.append(route.stops)
        elif route.kind == "bridge":
            bridges.append(route.stops)
        else:
            flights += list(zip(route.stops, route.stops[1:], strict=False))
    links = [(lk.a, lk.b) for lk in board.links if frozenset((lk.a, lk.b)) not in routed]
    plan = Plan(
        board,
        lang,
        words,
        width,
        height,
        spots,
        links,
        ferries,
        [],
        bridges,
        scale if geographic else 0.0,
    )
    plan.flights = _flights(plan, flights)
    title = board.name.get(lang, board.id)
    tw, th = text_width(title, 26, "bold") + 4 * mm, 14 * mm
    plan.title_box = _place_box(plan, tw, th, ["tl", "tr", "bl", "br"], [])
    plan.legend_rows = _legend_rows(plan)
    lw, lh = _legend_size(plan)
    plan.legend_box = _place_box(plan, lw, lh, ["br", "bl", "tr", "tl"], [plan.title_box])
    _place_labels(plan)
    return plan


# ---------------------------------------------------------------- glyphs


def _glyph(c: Canvas, glyph: str, x: float, y: float, r: float, letter: str = "") -> None:
    """A small white (or dark) symbol inside a space, so kinds read without colour."""
    u = r / (4.4 * mm)  # glyphs are designed for a space of radius 4.4 mm
    c.setLineJoin(1)
    c.setLineCap(1)
    white = HexColor("#ffffff")
    if glyph in ("bottle", "lost"):
        c.setFillColor(white)
        c.setStrokeColor(white)
        p = c.beginPath()
        p.roundRect(x - 1.05 * mm * u, y - 2.3 * mm * u, 2.1 * mm * u, 2.9 * mm * u, 0.4 * mm * u)
        p.rect(x - 0.42 * mm * u, y + 0.4 * mm * u, 0.84 * mm * u, 1.9 * mm * u)
        if glyph == "bottle":
            c.drawPath(p, stroke=0, fill=1)
        else:
            c.setLineWidth(0.8 * u)
            c.drawPath(p, stroke=1, fill=0)
            c.setFont(font_name("bold"), 5.5 * u)
            c.drawCentredString(x, y - 1.6 * mm * u, "?")
    elif glyph == "star":
        c.setFillColor(white)
        p = c.beginPath()
        for k in range(10):
            rad = (2.9 if k % 2 == 0 else 1.2) * mm * u
            a = math.pi / 2 + k * math.pi / 5
            pt = (x + rad * math.cos(a), y + rad * math.sin(a))
            p.moveTo(*pt) if k == 0 else p.lineTo(*pt)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    elif glyph == "mug":
        c.setFillColor(white)
        c.setStrokeColor(white)
        c.roundRect(
            x - 1.5 * mm * u,
            y - 1.7 * mm * u,
            2.3 * mm * u,
            3.1 * mm * u,
            0.3 * mm * u,
            stroke=0,
            fill=1,
        )
        c.setLineWidth(1.0 * u)
        c.roundRect(
            x + 0.5 * mm * u,
            y - 0.9 * mm * u,
            1.2 * mm * u,
            1.6 * mm * u,
            0.5 * mm * u,
            stroke=1,
            fill=0,
        )
    elif glyph == "anchor":
        c.setStrokeColor(white)
        c.setLineWidth(1.0 * u)
        c.circle(x, y + 1.9 * mm * u, 0.5 * mm * u, stroke=1, fill=0)
        c.line(x, y + 1.4 * mm * u, x, y - 2.2 * mm * u)
        c.line(x - 1.1 * mm * u, y + 0.7 * mm * u, x + 1.1 * mm * u, y + 0.7 * mm * u)
        c.arc(x - 2.0 * mm * u, y - 2.3 * mm * u, x + 2.0 * mm * u, y + 0.3 * mm * u, 200, 140)
    elif glyph == "plane":
        c.setFillColor(HexColor("#1f3f6e"))
        s = mm * u
        pts = [
            (0, 2.8),
            (0.45, 1.9),
            (0.45, 0.6),
            (2.8, -0.4),
            (2.8, -0.95),
            (0.45, -0.35),
            (0.35, -1.9),
            (1.1, -2.5),
            (1.1, -2.9),
            (0, -2.55),
            (-1.1, -2.9),
            (-1.1, -2.5),
            (-0.35, -1.9),
            (-0.45, -0.35),
            (-2.8, -0.95),
            (-2.8, -0.4),
            (-0.45, 0.6),
            (-0.45, 1.9),
        ]
        p = c.beginPath()
        p.moveTo(x + pts[0][0] * s, y + pts[0][1] * s)
        for px, py in pts[1:]:
            p.lineTo(x + px * s, y + py * s)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    elif glyph == "s":
        c.setFillColor(white)
        c.setFont(font_name("bold"), 11 * u)
        c.drawCentredString(x, y - 3.9 * u, "S")
    elif glyph == "barrel":
        brown = HexColor("#7b3f12")
        c.setStrokeColor(brown)
        c.setFillColor(brown)
        c.setLineWidth(0.7 * u)
        w, h = 1.5 * mm * u, 2.1 * mm * u
        p = c.beginPath()
        p.moveTo(x - w * 0.8, y + h)
        p.curveTo(x - w * 1.25, y + h * 0.4, x - w * 1.25, y - h * 0.4, x - w * 0.8, y - h)
        p.lineTo(x + w * 0.8, y - h)
        p.curveTo(x + w * 1.25, y - h * 0.4, x + w * 1.25, y + h * 0.4, x + w * 0.8, y + h)
        p.close()
        c.drawPath(p, stroke=1, fill=0)
        for f in (-0.5, 0.5):
            c.line(x - w * 1.08, y + h * f, x + w * 1.08, y + h * f)
    elif glyph == "waves":
        c.setStrokeColor(SEA_LINE)
        c.setLineWidth(0.6 * u)
        for dy in (0.7, -0.7):
            p = c.beginPath()
            x0, yy = x - 2.0 * mm * u, y + dy * mm * u
            p.moveTo(x0, yy)
            for k in range(4):
                xa = x0 + k * mm * u
                p.curveTo(
                    xa + 0.25 * mm * u,
                    yy + 0.5 * mm * u,
                    xa + 0.75 * mm * u,
                    yy - 0.5 * mm * u,
                    xa + mm * u,
                    yy,
                )
            c.drawPath(p, stroke=1, fill=0)
    elif glyph == "letter" and letter:
        c.setFillColor(white)
        c.setFont(font_name("bold"), 8 * u)
        c.drawCentredString(x, y - 2.9 * u, letter[:1].upper())


def draw_space(
    c: Canvas,
    x: float,
    y: float,
    style: KindStyle,
    ring: str | None,
    start: bool = False,
    kind: str = "",
) -> None:
    """One space: region ring, kind fill, symbol; a start gets an extra black ring."""
    r = style.radius
    if start:
        c.setStrokeColor(INK)
        c.setFillColor(HexColor("#ffffff"))
        c.setLineWidth(1.4)
        c.circle(x, y, r + START_RING, stroke=1, fill=1)
    c.setLineWidth(0.5)
    c.setStrokeColor(INK if ring or style.glyph != "waves" else SEA_LINE)
    if ring:
        c.setFillColor(HexColor(ring))
        c.circle(x, y, r, stroke=1, fill=1)
        c.setFillColor(HexColor(style.fill))
        c.circle(x, y, r - RING, stroke=0, fill=1)
    else:
        c.setFillColor(HexColor(style.fill))
        c.circle(x, y, r, stroke=1, fill=1)
    _glyph(c, style.glyph, x, y, r - (RING if ring else 0), kind)


def _halo_text(
    c: Canvas, x: float, y: float, text: str, font: str, size: float, colour: Color = INK
) -> None:
    """Text with a white outline under it, readable across roads and tints."""
    halo_text(c, x, y, text, font_name(font), size, colour, size * 0.28)


# ---------------------------------------------------------------- legend

ROW = 7.0 * mm
LEGEND_SIZE = 8.5
PAD = 4 * mm
SWATCH = 11 * mm


def _legend_rows(plan: Plan) -> list[tuple[str, str, str]]:
    """(what, key, label) rows: kinds present, start, line kinds, regions, scale."""
    w = plan.words
    kinds = {s.space.kind for s in plan.spots.values()}
    order = list(STYLES) + sorted(kinds - set(STYLES))
    rows = [("space", k, w(k)) for k in order if k in kinds]
    if any(s.start for s in plan.spots.values()):
        rows.append(("start", "start", w("start")))
    rows.append(("gap", "", ""))
    if plan.links:
        rows.append(("line", "link", w("link")))
    if plan.ferries:
        rows.append(("line", "ferry", w("ferry")))
    if plan.bridges:
        rows.append(("line", "bridge", w("bridge")))
    if plan.flights:
        rows.append(("line", "flight", w("flight")))
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
    widest = max(text_width(t, LEGEND_SIZE) for _, _, t in plan.legend_rows)
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
            st = style_of(key)
            small = KindStyle(st.fill, min(st.radius, 2.8 * mm), st.glyph)
            draw_space(c, sx, cy, small, None, kind=key)
        elif kind == "start":
            draw_space(c, sx, cy, KindStyle("#ffffff", 2.1 * mm, "none"), None, start=True)
        elif kind == "line":
            _line_sample(c, key, sx - SWATCH / 2, cy, sx + SWATCH / 2)
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
            c.setFont(font_name("regular"), LEGEND_SIZE)
            c.drawString(tx_scale, cy - LEGEND_SIZE * 0.32, text)
            continue
        c.setFillColor(INK)
        c.setFont(font_name("regular"), LEGEND_SIZE)
        c.drawString(tx, cy - LEGEND_SIZE * 0.32, text)


def _line_sample(c: Canvas, key: str, xa: float, y: float, xb: float) -> None:
    if key == "link":
        _road(c, [(xa, y), (xb, y)])
    elif key == "ferry":
        _ferry(c, [(xa, y), (xb, y)])
    elif key == "bridge":
        _bridge(c, [(xa, y), (xb, y)])
    else:
        _flight(c, _arc((xa, y - 1.0 * mm), (xb, y - 1.0 * mm), 2.5 * mm))


# ---------------------------------------------------------------- lines


def _polyline(c: Canvas, pts: list[tuple[float, float]]) -> None:
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    c.drawPath(p, stroke=1, fill=0)


def _road(c: Canvas, pts: list[tuple[float, float]]) -> None:
    c.setDash()
    c.setLineCap(1)
    c.setStrokeColor(ROAD)
    c.setLineWidth(1.8)
    _polyline(c, pts)


def _ferry(c: Canvas, pts: list[tuple[float, float]]) -> None:
    c.setLineCap(0)
    c.setStrokeColor(SEA_LINE)
    c.setLineWidth(1.6)
    c.setDash(5, 3)
    _polyline(c, pts)
    c.setDash()


def _bridge(c: Canvas, pts: list[tuple[float, float]]) -> None:
    c.setDash()
    c.setStrokeColor(ROAD)
    c.setLineWidth(4.0)
    _polyline(c, pts)
    c.setStrokeColor(HexColor("#ffffff"))
    c.setLineWidth(1.6)
    _polyline(c, pts)


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


def _flights(plan: Plan, pairs: list[tuple[str, str]]) -> list[Arc]:
    """Arcs bowing away from the map's centre; markers on the first clear point of each."""
    pts = {k: (s.x, s.y) for k, s in plan.spots.items()}
    cx = sum(p[0] for p in pts.values()) / len(pts)
    cy = sum(p[1] for p in pts.values()) / len(pts)
    arcs = []
    for a, b in pairs:
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
        arcs.append(Arc(arc.a, arc.control, arc.b, marker, arc.angle))
    return arcs


def _flight(c: Canvas, arc: Arc) -> None:
    """A thin dotted arc: flights skip the roads, so they curve away from them."""
    (ax, ay), (cx, cy), (bx, by) = arc.a, arc.control, arc.b
    c.setStrokeColor(FLIGHT)
    c.setLineWidth(1.0)
    c.setLineCap(1)
    c.setDash(0.1, 3)
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
    c.setDash()
    if arc.marker:
        c.saveState()
        c.translate(*arc.marker)
        c.rotate(arc.angle)
        c.setFillColor(HexColor("#ffffff"))
        c.setStrokeColor(FLIGHT)
        c.setLineWidth(0.6)
        c.circle(0, 0, 2.6 * mm, stroke=1, fill=1)
        _glyph(c, "plane", 0, 0, 2.6 * mm)
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
    for a, b in plan.links:
        _road(c, [pts[a], pts[b]])
    for chain in plan.bridges:
        _bridge(c, [pts[k] for k in chain])
    for chain in plan.ferries:
        _ferry(c, [pts[k] for k in chain])
    for arc in plan.flights:
        _flight(c, arc)
    for s in spots.values():
        draw_space(c, s.x, s.y, s.style, s.ring, s.start, s.space.kind)
    for s in spots.values():
        if s.label:
            colour = HexColor("#555555") if s.space.kind == "path" else INK
            _halo_text(c, *s.label, s.space.name, s.style.font, s.style.size, colour)
    x0, y0, x1, y1 = plan.title_box
    _halo_text(
        c, x0 + 2 * mm, y0 + 4 * mm, plan.board.name.get(plan.lang, plan.board.id), "bold", 26
    )
    _draw_legend(c, plan)


def build(board: GraphBoard, lang: str, words: Words) -> Drawing:
    plan = plan_graph(board, lang, words)
    return Drawing(
        plan.width, plan.height, board.name.get(lang, board.id), lambda c: draw_graph(c, plan)
    )
