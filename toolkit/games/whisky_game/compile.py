"""Compile The Whisky Game's content once into plain ints and tuples.

`compile_game(game)` reads the rules parameters, the map, the two decks and the question
counts; it turns every id into an index and computes the shortest distances on the map
(land links and ferries) once, for the bots. Nothing here runs per move.
"""

from __future__ import annotations

from typing import Any

from toolkit.api import GameSetup, State
from toolkit.games.whisky_game.constants import (
    C_ADD,
    C_BONUS,
    C_EXTRA,
    C_JUMP,
    C_MULT,
    C_NEWQ,
    C_RESCUE,
    C_SPILL,
    CHAR_CODE,
    COUNTRY_CODE,
    K_AIR,
    K_DIST,
    K_LOST,
    K_OTHER,
    K_SEA,
    KIND_CODE,
    RESOURCES,
    S_BONUS,
    S_CARRIAGE,
    S_DISCARD,
    S_DOWNGRADE,
    S_FIXED,
    S_FLIGHT,
    S_HANGOVER,
    S_LOSE,
    S_MOVEREGION,
    S_MULTTOKENS,
    S_PROHIBITION,
    S_RETURN,
    S_SKIP,
    S_TAKEBACK,
    S_TAKEREGION,
    S_TRUCK,
    S_UPGRADE,
    SEA_COUNTRY,
    SPECIAL_KINDS,
    Character,
    Content,
    Special,
)
from toolkit.games.whisky_game.state import WhiskyState
from toolkit.games.whisky_game.tables import WhiskyTables


def _die_mean(sides: int, reroll: int) -> float:
    """Expected length of one roll with its re-roll chain (a ferry costs about one)."""
    plain = sum(f for f in range(1, sides + 1) if f != reroll)
    return (plain + reroll) / (sides - 1) if 1 <= reroll <= sides else (sides + 1) / 2


def _distances(
    adj: tuple[tuple[int, ...], ...],
    ferries: tuple[tuple[tuple[int, int, int], ...], ...],
    ferry_cost: int,
) -> tuple[tuple[int, ...], ...]:
    """All-pairs shortest paths (Dijkstra): a link is one step, a ferry a turn's worth."""
    import heapq

    n = len(adj)
    big = 10**6
    rows = []
    for src in range(n):
        best = [big] * n
        best[src] = 0
        heap = [(0, src)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > best[u]:
                continue
            steps = [(v, 1) for v in adj[u]] + [(far, ferry_cost) for _, far, _ in ferries[u]]
            for v, w in steps:
                if d + w < best[v]:
                    best[v] = d + w
                    heapq.heappush(heap, (d + w, v))
        rows.append(tuple(best))
    return tuple(rows)


def _deck(game: Any, kind: str) -> Any:
    for deck in game.valid(game.decks):
        if deck.kind == kind:
            return deck
    raise ValueError(f"{game.id}: no {kind} deck")


def _graph(game: Any) -> Any:
    for board in game.valid(game.boards):
        if board.kind == "graph":
            return board
    raise ValueError(f"{game.id}: no graph board")


def compile_content(game: Any) -> Content:
    rules = game.manifest.rules
    board = _graph(game)
    names = tuple(s.id for s in board.spaces)
    index = {name: i for i, name in enumerate(names)}
    regions = tuple(r.id for r in board.regions)
    rindex = {r: i for i, r in enumerate(regions)}
    kind = tuple(KIND_CODE.get(s.kind, K_OTHER) for s in board.spaces)
    region = tuple(rindex.get(s.region or "", -1) for s in board.spaces)
    country = tuple(COUNTRY_CODE.get(s.country or "", SEA_COUNTRY) for s in board.spaces)
    n = len(names)
    adj_sets: list[list[int]] = [[] for _ in range(n)]
    for link in board.links:
        a, b = index[link.a], index[link.b]
        if kind[a] == K_SEA or kind[b] == K_SEA:
            continue
        if b not in adj_sets[a]:
            adj_sets[a].append(b)
            adj_sets[b].append(a)
    adj = tuple(tuple(sorted(x)) for x in adj_sets)
    ferry_lists: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    flight_lists: list[list[int]] = [[] for _ in range(n)]
    for route in board.routes:
        stops = [index[s] for s in route.stops]
        if route.kind == "ferry" and len(stops) >= 3:
            a, sea, b = stops[0], stops[1], stops[-1]
            leaves = int(country[a] != country[b])
            ferry_lists[a].append((sea, b, leaves))
            ferry_lists[b].append((sea, a, leaves))
        elif route.kind == "flight":
            for x in stops:
                for y in stops:
                    if x != y and y not in flight_lists[x]:
                        flight_lists[x].append(y)
    ferries = tuple(tuple(x) for x in ferry_lists)
    flights = tuple(tuple(sorted(x)) for x in flight_lists)
    airports = tuple(i for i in range(n) if kind[i] == K_AIR)
    dist_space = tuple(i for i in range(n) if kind[i] == K_DIST)
    space_dist = [-1] * n
    for d, s in enumerate(dist_space):
        space_dist[s] = d
    region_spaces = tuple(
        tuple(i for i in range(n) if region[i] == r and kind[i] != K_SEA)
        for r in range(len(regions))
    )
    diff_names = tuple(rules.bottle_values)
    bank: dict[str, int] = dict.fromkeys(diff_names, 0)
    for qfile in game.valid(game.questions):
        for q in qfile.questions:
            if q.difficulty in bank:
                bank[q.difficulty] += 1
    ferry_cost = max(1, round(_die_mean(rules.die_sides, rules.reroll_face)))
    return Content(
        game_id=game.id,
        min_players=game.manifest.players.min,
        max_players=game.manifest.players.max,
        die_sides=rules.die_sides,
        reroll_face=rules.reroll_face,
        starts=tuple(index[s] for s in rules.start_spaces),
        diff_names=diff_names,
        bottle_values=tuple(rules.bottle_values[d] for d in diff_names),
        bottles_per_distillery=rules.bottles_per_distillery,
        goal_regions=rules.goal_regions,
        goal_points=rules.goal_points,
        lost_cost=tuple(rules.lost_cost.get(r, 0) for r in RESOURCES),
        lost_values=tuple(rules.lost_values),
        pub_in=rules.pub_in,
        pub_out=rules.pub_out,
        bag=tuple(rules.bag.get(r, 0) for r in RESOURCES),
        round_limit=rules.round_limit,
        skills={
            name: tuple(round(getattr(s, d, 0.0) * 1_000_000) for d in diff_names)
            for name, s in rules.skill.items()
        },
        questions=tuple(bank[d] for d in diff_names),
        space_names=names,
        kind=kind,
        region=region,
        country=country,
        adj=adj,
        ferries=ferries,
        airports=airports,
        flights=flights,
        region_names=regions,
        region_spaces=region_spaces,
        dist_space=dist_space,
        dist_region=tuple(region[s] for s in dist_space),
        space_dist=tuple(space_dist),
        lost_spaces=tuple(i for i in range(n) if kind[i] == K_LOST),
        distance=_distances(adj, ferries, ferry_cost),
        characters=tuple(_character(c, index) for c in _deck(game, "characters").cards),
        specials=tuple(_special(c, index, rindex) for c in _deck(game, "specials").cards),
    )


def _character(card: Any, index: dict[str, int]) -> Character:
    effects = []
    for e in card.effects:
        code = CHAR_CODE[e.kind]
        if code == C_ADD:
            effects.append((code, index[e.distillery], e.amount))
        elif code == C_MULT:
            effects.append((code, index[e.distillery], e.factor))
        elif code == C_RESCUE:
            effects.append((code, e.max_face, 0))
        elif code == C_NEWQ:
            effects.append((code, 0 if e.parity == "even" else 1, e.per_turn))
        elif code == C_EXTRA:
            effects.append((code, COUNTRY_CODE[e.country], e.moves))
        elif code == C_BONUS:
            effects.append((code, COUNTRY_CODE[e.country], e.amount))
        elif code == C_JUMP:
            effects.append((code, index[e.after], index[e.to]))
        elif code == C_SPILL:
            effects.append((code, e.per_opponent, 0))
        else:
            effects.append((code, 0, 0))
    return Character(card.id, card.expansion == "extended", tuple(effects))


def _special(card: Any, index: dict[str, int], rindex: dict[str, int]) -> Special:
    e = card.effect
    code = SPECIAL_KINDS.index(e.kind)
    a = b = 0
    c = -1
    values: tuple[int, ...] = ()
    target = 1 if getattr(e, "target", "self") == "opponent" else 0
    if code == S_BONUS:
        a = e.points
    elif code in (S_RETURN, S_TAKEBACK):
        a = e.count
    elif code == S_MOVEREGION:
        a = rindex[e.region]
    elif code == S_FLIGHT:
        b = int(e.return_trip)
    elif code == S_HANGOVER:
        a, b, c = e.amount, e.cure_face, e.no_move_max
    elif code == S_CARRIAGE:
        a = e.amount
    elif code in (S_TRUCK, S_MULTTOKENS):
        a = e.factor
    elif code == S_LOSE:
        a, b = e.amount, target
    elif code == S_FIXED:
        a = e.steps
    elif code == S_PROHIBITION:
        a, b = e.rolls, e.cure_face
    elif code == S_SKIP:
        a, b = e.turns, target
        c = index[e.send_to] if e.send_to else -1
    elif code == S_DOWNGRADE:
        values, b = tuple(e.values), e.to
    elif code == S_UPGRADE:
        a, values = e.value, tuple(e.to)
    elif code == S_DISCARD:
        a, b = e.count, target
    elif code == S_TAKEREGION:
        a = rindex[e.region]
    return Special(
        name=card.id,
        extended=card.expansion == "extended",
        kind=code,
        hold=card.timing == "hold",
        stays=card.stays,
        copies=card.copies,
        a=a,
        b=b,
        c=c,
        values=values,
    )


class WhiskyGame(WhiskyTables):
    """The compiled game: its tables, and states dealt from them."""

    def new_state(self, setup: GameSetup, seed: int) -> State:
        return WhiskyState.deal(self, setup, seed)


def compile_game(game: Any) -> WhiskyGame:
    return WhiskyGame(compile_content(game))
