"""Generate the Whisky Game's map board, `content/whisky-game/boards/map.yaml`.

The 67 anchors of the spec (whisky-game.md §D1-D5) are written here by hand with their real
positions. Every road between two anchors is cut into steps of about 30 km, so one pip of the
die covers about the same ground anywhere on the map; the path spaces lie on the line through
the road's via towns, and a via town that gets a space gets it at its own position and name.
S spaces and resource spaces are then placed with a fixed seed. The module is run once: the
YAML it writes is committed content, so a rerun only matters when the data below changes.

Run it with `python -m toolkit.games.whisky_game.mapgen` (from any folder).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import textwrap
import unicodedata
from collections import Counter, deque
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from pathlib import Path

SEED = 1983  # the year St Magdalene, Glenugie and Dallas Dhu fell silent
KM_PER_STEP = 30
RESOURCES = 20
EPS = 1e-6  # km; an unnamed space halfway between two neighbours is a tie, not a rounding
OUT = Path(__file__).resolve().parents[3] / "content" / "whisky-game" / "boards" / "map.yaml"


@dataclass(frozen=True)
class Road:
    """A road of the spec (§D5): its two anchors, its road km and its towns, in order."""

    a: str
    b: str
    km: int
    via: tuple[str, ...] = ()


def road(a: str, b: str, km: int, *via: str) -> Road:
    return Road(a, b, km, via)


# fmt: off
IE, LC, HI = "ireland", "lowlands-campbeltown", "highlands"
IS, IY, SP = "islands", "islay", "speyside"
REGIONS = (  # id, fr, es, en, colour
    (IE, "Irlande", "Irlanda", "Ireland", "#398252"),
    (LC, "Lowlands & Campbeltown", "Lowlands y Campbeltown", "Lowlands & Campbeltown", "#8d7129"),
    (HI, "Highlands", "Highlands", "Highlands", "#8a5a9e"),
    (IS, "Îles", "Islas", "Islands", "#3b75b1"),
    (IY, "Islay", "Islay", "Islay", "#5f6b73"),
    (SP, "Speyside", "Speyside", "Speyside", "#af612c"),
)
D, LD, C, A, P, B, J = "distillery", "lost_distillery", "city", "airport", "port", "pub", "junction"
ANCHORS = (  # name, kind, region, lat, lon (spec §D1-D4; the id is the slug of the name)
    ("Glenlivet", D, SP, 57.34, -3.34), ("Macallan", D, SP, 57.48, -3.21),
    ("BenRiach", D, SP, 57.61, -3.29), ("Glenfarclas", D, SP, 57.41, -3.32),
    ("Midleton", D, IE, 51.91, -8.17), ("Teeling", D, IE, 53.34, -6.28),
    ("Bushmills", D, IE, 55.20, -6.52), ("Kilbeggan", D, IE, 53.37, -7.50),
    ("Highland Park", D, IS, 58.97, -2.96), ("Arran", D, IS, 55.70, -5.28),
    ("Talisker", D, IS, 57.30, -6.36), ("Tobermory", D, IS, 56.62, -6.07),
    ("Laphroaig", D, IY, 55.63, -6.15), ("Lagavulin", D, IY, 55.64, -6.13),
    ("Bunnahabhain", D, IY, 55.88, -6.13), ("Kilchoman", D, IY, 55.79, -6.42),
    ("GlenDronach", D, HI, 57.48, -2.63), ("Ben Nevis", D, HI, 56.83, -5.08),
    ("Glenmorangie", D, HI, 57.83, -4.08), ("Edradour", D, HI, 56.70, -3.69),
    ("Bladnoch", D, LC, 54.86, -4.46), ("Auchentoshan", D, LC, 55.92, -4.44),
    ("Glenkinchie", D, LC, 55.89, -2.89), ("Springbank", D, LC, 55.42, -5.61),
    ("St Magdalene", LD, LC, 55.97, -3.59), ("Glenugie", LD, HI, 57.49, -1.79),
    ("Dallas Dhu", LD, SP, 57.59, -3.62), ("Coleraine", LD, IE, 55.13, -6.67),
    ("Edinburgh", C, LC, 55.95, -3.19), ("Dublin", C, IE, 53.35, -6.26),
    ("Glasgow Airport", A, LC, 55.87, -4.43), ("Dublin Airport", A, IE, 53.42, -6.27),
    ("Aberdeen Airport", A, HI, 57.20, -2.20), ("Kennacraig", P, LC, 55.80, -5.47),
    ("Port Askaig", P, IY, 55.85, -6.11), ("Port Ellen", P, IY, 55.63, -6.19),
    ("Ardrossan", P, LC, 55.64, -4.82), ("Brodick", P, IS, 55.58, -5.14),
    ("Oban", P, HI, 56.41, -5.48), ("Craignure", P, IS, 56.47, -5.71),
    ("Scrabster", P, HI, 58.61, -3.55), ("Stromness", P, IS, 58.96, -3.30),
    ("Cairnryan", P, LC, 54.97, -5.03), ("Belfast", P, IE, 54.62, -5.90),
    ("Kyle of Lochalsh", J, HI, 57.28, -5.71), ("Kyleakin", J, IS, 57.27, -5.73),
    ("Glasgow", B, LC, 55.86, -4.25), ("Dumfries", B, LC, 55.07, -3.61),
    ("Perth", B, HI, 56.40, -3.43), ("Inverness", B, HI, 57.48, -4.22),
    ("Aviemore", B, SP, 57.19, -3.83), ("Portree", B, IS, 57.41, -6.19),
    ("Bowmore", B, IY, 55.76, -6.29), ("Drogheda", B, IE, 53.72, -6.35),
    ("Cork", B, IE, 51.90, -8.47), ("Newton Stewart", J, LC, 54.96, -4.48),
    ("Tarbet", J, HI, 56.20, -4.71), ("Inveraray", J, HI, 56.23, -5.07),
    ("Lochgilphead", J, HI, 56.04, -5.43), ("Crianlarich", J, HI, 56.39, -4.62),
    ("Glencoe", J, HI, 56.68, -5.10), ("Invergarry", J, HI, 57.07, -4.79),
    ("Sligachan", J, IS, 57.29, -6.17), ("Bridgend", J, IY, 55.78, -6.25),
    ("Aberdeen", J, HI, 57.15, -2.09), ("Dundee", J, HI, 56.46, -2.97),
    ("Portlaoise", J, IE, 53.03, -7.30),
)
# The spec's position tags: [V] checked in public material, [T] town checked (site within
# ~3 km); every other anchor is [U], a best value.
CHECKED = {
    "V": "glenlivet macallan highland-park arran talisker laphroaig lagavulin bunnahabhain "
         "glendronach bladnoch auchentoshan glenugie dallas-dhu kennacraig",
    "T": "midleton bushmills kilbeggan springbank st-magdalene",
}
START = ("edinburgh", "dublin")
ISLES = {  # island tags (Islay's spaces also get "islay"); no road leaves an island but the bridge
    "arran": "brodick arran", "mull": "craignure tobermory", "orkney": "stromness highland-park",
    "skye": "kyleakin sligachan talisker portree",
}
BRIDGE = ("kyle-of-lochalsh", "kyleakin")  # the Skye Bridge: an ordinary link, both ends tagged
ROAD_TOWN = {"springbank": "Campbeltown", "glenmorangie": "Tain", "edradour": "Pitlochry"}
# Via towns: town centres read from public gazetteer and Wikipedia pages, to 2 decimals
# (Helmsdale: its railway station; Ballymena: a point on the town's edge; both within 2 km).
# The island villages, Ballygrant to Finstown, are the spec's [U] values.
VIA = {
    "Ayr": (55.46, -4.63), "Girvan": (55.24, -4.86), "Castle Douglas": (54.94, -3.93),
    "Moffat": (55.33, -3.44), "Dalmally": (56.40, -4.97), "Tyndrum": (56.43, -4.72),
    "Fort Augustus": (57.14, -4.68), "Helmsdale": (58.12, -3.66), "Wick": (58.45, -3.08),
    "Dalwhinnie": (56.94, -4.24), "Grantown": (57.33, -3.61), "Elgin": (57.65, -3.32),
    "Nairn": (57.59, -3.87), "Keith": (57.54, -2.95), "Huntly": (57.45, -2.78),
    "Inverurie": (57.28, -2.38), "Ellon": (57.37, -2.09), "Turriff": (57.54, -2.46),
    "Stonehaven": (56.97, -2.22), "Montrose": (56.71, -2.47), "Dundalk": (54.00, -6.40),
    "Newry": (54.18, -6.35), "Antrim": (54.72, -6.21), "Ballymena": (54.87, -6.30),
    "Naas": (53.22, -6.66), "Tullamore": (53.27, -7.50), "Cashel": (52.52, -7.89),
    "Mitchelstown": (52.27, -8.27), "Ballygrant": (55.83, -6.18), "Glenegedale": (55.69, -6.25),
    "Loch Gorm": (55.80, -6.38), "Broadford": (57.24, -5.91), "Corrie": (55.65, -5.14),
    "Salen": (56.52, -5.95), "Finstown": (59.00, -3.12),
}
ROADS = (
    road("edinburgh", "glenkinchie", 25), road("edinburgh", "st-magdalene", 30),
    road("st-magdalene", "glasgow", 40), road("glasgow", "glasgow-airport", 15),
    road("glasgow-airport", "auchentoshan", 8), road("glasgow", "ardrossan", 50),
    road("ardrossan", "cairnryan", 110, "Ayr", "Girvan"), road("cairnryan", "newton-stewart", 40),
    road("newton-stewart", "bladnoch", 12),
    road("newton-stewart", "dumfries", 80, "Castle Douglas"),
    road("dumfries", "edinburgh", 120, "Moffat"), road("glasgow", "tarbet", 55),
    road("tarbet", "inveraray", 35), road("inveraray", "lochgilphead", 40),
    road("lochgilphead", "kennacraig", 25), road("kennacraig", "springbank", 50),
    road("lochgilphead", "oban", 60), road("tarbet", "crianlarich", 20),
    road("crianlarich", "oban", 60, "Dalmally"), road("crianlarich", "glencoe", 50, "Tyndrum"),
    road("glencoe", "ben-nevis", 28), road("ben-nevis", "invergarry", 40),
    road("invergarry", "inverness", 65, "Fort Augustus"),
    road("invergarry", "kyle-of-lochalsh", 80),
    road("kyle-of-lochalsh", "kyleakin", 2), road("kyleakin", "sligachan", 38, "Broadford"),
    road("sligachan", "talisker", 13), road("sligachan", "portree", 15),
    road("inverness", "glenmorangie", 55),
    road("glenmorangie", "scrabster", 160, "Helmsdale", "Wick"),
    road("stromness", "highland-park", 25, "Finstown"), road("edinburgh", "perth", 70),
    road("perth", "edradour", 45), road("edradour", "aviemore", 95, "Dalwhinnie"),
    road("aviemore", "inverness", 50), road("aviemore", "glenlivet", 45, "Grantown"),
    road("glenlivet", "glenfarclas", 15), road("glenfarclas", "macallan", 15),
    road("macallan", "benriach", 18), road("benriach", "dallas-dhu", 22, "Elgin"),
    road("dallas-dhu", "inverness", 45, "Nairn"),
    road("macallan", "glendronach", 45, "Keith", "Huntly"),
    road("glendronach", "aberdeen-airport", 50, "Inverurie"),
    road("aberdeen-airport", "aberdeen", 10),
    road("aberdeen", "glenugie", 55, "Ellon"), road("glenugie", "glendronach", 60, "Turriff"),
    road("aberdeen", "dundee", 105, "Stonehaven", "Montrose"), road("dundee", "perth", 35),
    road("port-askaig", "bunnahabhain", 6), road("port-askaig", "bridgend", 15, "Ballygrant"),
    road("bridgend", "bowmore", 4), road("bridgend", "kilchoman", 15, "Loch Gorm"),
    road("bowmore", "port-ellen", 17, "Glenegedale"), road("port-ellen", "laphroaig", 2),
    road("laphroaig", "lagavulin", 2), road("brodick", "arran", 23, "Corrie"),
    road("craignure", "tobermory", 33, "Salen"), road("dublin", "teeling", 2),
    road("dublin", "dublin-airport", 12), road("dublin-airport", "drogheda", 40),
    road("drogheda", "belfast", 125, "Dundalk", "Newry"),
    road("belfast", "coleraine", 90, "Antrim", "Ballymena"), road("coleraine", "bushmills", 15),
    road("dublin", "kilbeggan", 90), road("dublin", "portlaoise", 85, "Naas"),
    road("kilbeggan", "portlaoise", 55, "Tullamore"),
    road("portlaoise", "cork", 160, "Cashel", "Mitchelstown"), road("cork", "midleton", 22),
)
FERRIES = (
    ("kennacraig", "port-askaig"), ("kennacraig", "port-ellen"), ("ardrossan", "brodick"),
    ("oban", "craignure"), ("scrabster", "stromness"), ("cairnryan", "belfast"),
)
AIRPORTS = ("glasgow-airport", "dublin-airport", "aberdeen-airport")
S_SPACES = (
    "Moffat", "Ayr", "Tarbet", "Glencoe", "Fort Augustus", "Dundee", "Helmsdale", "Grantown",
    "Keith", "Sligachan", "Salen", "Bridgend", "Glenegedale", "Newry", "Tullamore", "Cashel",
)
FIXED_RESOURCES = ("Ballygrant", "Loch Gorm")
BOARD_NAME = {
    "fr": "Carte de l’Écosse et de l’Irlande",
    "es": "Mapa de Escocia e Irlanda",
    "en": "Map of Scotland and Ireland",
}
SOURCE = (
    "whisky-game.md §D (anchors, roads, ferries, S spaces); via-town positions from public "
    "gazetteer and Wikipedia pages; generated by toolkit/games/whisky_game/mapgen.py"
)
# fmt: on
ISLE_TAGS = {*ISLES, "islay"}
Stop = tuple[str | None, float]  # a path space: its via town (None for a plain road), km along
Route = tuple[str, str, list[str]]  # id, kind, stops
Link = tuple[str, str, int]  # a, b, km


@dataclass
class Space:
    """A space as the board file states it; kind changes when S and resources are placed."""

    id: str
    name: str
    kind: str
    region: str | None
    country: str
    lat: float
    lon: float
    tags: list[str] = field(default_factory=list)


def check(ok: object, problem: str) -> None:
    """Stop on bad data (unlike assert, not skipped under python -O)."""
    if not ok:
        raise ValueError(problem)


def slug(name: str) -> str:
    """A place name as an id: "Kyle of Lochalsh" -> "kyle-of-lochalsh"."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def distance(p: tuple[float, float], q: tuple[float, float]) -> float:
    """Great-circle km; enough to share a road's km out between its steps."""
    la1, lo1, la2, lo2 = map(math.radians, (*p, *q))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * 6371 * math.asin(math.sqrt(h))


def steps(km: int) -> int:
    """Edges on a road: km / 30 rounded half up, at least one."""
    return max(1, int(km / KM_PER_STEP + 0.5))


def point_at(line: list[tuple[float, float]], arcs: list[float], t: float) -> tuple[float, float]:
    """The position t km along the line (straight between its points: they are close)."""
    i = next((i for i in range(1, len(line)) if t <= arcs[i]), len(line) - 1)
    f = (t - arcs[i - 1]) / ((arcs[i] - arcs[i - 1]) or 1)
    (la1, lo1), (la2, lo2) = line[i - 1], line[i]
    return la1 + f * (la2 - la1), lo1 + f * (lo2 - lo1)


def line_of(r: Road, spaces: dict[str, Space]) -> tuple[list[tuple[float, float]], list[float]]:
    """The road as a line through its via towns, with the km reached at each point."""
    a, b = spaces[r.a], spaces[r.b]
    line = [(a.lat, a.lon), *(VIA[v] for v in r.via), (b.lat, b.lon)]
    arcs = [0.0]
    for p, q in pairwise(line):
        arcs.append(arcs[-1] + distance(p, q))
    return line, arcs


def path_stops(r: Road, arcs: list[float], island: bool) -> list[Stop]:
    """The path spaces of a road in order, as (via town or None, km along the line).

    The road's round(km / 30) - 1 slots are first spread evenly. Each via town then takes the
    slot nearest to it (in order, least total shift) and moves to its own position: several
    of the spec's S towns (Fort Augustus, Tullamore, Cashel) lie 9-18 km from an even slot,
    so naming a slot only when a town is within 8 km would lose them. The other slots are
    spread evenly between the placed points. Island roads get one space per named village.
    """
    length, via_arc = arcs[-1], arcs[1:-1]
    if island:
        return list(zip(r.via, via_arc, strict=True))
    n = steps(r.km) - 1
    m = min(n, len(r.via))
    slots = [length * (i + 1) / (n + 1) for i in range(n)]
    pairs = ((v, s) for v in combinations(range(len(r.via)), m) for s in combinations(range(n), m))
    best = min(
        pairs, key=lambda c: sum(abs(via_arc[v] - slots[s]) for v, s in zip(*c, strict=True))
    )
    fixed = {s: (r.via[v], via_arc[v]) for v, s in zip(*best, strict=True)}
    stops: list[Stop] = []
    i = 0
    while i < n:
        if i in fixed:
            stops.append(fixed[i])
            i += 1
            continue
        run = next((j for j in range(i, n) if j in fixed), n)
        left = stops[-1][1] if stops else 0.0
        right = fixed[run][1] if run < n else length
        stops += [(None, left + (k + 1) * (right - left) / (run - i + 1)) for k in range(run - i)]
        i = run
    return stops


def road_names(r: Road, spaces: dict[str, Space], stops: list[Stop], length: float) -> list[str]:
    """Names of the path spaces: the via town, or "Road to" the nearer placed neighbour.

    A tie goes to the far end (b), so the middle space of a plain road points onward.
    """
    ends = (ROAD_TOWN.get(r.a, spaces[r.a].name), ROAD_TOWN.get(r.b, spaces[r.b].name))
    names = []
    for k, (via, t) in enumerate(stops):
        if via is None:
            prev = next((s for s in reversed(stops[:k]) if s[0]), (ends[0], 0.0))
            nxt = next((s for s in stops[k + 1 :] if s[0]), (ends[1], length))
            via = f"Road to {prev[0] if t - prev[1] < nxt[1] - t - EPS else nxt[0]}"
        names.append(via)
    return names


def build(seed: int = SEED) -> tuple[dict[str, Space], list[Link], list[Route]]:
    """All spaces, links (a, b, km) and routes (id, kind, stops) of the board."""
    spaces: dict[str, Space] = {}
    for name, kind, region, lat, lon in ANCHORS:
        country = "ireland" if region == IE else "scotland"
        spaces[slug(name)] = Space(slug(name), name, kind, region, country, lat, lon)
    tagged = [("start", START), ("bridge", BRIDGE), *((i, m.split()) for i, m in ISLES.items())]
    tagged.append(("islay", [s.id for s in spaces.values() if s.region == IY]))
    for tag, ids in tagged:
        for sid in ids:
            spaces[sid].tags.append(tag)

    links: list[Link] = []
    for r in ROADS:
        a, b = spaces[r.a], spaces[r.b]
        check(a.country == b.country, f"{r.a}-{r.b} joins two countries")
        line, arcs = line_of(r, spaces)
        length = arcs[-1]
        stops = path_stops(r, arcs, {a.region, b.region} <= {IS, IY} and bool(r.via))
        chain, marks = [r.a], [0.0]
        for name, (via, t) in zip(road_names(r, spaces, stops, length), stops, strict=True):
            lat, lon = VIA[via] if via else point_at(line, arcs, t)
            near = a if 2 * t < length else b  # the nearer anchor along the road
            sid = slug(name)
            check(sid not in spaces, f"duplicate space {sid}")
            isle = [tag for tag in a.tags if tag in ISLE_TAGS]
            spaces[sid] = Space(
                sid, name, "path", near.region, a.country, round(lat, 2), round(lon, 2), isle
            )
            chain.append(sid)
            marks.append(t)
        chain.append(r.b)
        marks.append(length)
        cut = [round(r.km * t / length) for t in marks]  # cumulative, so the steps sum to km
        links += [(p, q, max(1, cut[i + 1] - cut[i])) for i, (p, q) in enumerate(pairwise(chain))]

    routes: list[Route] = []
    for port_a, port_b in FERRIES:
        pa, pb = spaces[port_a], spaces[port_b]
        sid = slug(f"{pa.name} {pb.name} crossing")
        mid = (round((pa.lat + pb.lat) / 2, 2), round((pa.lon + pb.lon) / 2, 2))
        spaces[sid] = Space(sid, f"{pa.name}–{pb.name} crossing", "sea", None, "sea", *mid)
        routes.append((f"ferry-{port_a}-{port_b}", "ferry", [port_a, sid, port_b]))
    for air_a, air_b in combinations(AIRPORTS, 2):
        name_a, name_b = air_a.removesuffix("-airport"), air_b.removesuffix("-airport")
        routes.append((f"flight-{name_a}-{name_b}", "flight", [air_a, air_b]))
    place_specials(spaces, links, random.Random(seed))
    return spaces, links, routes


def neighbours(links: list[Link]) -> dict[str, set[str]]:
    """Spaces one die step apart; ferries and flights are not steps."""
    adj: dict[str, set[str]] = {}
    for a, b, _ in links:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def within(adj: dict[str, set[str]], start: str, depth: int) -> set[str]:
    """Spaces at most `depth` steps from `start`."""
    seen, todo = {start: 0}, deque([start])
    while todo:
        here = todo.popleft()
        if seen[here] < depth:
            for nxt in adj[here] - seen.keys():
                seen[nxt] = seen[here] + 1
                todo.append(nxt)
    return set(seen)


def place_specials(spaces: dict[str, Space], links: list[Link], rng: random.Random) -> None:
    """Mark the spec's 16 S spaces, then draw 20 resource spaces among the path spaces.

    Each region gets two first, the region with the fewest candidates first (Speyside has
    only two besides its S spaces); then any lost distillery or pub with none within 3 steps
    gets one, so a player there can reach the tokens it needs; the rest are drawn at random.
    No two resource spaces touch, so a single move seldom sweeps up several.
    """
    adj = neighbours(links)
    for name in S_SPACES:
        spaces[slug(name)].kind = "special"
    special = {slug(n) for n in S_SPACES}
    for sid in special:
        check(not adj[sid] & special, f"S spaces {sid} and {adj[sid] & special} touch")
    chosen = [slug(n) for n in FIXED_RESOURCES]
    pool = sorted(s.id for s in spaces.values() if s.kind == "path" and s.id not in chosen)

    def free(sid: str) -> bool:
        return sid not in chosen and not adj[sid] & set(chosen)

    def take(options: list[str], why: str) -> None:
        check(options, f"no resource space left for {why}")
        chosen.append(rng.choice(options))

    by_region = {r: [s for s in pool if spaces[s].region == r] for r, *_ in REGIONS}
    for region in sorted(by_region, key=lambda r: (len(by_region[r]), r)):
        while sum(spaces[s].region == region for s in chosen) < 2:
            take([s for s in by_region[region] if free(s)], region)
    targets = sorted(s.id for s in spaces.values() if s.kind in ("lost_distillery", "pub"))
    rng.shuffle(targets)
    for target in targets:
        near = within(adj, target, 3)
        if not near & set(chosen):
            take([s for s in pool if s in near and free(s)], target)
    rest = [s for s in pool if free(s)]
    rng.shuffle(rest)
    for sid in rest:
        if len(chosen) < RESOURCES and free(sid):
            chosen.append(sid)
    check(len(chosen) == RESOURCES, f"only {len(chosen)} resource spaces fit")
    for sid in chosen:
        spaces[sid].kind = "resource"


def scalar(value: object) -> str:
    """A YAML scalar: plain when it reads back as the same string, else double-quoted."""
    if isinstance(value, int | float):
        return f"{value:.2f}" if isinstance(value, float) else str(value)
    text = str(value)
    plain = re.fullmatch(r"[^\W\d_][\w .&’'()–-]*", text) and not text.endswith(" ")
    keyword = text.lower() in {"yes", "no", "on", "off", "true", "false", "null"}
    return text if plain and not keyword else json.dumps(text, ensure_ascii=False)


def dump(value: dict | list, indent: str = "") -> list[str]:
    """Block-style YAML lines for the nested dicts, lists and scalars of the board."""
    out: list[str] = []
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        nested = isinstance(item, dict | list)
        if isinstance(value, dict) and nested:
            out += [f"{indent}{key}:", *dump(item, indent + "  ")]
        elif isinstance(value, dict):
            out.append(f"{indent}{key}: {scalar(item)}")
        else:  # a list item: "- " takes the place of its first line's indent
            sub = dump(item, indent + "  ") if nested else [scalar(item)]
            out += [f"{indent}- {sub[0].lstrip()}", *sub[1:]]
    return out


def render(spaces: dict[str, Space], links: list[Link], routes: list[Route]) -> str:
    """The board file: a header saying where it comes from, then the board as YAML."""
    out = [
        "# yaml-language-server: $schema=../../../schemas/board.schema.json",
        "# Generated by toolkit/games/whisky_game/mapgen.py (python -m",
        "# toolkit.games.whisky_game.mapgen): edit the module and rerun, not this file.",
        "# Anchor positions as tagged in whisky-game.md §D: [V] checked in public material,",
        "# [T] town checked (site within ~3 km), every other anchor [U] (best value).",
    ]
    for tag, ids in CHECKED.items():
        out += textwrap.wrap(f"[{tag}] {ids}", 90, initial_indent="# ", subsequent_indent="#   ")
    out += [
        "# Via towns: public gazetteer and Wikipedia positions; island villages: spec [U];",
        "# other path spaces lie on the road's line. Sea spaces: midpoint of their two ports.",
    ]
    board = {
        "kind": "graph",
        "id": "map",
        "name": BOARD_NAME,
        "source": SOURCE,
        "regions": [
            {"id": r, "name": {"fr": fr, "es": es, "en": en}, "colour": colour}
            for r, fr, es, en, colour in REGIONS
        ],
        "spaces": [
            {k: v for k, v in vars(s).items() if v not in (None, [])} for s in spaces.values()
        ],
        "links": [{"a": a, "b": b, "km": km} for a, b, km in links],
        "routes": [{"id": r, "kind": kind, "stops": stops} for r, kind, stops in routes],
    }
    lines = dump(board)
    colours = {f'colour: "{r[4]}"' for r in REGIONS}
    lines = [f"{x}  {REGION_NOTE}" if x.strip() in colours else x for x in lines]
    return "\n".join(out + lines) + "\n"


REGION_NOTE = (
    "# playset: ignore[A002,A003] six regions cannot all stay apart in grey or for every "
    "colour vision; a region is also where it lies on the map, and each bottle card prints "
    "its region's name"
)


STYLE_MARK = "# The board's look"


def kept_style(text: str) -> str:
    """The board's hand-written look (its `style:` block and the comment above it, at the end
    of the file): the map is generated, its look is content the generator keeps."""
    at = text.find("\n" + STYLE_MARK)
    return text[at + 1 :] if at >= 0 else ""


def main() -> None:
    spaces, links, routes = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    old = OUT.read_text(encoding="utf-8") if OUT.is_file() else ""
    tmp = OUT.with_name(OUT.name + ".tmp")
    tmp.write_text(render(spaces, links, routes) + kept_style(old), encoding="utf-8")
    os.replace(tmp, OUT)
    kinds = Counter(s.kind for s in spaces.values())
    print(f"{OUT}: {len(spaces)} spaces {dict(kinds)}, {len(links)} links, {len(routes)} routes")


if __name__ == "__main__":
    main()
