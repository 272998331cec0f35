"""G checks of The Whisky Game's content: the validator invariants of spec §E (E8, the
question counts, is a generic question-bank check), each reported at the node to fix.
They run after the schema checks passed, on valid models.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toolkit.content.checked import CheckedGame
from toolkit.content.game import Game, ValidFile
from toolkit.content.plugin import guarded_check
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.games.whisky_game.constants import IMPLEMENTED_CHARACTERS, IMPLEMENTED_SPECIALS
from toolkit.games.whisky_game.models import WhiskyRules

if TYPE_CHECKING:
    from toolkit.content.models.board import GraphBoard, GraphSpace

G_BOTTLES = rule(
    "G101",
    "bottle-values",
    "One bottle per difficulty value, distinct; 3-4 lost distilleries, a lost pile of"
    " bottles_per_distillery cards for each (E1).",
)
G_REGIONS = rule(
    "G102",
    "goal-regions",
    "The map has exactly goal_regions regions, each with the same number of distilleries,"
    " each named in the glossary (E2).",
)
G_REACHABLE_GOAL = rule(
    "G103",
    "goal-reachable",
    "At the largest table each region holds a bottle per player, the bottles hold every"
    " player's goal_points, and one top bottle per region reaches goal_points (E3).",
)
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
G_NAMED = rule(
    "G109",
    "named-targets",
    "A region a card sends players to, or takes a bottle from, holds such spaces (E9).",
)
G_EFFECTS = rule(
    "G110",
    "effect-implemented",
    "Every effect kind of a character or special card is implemented by the engine (E10).",
)
G_SPREAD = rule(
    "G111",
    "region-spaces",
    "Each region should have at least 2 S spaces and 2 resource spaces (E11).",
    Severity.WARNING,
)
G_BAG = rule(
    "G112",
    "bag-size",
    "The bag holds at least a whole lost-distillery payment of each kind (E11).",
)

LAND = ("scotland", "ireland")
LAT = (51.3, 59.5)
LON = (-10.7, -1.5)
PATH_KM = (10.0, 45.0)
ISLAND_KM = (4.0, 45.0)
DESTINATION_KINDS = frozenset(("distillery", "lost_distillery", "port", "airport", "pub"))
NOT_ISLANDS = frozenset(("start", "bridge"))
Path = tuple[str | int, ...]


class _Where(CheckedGame[WhiskyRules]):
    """The game's files, and diagnostics at paths inside them."""

    def __init__(self, game: Game) -> None:
        from toolkit.content.models.board import GraphBoard  # board models load on first use

        super().__init__(game, WhiskyRules)
        boards = (ValidFile.of(f, GraphBoard) for f in game.boards)
        self.board = next((b for b in boards if b is not None), None)
        # deck models are built per plugin at run time (GamePlugin.deck_models): no static type
        self.decks: dict[str, ValidFile[Any]] = {
            getattr(f.model, "kind", ""): ValidFile(f.rel, f.doc, f.model)
            for f in game.decks
            if f.model is not None
        }

    def spaces(self) -> dict[str, GraphSpace]:
        return {s.id: s for s in self.board.model.spaces} if self.board else {}

    def space_index(self) -> dict[str, int]:
        return {s.id: i for i, s in enumerate(self.board.model.spaces)} if self.board else {}


def check_bottles(game: Game) -> Iterator[Diagnostic]:
    """E1: three bottle values, distinct; 3-4 lost distilleries; a lost pile to match."""
    w = _Where(game)
    rules = w.rules
    values = list(rules.bottle_values.values())
    if len(values) != rules.bottles_per_distillery or len(set(values)) != len(values):
        yield w.at(
            G_BOTTLES,
            w.manifest,
            ("rules", "bottle_values"),
            f"{len(values)} bottle values {values} for {rules.bottles_per_distillery}"
            " bottles per distillery (one distinct value each)",
            key=True,
        )
    if w.board is None:
        return
    lost = [s.id for s in w.board.model.spaces if s.kind == "lost_distillery"]
    if not 3 <= len(lost) <= 4:
        yield w.at(
            G_BOTTLES, w.board, ("spaces",), f"{len(lost)} lost distilleries; 3-4 expected", True
        )
    want = rules.bottles_per_distillery * len(lost)
    if len(rules.lost_values) != want:
        yield w.at(
            G_BOTTLES,
            w.manifest,
            ("rules", "lost_values"),
            f"lost pile of {len(rules.lost_values)} bottles; {len(lost)} lost distilleries"
            f" x {rules.bottles_per_distillery} = {want}",
        )


def _distilleries_by_region(board: GraphBoard) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {r.id: [] for r in board.regions}
    for s in board.spaces:
        if s.kind == "distillery" and s.region:
            out.setdefault(s.region, []).append(s.id)
    return out


def check_regions(game: Game) -> Iterator[Diagnostic]:
    """E2: goal_regions regions, an equal number of distilleries each, glossary names."""
    w = _Where(game)
    if w.board is None:
        return
    regions = w.board.model.regions
    if len(regions) != w.rules.goal_regions:
        yield w.at(
            G_REGIONS,
            w.board,
            ("regions",),
            f"{len(regions)} regions, but goal_regions is {w.rules.goal_regions}",
            key=True,
        )
    by_region = _distilleries_by_region(w.board.model)
    counts = [len(v) for v in by_region.values()]
    usual = max(set(counts), key=counts.count) if counts else 0
    for i, r in enumerate(regions):
        if len(by_region.get(r.id, [])) != usual or usual == 0:
            yield w.at(
                G_REGIONS,
                w.board,
                ("regions", i, "id"),
                f"region {r.id} has {len(by_region.get(r.id, []))} distilleries; the others"
                f" have {usual}",
            )
    glossary = game.glossary.model if game.glossary else None
    if glossary is not None:
        terms = {t.id for t in glossary.terms}
        for i, r in enumerate(regions):
            if r.id not in terms:
                yield w.at(
                    G_REGIONS,
                    w.board,
                    ("regions", i, "id"),
                    f"region {r.id} is not in the glossary",
                )


def check_goal_reachable(game: Game) -> Iterator[Diagnostic]:
    """E3: enough bottles per region and points for the largest table."""
    w = _Where(game)
    if w.board is None:
        return
    rules = w.rules
    players = w.manifest.model.players.max
    per = rules.bottles_per_distillery
    values = list(rules.bottle_values.values())
    by_region = _distilleries_by_region(w.board.model)
    for i, r in enumerate(w.board.model.regions):
        bottles = len(by_region.get(r.id, [])) * per
        if bottles < players:
            yield w.at(
                G_REACHABLE_GOAL,
                w.board,
                ("regions", i, "id"),
                f"region {r.id} holds {bottles} bottles for up to {players} players",
            )
    total = sum(len(v) for v in by_region.values()) * sum(values)
    if total < players * rules.goal_points:
        yield w.at(
            G_REACHABLE_GOAL,
            w.manifest,
            ("rules", "goal_points"),
            f"the bottles hold {total} points;"
            f" {players} players need {players * rules.goal_points}",
        )
    if values and max(values) * rules.goal_regions < rules.goal_points:
        yield w.at(
            G_REACHABLE_GOAL,
            w.manifest,
            ("rules", "goal_points"),
            f"{rules.goal_regions} top bottles give {max(values) * rules.goal_regions} points,"
            f" less than goal_points {rules.goal_points}",
        )


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


def check_named(game: Game) -> Iterator[Diagnostic]:
    """E9: a region named by a card holds the spaces the card needs."""
    w = _Where(game)
    deck = w.decks.get("specials")
    if w.board is None or deck is None:
        return
    spaces = w.board.model.spaces
    for i, card in enumerate(deck.model.cards):
        e = card.effect
        if e.kind == "move_to_region":
            if not any(s.region == e.region and s.kind != "sea" for s in spaces):
                yield w.at(
                    G_NAMED,
                    deck,
                    ("cards", i, "effect", "region"),
                    f"{card.id} sends players to {e.region}, which has no space",
                )
        elif e.kind == "take_region_bottle" and not any(
            s.region == e.region and s.kind == "distillery" for s in spaces
        ):
            yield w.at(
                G_NAMED,
                deck,
                ("cards", i, "effect", "region"),
                f"{card.id} takes a bottle from {e.region}, which has no distillery",
            )


def check_effects(game: Game) -> Iterator[Diagnostic]:
    """E10: every effect kind used is one the engine implements."""
    w = _Where(game)
    for kind, deck in w.decks.items():
        if kind == "characters":
            for i, card in enumerate(deck.model.cards):
                for j, e in enumerate(card.effects):
                    if e.kind not in IMPLEMENTED_CHARACTERS:
                        yield w.at(
                            G_EFFECTS,
                            deck,
                            ("cards", i, "effects", j, "kind"),
                            f"{card.id}: effect {e.kind} is not implemented",
                        )
        elif kind == "specials":
            for i, card in enumerate(deck.model.cards):
                if card.effect.kind not in IMPLEMENTED_SPECIALS:
                    yield w.at(
                        G_EFFECTS,
                        deck,
                        ("cards", i, "effect", "kind"),
                        f"{card.id}: effect {card.effect.kind} is not implemented",
                    )


def check_spread(game: Game) -> Iterator[Diagnostic]:
    """E11 (warning): S and resource spaces in every region."""
    w = _Where(game)
    if w.board is None:
        return
    board = w.board.model
    for i, r in enumerate(board.regions):
        for kind, label in (("special", "S"), ("resource", "resource")):
            count = sum(1 for s in board.spaces if s.region == r.id and s.kind == kind)
            if count < 2:
                yield w.at(
                    G_SPREAD,
                    w.board,
                    ("regions", i, "id"),
                    f"region {r.id} has {count} {label} space(s); 2 or more expected",
                )


def check_bag(game: Game) -> Iterator[Diagnostic]:
    """E11: the bag can pay a whole lost bottle in any one kind (Friar John Cor)."""
    w = _Where(game)
    rules = w.rules
    need = sum(rules.lost_cost.values())
    for kind in ("barley", "water", "yeast"):
        have = rules.bag.get(kind, 0)
        if have < need:
            path = ("rules", "bag", kind) if kind in rules.bag else ("rules", "bag")
            yield w.at(
                G_BAG,
                w.manifest,
                path,
                f"the bag holds {have} {kind}; at least {need} (a lost bottle's price)",
                key=kind not in rules.bag,
            )


_guarded = guarded_check  # valid content only; no manifest, no findings


CHECKS = tuple(
    _guarded(c)
    for c in (
        check_bottles,
        check_regions,
        check_goal_reachable,
        check_connected,
        check_ferries,
        check_airports_starts,
        check_spaces,
        check_link_km,
        check_named,
        check_effects,
        check_spread,
        check_bag,
    )
)
