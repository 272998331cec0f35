"""Compile The Whisky Game's content once into plain ints and tuples.

`compile_game(game)` reads the rules parameters, the map, the two decks and the question
counts; it turns every id into an index and computes the shortest distances on the map
(land links and ferries) once, for the bots. Nothing here runs per move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolkit.api import CompiledGame, GameSetup, State

# Space kinds (codes); destinations are where a move may stop early (rule A5).
K_OTHER, K_DIST, K_LOST, K_PORT, K_AIR, K_PUB, K_RES, K_SPEC, K_SEA = range(9)
KIND_CODE = {
    "distillery": K_DIST,
    "lost_distillery": K_LOST,
    "port": K_PORT,
    "airport": K_AIR,
    "pub": K_PUB,
    "resource": K_RES,
    "special": K_SPEC,
    "sea": K_SEA,
}
DESTINATIONS = frozenset((K_DIST, K_LOST, K_PORT, K_AIR, K_PUB))
COUNTRY_CODE = {"scotland": 0, "ireland": 1}
SEA_COUNTRY = 2
RESOURCES = ("barley", "water", "yeast")

# Character effect codes.
(
    C_ADD,
    C_MULT,
    C_RESCUE,
    C_NEWQ,
    C_EXTRA,
    C_BONUS,
    C_JUMP,
    C_SPILL,
    C_WILD,
) = range(9)
CHAR_CODE = {
    "add_points": C_ADD,
    "multiply_points": C_MULT,
    "rescue_roll": C_RESCUE,
    "new_question_roll": C_NEWQ,
    "extra_moves": C_EXTRA,
    "move_bonus": C_BONUS,
    "jump_after_visit": C_JUMP,
    "spill_bottle": C_SPILL,
    "wild_tokens": C_WILD,
}

# Special effect codes.
SPECIAL_KINDS = (
    "fifty_fifty",
    "bonus_bottle",
    "win_anyway",
    "return_bottle",
    "take_back_bottle",
    "move_to_region",
    "flight_ticket",
    "roll_penalty",
    "move_add",
    "move_multiply",
    "lose_tokens",
    "reveal_lost",
    "fixed_move",
    "prohibition",
    "call_bottle",
    "skip_turns",
    "multiply_tokens",
    "downgrade_bottle",
    "upgrade_bottle",
    "discard_bottles",
    "take_region_bottle",
)
(
    S_FIFTY,
    S_BONUS,
    S_WRITER,
    S_RETURN,
    S_TAKEBACK,
    S_MOVEREGION,
    S_FLIGHT,
    S_HANGOVER,
    S_CARRIAGE,
    S_TRUCK,
    S_LOSE,
    S_REVEAL,
    S_FIXED,
    S_PROHIBITION,
    S_CALL,
    S_SKIP,
    S_MULTTOKENS,
    S_DOWNGRADE,
    S_UPGRADE,
    S_DISCARD,
    S_TAKEREGION,
) = range(len(SPECIAL_KINDS))
IMPLEMENTED_SPECIALS = frozenset(SPECIAL_KINDS)
IMPLEMENTED_CHARACTERS = frozenset(CHAR_CODE)

EVENT_NAMES = (
    "questions",
    "right_answers",
    "bottles_won",
    "bottles_returned",
    "lost_bought",
    "tokens_gained",
    "tokens_spent",
    "tokens_lost",
    "empty_bag",
    "pub_trades",
    "specials_drawn",
    "specials_played",
    "declarations",
    "voided_declarations",
    "question_reshuffles",
    "special_reshuffles",
    "flights",
    "ferry_crossings",
    "turns_at_sea",
    "skipped_turns",
    "hangover_turns",
    "prohibition_turns",
    "helpers_used",
    "spills",
)
(
    EV_Q,
    EV_RIGHT,
    EV_WON,
    EV_RETURNED,
    EV_LOST,
    EV_GAIN,
    EV_SPENT,
    EV_TLOST,
    EV_EMPTY,
    EV_PUB,
    EV_DRAWN,
    EV_PLAYED,
    EV_DECL,
    EV_VOID,
    EV_QRESHUF,
    EV_SRESHUF,
    EV_FLIGHT,
    EV_FERRY,
    EV_SEA,
    EV_SKIP,
    EV_HANG,
    EV_PROHIB,
    EV_HELP,
    EV_SPILL,
) = range(len(EVENT_NAMES))


@dataclass(frozen=True, slots=True)
class Character:
    """One character as plain values: (effect code, a, b) triples."""

    name: str
    extended: bool
    effects: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class Special:
    """One special card type: effect code, parameters, timing, copies."""

    name: str
    extended: bool
    kind: int
    hold: bool
    stays: bool
    copies: int
    a: int  # main number (amount, points, steps, turns, factor, count, region, rolls, ...)
    b: int  # second number (target: 0 self / 1 opponent; cure face; return trip; to)
    c: int  # third number (no-move max; send-to distillery space or -1)
    values: tuple[int, ...]  # Angels' values / G&M's targets


@dataclass(frozen=True, slots=True)
class Content:
    """Everything the rules use, as plain values (no pydantic in the engine)."""

    game_id: str
    min_players: int
    max_players: int
    # rules
    die_sides: int
    reroll_face: int
    starts: tuple[int, ...]  # space indexes
    diff_names: tuple[str, ...]
    bottle_values: tuple[int, ...]  # per difficulty
    bottles_per_distillery: int
    goal_regions: int
    goal_points: int
    lost_cost: tuple[int, int, int]
    lost_values: tuple[int, ...]
    pub_in: int
    pub_out: int
    bag: tuple[int, int, int]
    round_limit: int
    skills: dict[str, tuple[int, ...]]  # name -> P(right) per difficulty, in 1/1_000_000
    questions: tuple[int, ...]  # cards per difficulty
    # map
    space_names: tuple[str, ...]
    kind: tuple[int, ...]
    region: tuple[int, ...]  # -1 for none
    country: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]  # land links (sea spaces never entered by a move)
    ferries: tuple[tuple[tuple[int, int, int], ...], ...]  # [port] (sea, far port, leaves)
    airports: tuple[int, ...]
    flights: tuple[tuple[int, ...], ...]  # [space] airports reachable by a flight
    region_names: tuple[str, ...]
    region_spaces: tuple[tuple[int, ...], ...]  # land spaces per region
    dist_space: tuple[int, ...]  # distillery index -> space
    dist_region: tuple[int, ...]
    space_dist: tuple[int, ...]  # space -> distillery index or -1
    lost_spaces: tuple[int, ...]
    distance: tuple[tuple[int, ...], ...]  # [a][b] steps by land and ferry (ferry = a turn)
    # decks
    characters: tuple[Character, ...]
    specials: tuple[Special, ...]


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


class WhiskyGame(CompiledGame):
    """The compiled game: makes states; tables per option set are cached."""

    event_names = EVENT_NAMES

    def __init__(self, content: Content) -> None:
        self.content = content
        self.game_id = content.game_id
        self.min_players = content.min_players
        self.max_players = content.max_players
        self.card_names = tuple(s.name for s in content.specials)
        # every decision of a turn is a move; a turn has at most a few dozen of them
        self.max_turns = content.round_limit * content.max_players * 64
        self._paths: dict[int, tuple[tuple[int, int, int], ...]] = {}

    def cards_in_play(self, setup: GameSetup) -> tuple[bool, ...]:
        """Extended-set cards are in play only with the `extended` option."""
        extended = bool(setup.options.get("extended", False))
        return tuple(extended or not s.extended for s in self.content.specials)

    def new_state(self, setup: GameSetup, seed: int) -> State:
        from toolkit.games.whisky_game.state import WhiskyState

        return WhiskyState.deal(self, setup, seed)


def compile_game(game: Any) -> WhiskyGame:
    return WhiskyGame(compile_content(game))
