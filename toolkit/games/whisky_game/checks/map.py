"""The map's graph: connected by land and ferry, ferries and islands, airports and starts,
spaces and link lengths (E4-E7)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.games.whisky_game.checks.base import _Where, check

if TYPE_CHECKING:
    from toolkit.content.models.board import GraphBoard

G_CONNECTED = rule(
    "G104",
    "map-connected",
    "Every space is reachable from every start by land links and ferries alone (E4).",
)
G_FERRY = rule(
    "G105",
    "ferry-shape",
    "A ferry is port - sea - port; a sea space touches only its ferry; an island links off"
    " its island only by ferry or a bridge (E5).",
)
G_AIR_STARTS = rule(
    "G106",
    "airports-starts",
    "Flights join only airports, every pair of airports; the start spaces are exactly the"
    " spaces tagged start (E6).",
)
G_SPACES = rule(
    "G107",
    "map-spaces",
    "Every dead end is a destination; land spaces have a country (scotland, ireland) and a"
    " region; coordinates lie on the map of Scotland and Ireland (E7).",
)
G_LINK_KM = rule(
    "G108",
    "link-length",
    "A link touching a path space is 10-45 km long (4-45 on islands) (E7).",
    Severity.WARNING,
)


LAND = ("scotland", "ireland")
LAT = (51.3, 59.5)
LON = (-10.7, -1.5)
PATH_KM = (10.0, 45.0)
ISLAND_KM = (4.0, 45.0)
DESTINATION_KINDS = frozenset(("distillery", "lost_distillery", "port", "airport", "pub"))
NOT_ISLANDS = frozenset(("start", "bridge"))


def _land_graph(w: _Where, board: GraphBoard) -> list[list[int]]:
    index = w.space_index()
    adj: list[list[int]] = [[] for _ in index]
    for link in board.links:
        adj[index[link.a]].append(index[link.b])
        adj[index[link.b]].append(index[link.a])
    for route in board.routes:
        if route.kind in ("ferry", "bridge"):
            stops = [index[s] for s in route.stops]
            for a, b in zip(stops, stops[1:], strict=False):
                adj[a].append(b)
                adj[b].append(a)
    return adj


@check(G_CONNECTED)
def check_connected(game: Game) -> Iterator[Diagnostic]:
    """E4: every space reachable from each start by land and ferry alone."""
    w = _Where(game)
    if w.board is None:
        return
    index = w.space_index()
    adj = _land_graph(w, w.board.model)
    spaces = w.board.model.spaces
    for start in w.rules.start_spaces:
        if start not in index:
            continue
        seen = {index[start]}
        queue = deque(seen)
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v not in seen:
                    seen.add(v)
                    queue.append(v)
        for i, s in enumerate(spaces):
            if i not in seen:
                yield w.at(
                    G_CONNECTED,
                    w.board,
                    ("spaces", i, "id"),
                    f"{s.id} cannot be reached from {start} by land or ferry",
                )


def _islands(space: Any) -> set[str]:
    return {t for t in space.tags if t not in NOT_ISLANDS}


@check(G_FERRY)
def check_ferries(game: Game) -> Iterator[Diagnostic]:
    """E5: ferry shape, sea spaces, islands left only by ferry or bridge."""
    w = _Where(game)
    if w.board is None:
        return
    spaces = w.spaces()
    board = w.board.model
    ferry_seas = set()
    for i, route in enumerate(board.routes):
        if route.kind != "ferry":
            continue
        kinds = [spaces[s].kind for s in route.stops if s in spaces]
        if len(kinds) != 3 or kinds != ["port", "sea", "port"]:
            yield w.at(
                G_FERRY,
                w.board,
                ("routes", i, "stops"),
                f"ferry {route.id} is {' - '.join(kinds)}; port - sea - port expected",
                key=True,
            )
        else:
            ferry_seas.add(route.stops[1])
    for i, link in enumerate(board.links):
        a, b = spaces.get(link.a), spaces.get(link.b)
        if a is None or b is None:
            continue
        if a.kind == "sea" or b.kind == "sea":
            yield w.at(
                G_FERRY,
                w.board,
                ("links", i, "a"),
                f"sea space {a.id if a.kind == 'sea' else b.id} has a land link",
            )
        elif _islands(a) != _islands(b) and not ("bridge" in a.tags and "bridge" in b.tags):
            yield w.at(
                G_FERRY,
                w.board,
                ("links", i, "a"),
                f"link {a.id} - {b.id} leaves an island without a ferry or a bridge",
            )
    for i, s in enumerate(board.spaces):
        if s.kind == "sea" and s.id not in ferry_seas:
            yield w.at(G_FERRY, w.board, ("spaces", i, "id"), f"sea space {s.id} has no ferry")


@check(G_AIR_STARTS)
def check_airports_starts(game: Game) -> Iterator[Diagnostic]:
    """E6: flights join airports, every pair; starts are the spaces tagged start."""
    w = _Where(game)
    if w.board is None:
        return
    spaces = w.spaces()
    board = w.board.model
    airports = [s.id for s in board.spaces if s.kind == "airport"]
    linked = set()
    for i, route in enumerate(board.routes):
        if route.kind != "flight":
            continue
        for j, stop in enumerate(route.stops):
            if stop in spaces and spaces[stop].kind != "airport":
                yield w.at(
                    G_AIR_STARTS,
                    w.board,
                    ("routes", i, "stops", j),
                    f"flight {route.id} stops at {stop}, which is no airport",
                )
        for a in route.stops:
            for b in route.stops:
                if a != b:
                    linked.add((a, b))
    for a in airports:
        for b in airports:
            if a < b and (a, b) not in linked:
                yield w.at(
                    G_AIR_STARTS,
                    w.board,
                    ("routes",),
                    f"no flight joins {a} and {b}",
                    key=True,
                )
    tagged = {s.id for s in board.spaces if "start" in s.tags}
    starts = set(w.rules.start_spaces)
    if tagged != starts:
        yield w.at(
            G_AIR_STARTS,
            w.manifest,
            ("rules", "start_spaces"),
            f"start_spaces {sorted(starts)} but spaces tagged start are {sorted(tagged)}",
            key=True,
        )


@check(G_SPACES)
def check_spaces(game: Game) -> Iterator[Diagnostic]:
    """E7: dead ends are destinations; country, region, coordinates of land spaces."""
    w = _Where(game)
    if w.board is None:
        return
    board = w.board.model
    degree = dict.fromkeys((s.id for s in board.spaces), 0)
    for link in board.links:
        degree[link.a] = degree.get(link.a, 0) + 1
        degree[link.b] = degree.get(link.b, 0) + 1
    for i, s in enumerate(board.spaces):
        if s.kind == "sea":
            continue
        if degree.get(s.id, 0) <= 1 and s.kind not in DESTINATION_KINDS:
            yield w.at(
                G_SPACES, w.board, ("spaces", i, "kind"), f"{s.id} is a dead end, not a destination"
            )
        if s.country not in LAND:
            yield w.at(
                G_SPACES,
                w.board,
                ("spaces", i, "country") if s.country else ("spaces", i),
                f"{s.id}: country {s.country!r}; one of {', '.join(LAND)} expected",
                key=s.country is None,
            )
        if not s.region:
            yield w.at(G_SPACES, w.board, ("spaces", i), f"{s.id} has no region", key=True)
        if s.lat is not None and not LAT[0] <= s.lat <= LAT[1]:
            yield w.at(G_SPACES, w.board, ("spaces", i, "lat"), f"{s.id}: lat {s.lat} off the map")
        if s.lon is not None and not LON[0] <= s.lon <= LON[1]:
            yield w.at(G_SPACES, w.board, ("spaces", i, "lon"), f"{s.id}: lon {s.lon} off the map")


@check(G_LINK_KM)
def check_link_km(game: Game) -> Iterator[Diagnostic]:
    """E7 (warning): links touching a path space have a plausible length."""
    w = _Where(game)
    if w.board is None:
        return
    spaces = w.spaces()
    for i, link in enumerate(w.board.model.links):
        a, b = spaces.get(link.a), spaces.get(link.b)
        if a is None or b is None or link.km is None or "path" not in (a.kind, b.kind):
            continue
        low, high = ISLAND_KM if _islands(a) or _islands(b) else PATH_KM
        if not low <= link.km <= high:
            yield w.at(
                G_LINK_KM,
                w.board,
                ("links", i, "km"),
                f"link {a.id} - {b.id} is {link.km:g} km; {low:g}-{high:g} expected",
            )
