"""Greedy Muckle Stoater bot: scores each legal move with a one-ply heuristic, no search.

It prefers entering the Castle, capturing an opponent (more the closer it was to home), leaving
the Dock, and progress measured as steps still to go (so an 8 played backwards from the start
hole to just short of the entrance is a big gain); among equal moves it advances the Laddie
furthest behind. It avoids holes a rival reaches with one card (or a rival's start hole while
that rival has Laddies docked), spends its least useful card, and with no legal move discards
the card it values least. Weights were tuned by self-play: one bot with the first hand-set
weights won 8% of 4-player games against three tuned bots (fair share 25%).
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass
from typing import Any

from toolkit.api import State
from toolkit.games.muckle_stoater.constants import BACK, BONNIE, FWD, LEAVE, SPLIT, Table
from toolkit.games.muckle_stoater.state import MuckleState

HOME_BONUS = 40.0  # entering the Castle
LEAVE_STEPS = 0  # a Laddie in the Dock counts this many steps behind its start hole
LEAVE_BONUS = 2.0
CAPTURE = 10.0
CAPTURE_PROGRESS = 0.3  # per step the captured Laddie had made
RISK = 10.0  # landing where an opponent can reach with one card
RISK_PROGRESS = 0.3  # per step the endangered Laddie has made
ESCAPE = 3.0
BEHIND = 0.02  # per step still to go: prefer the Laddie furthest behind
PARTNER = 0.8  # share of a partner's gain when bumping it to its entrance
KEEP_LEAVE = 1.0  # keep an exit card while Laddies wait in the Dock
KEEP_JOKER = 14.0
KEEP_BACK = 3.0
KEEP_SPLIT = 2.0
KEEP_STEP = 0.1  # per step of a plain move card


@dataclass(frozen=True, slots=True)
class Plan:
    """Per-table lookups the bot builds once: steps to go, threat sources, card values."""

    togo: tuple[tuple[int, ...], ...]  # [colour][position] steps to the deepest Castle hole
    dock_togo: tuple[int, ...]
    most: int  # steps to go from the Dock: progress = most - togo
    sources: tuple[int, ...]
    """[position] mask of the holes from which one card reaches it, and for a colour's start
    hole that colour's docked bit (1 << (L + C + colour)): a start hole is in danger while
    its colour has Laddies in the Dock. 0 for the Castle holes and the Dock (-1: the last
    entry), never in danger. One `&` with the rival mask (rival_starts) tests a hole."""
    keep: tuple[float, ...]  # static value of keeping each rank
    has_leave: tuple[bool, ...]
    rival_colours: tuple[tuple[int, ...], ...]  # [colour] colours of the other teams
    rival_starts: tuple[tuple[tuple[int, int], ...], ...]  # [colour] (rival, its docked bit)
    keep_cost: tuple[float, ...]  # [effect] keep value of its rank
    leave_cost: tuple[tuple[float, ...], tuple[float, ...]]  # [docked][effect] exit-card value
    discard_cost: tuple[tuple[float, ...], tuple[float, ...]]
    """[docked][effect] what discarding the effect's card gives up: its keep value, plus
    KEEP_LEAVE for an exit card while Laddies wait in the Dock."""
    # The sums that score one Laddie's move (a plain move: forward, out of the Dock, 8 back;
    # or one part of a 7 split or a Bonnie Fechter), worked out once, looked up by Laddie id
    # (rows shared by a colour's Laddies):
    gain: tuple[tuple[tuple[float, ...], ...], ...]
    """gain[laddie][from][to]: progress plus the lag bonus (from -1, the last row: the Dock,
    with LEAVE_BONUS)."""
    escape: tuple[tuple[float, ...], ...]  # [laddie][from] bonus for leaving a hole in danger
    risk: tuple[tuple[float, ...], ...]  # [laddie][to] penalty for landing in danger
    capture: tuple[tuple[float, ...], ...]  # [captured laddie][hole] bonus for taking it
    simple: tuple[bool, ...]  # [effect] one Laddie, one part (scored by the short loop)


def make_plan(t: Table) -> Plan:
    track, cast = t.track, t.castle
    togo = tuple(
        tuple(t.dist[o][p] + cast for p in range(track)) + tuple(range(cast - 1, -1, -1))
        for o in range(t.players)
    )
    dock_togo = tuple(togo[o][t.start[o]] + LEAVE_STEPS for o in range(t.players))
    steps = [t.eff_arg[e] for e in range(t.n_effects) if t.eff_kind[e] in (FWD, SPLIT)]
    backs = [t.eff_arg[e] for e in range(t.n_effects) if t.eff_kind[e] == BACK]
    sources = [0] * track
    for u in range(track):
        for k in range(1, max(steps, default=0) + 1):
            sources[(u + k) % track] |= 1 << u
        for k in backs:
            sources[(u - k) % track] |= 1 << u
    width = track + cast
    sources += [0] * (cast + 1)  # the Castle holes, and the Dock as the last entry
    for q in range(t.players):
        sources[t.start[q]] |= 1 << (width + q)
    keep = []
    has_leave = []
    for effs in t.rank_effs:
        value = 0.0
        for e in effs:
            kind = t.eff_kind[e]
            if kind == BONNIE:
                value += KEEP_JOKER
            elif kind == BACK:
                value += KEEP_BACK
            elif kind == SPLIT:
                value += KEEP_SPLIT
            elif kind == FWD:
                value += KEEP_STEP * t.eff_arg[e]
        keep.append(value)
        has_leave.append(any(t.eff_kind[e] == LEAVE for e in effs))
    rival_colours = tuple(
        tuple(q for q in range(t.players) if t.team[q] != t.team[o]) for o in range(t.players)
    )
    effects = range(t.n_effects)
    most = max(dock_togo)
    # same operations in the same order as the scoring loop computes them: same floats
    gain, escape, risk, capture = [], [], [], []
    for o in range(t.players):
        row = togo[o]
        rows = [tuple(b - a + b * BEHIND for a in row) for b in row]
        b = dock_togo[o]
        rows.append(tuple(b - a + b * BEHIND + LEAVE_BONUS for a in row))
        gain.append(tuple(rows))
        escape.append(tuple(ESCAPE + (most - b) * RISK_PROGRESS for b in row))
        risk.append(tuple(RISK + (most - a) * RISK_PROGRESS for a in row))
        capture.append(tuple(CAPTURE + (most - there) * CAPTURE_PROGRESS for there in row))
    by_laddie = [lid // t.laddies for lid in range(t.players * t.laddies)]

    def discard_cost(docked: bool) -> tuple[float, ...]:  # the sums choose() compared
        return tuple(
            keep[t.eff_rank[e]] + (KEEP_LEAVE if docked and has_leave[t.eff_rank[e]] else 0.0)
            for e in effects
        )

    return Plan(
        togo,
        dock_togo,
        max(dock_togo),
        tuple(sources),
        tuple(keep),
        tuple(has_leave),
        rival_colours,
        tuple(tuple((q, 1 << (width + q)) for q in rivals) for rivals in rival_colours),
        tuple(keep[t.eff_rank[e]] for e in effects),
        (
            tuple(0.0 for _ in effects),
            tuple(KEEP_LEAVE if has_leave[t.eff_rank[e]] else 0.0 for e in effects),
        ),
        (discard_cost(False), discard_cost(True)),
        tuple(gain[q] for q in by_laddie),
        tuple(escape[q] for q in by_laddie),
        tuple(risk[q] for q in by_laddie),
        tuple(capture[q] for q in by_laddie),
        tuple(t.eff_kind[e] in (FWD, LEAVE, BACK) for e in effects),
    )


_PLANS: dict[int, tuple[Table, Plan]] = {}  # id(table) → (table, plan): one per table
# for every bot of the process (a 6-player plan is some 100,000 floats)


def plan_for(t: Table) -> Plan:
    """The table's plan, built once per process and shared by the bots at it."""
    found = _PLANS.get(id(t))
    if found is None or found[0] is not t:
        if len(_PLANS) >= 8:
            _PLANS.clear()
        collecting = gc.isenabled()
        gc.disable()  # tens of thousands of floats and tuples, none garbage (see table())
        try:
            found = _PLANS[id(t)] = (t, make_plan(t))
        finally:
            if collecting:
                gc.enable()
    return found[1]


class GreedyBot:
    """One-ply greedy: the legal move with the best heuristic score (first one on ties)."""

    name = "greedy"

    def __init__(self) -> None:
        self._table: Table | None = None
        self._plan: Plan | None = None
        self._hot: tuple[Any, ...] = ()  # what each choice reads of the table and plan

    def _look_up(self, t: Table) -> Plan:
        """The table's plan, and the values each choice reads kept as one tuple (one unpack
        per choice instead of some twenty attribute reads)."""
        plan = self._plan = plan_for(t)
        self._table = t
        self._hot = (
            t.laddies,
            t.track,
            t.team,
            t.entrance,
            tuple(k if t.eff_key.count(k) > 1 else -1 for k in t.eff_key),  # shared keys
            plan.togo,
            plan.sources,
            plan.rival_starts,
            plan.keep_cost,
            plan.leave_cost,
            plan.simple,
            plan.gain,
            plan.escape,
            plan.risk,
            plan.capture,
            HOME_BONUS,
            PARTNER,
        )
        return plan

    def choose(self, state: State, rng: random.Random) -> int:
        ms: MuckleState = state  # type: ignore[assignment]  # this game's bot: its own state
        acts = ms._acts  # computed already when the runner asked for the legal actions
        if acts is None or ms.over:
            acts = ms.legal_actions()
        if len(acts) == 1:
            return acts[0]
        best = ms._best
        if best >= 0:  # scored as the state listed the moves (MuckleState._list_scored)
            return best
        t = ms.t
        plan = self._plan
        if t is not self._table or plan is None:
            plan = self._look_up(t)
        scoring = ms._scoring
        if scoring is not None:  # from the next turn the state scores this seat's moves
            scoring[ms.seat] = self._hot
        n_eff = t.n_effects
        o = ms.seat
        if t.teams and ms.home[o] == t.laddies:
            o = t.partner[o]  # a finished team player moves the partner's Laddies
        docked = ms.dock[o] > 0
        groups = ms._groups
        if not groups:  # only discards: drop the card worth least (the first such)
            costs = plan.discard_cost[docked]
            least = acts[0]
            least_cost = costs[least % n_eff]
            for a in acts:
                cost = costs[a % n_eff]
                if cost < least_cost:
                    least, least_cost = a, cost
            return least
        (
            n,
            track,
            team,
            entrance,
            shared_key,
            togo,
            sources,
            rival_starts,
            keep_cost,
            leave_costs,
            simple,
            gain,
            escape,
            risk,
            capture,
            _,
            _,
        ) = self._hot
        mine = team[o]
        board = ms.board
        # a hole is in danger when a rival Laddie can reach it with one card, or when it is
        # a rival's start hole and that rival still has Laddies in its Dock: the rival's
        # docked bit, set in its start hole's `sources`
        dock = ms.dock
        masks = ms.mask
        rivals = 0
        for q, docked_bit in rival_starts[o]:
            rivals |= masks[q]
            if dock[q]:
                rivals |= docked_bit
        leave_cost = leave_costs[docked]
        best = acts[0]
        best_score = -1e18
        tops: list[tuple[float, int] | None] = [None] * t.n_keys  # best move per shared list
        for e, moves in groups:
            key = shared_key[e]  # -1: no other effect lists the same moves
            if key >= 0 and tops[key] is not None:  # a list shared with one already scored
                top_score, top_v = tops[key]
            elif simple[e]:
                # the loop below for one-part moves, its sums looked up (same floats)
                top_score, top_v = -1e18, 0
                for v, lid, frm, dest, _, _, _ in moves:
                    score = gain[lid][frm][dest]
                    if rivals & sources[frm]:  # 0 for the Dock and the Castle
                        score += escape[lid][frm]
                    if dest >= track:
                        if frm < track:
                            score += HOME_BONUS
                    else:
                        if rivals & sources[dest]:
                            score -= risk[lid][dest]
                        occ = board[dest]
                        if occ >= 0 and occ != lid:
                            oq = occ // n
                            if team[oq] != mine:
                                score += capture[occ][dest]
                            else:
                                score += (togo[oq][dest] - togo[oq][entrance[oq]]) * PARTNER
                    if score > top_score:
                        top_score, top_v = score, v
                if key >= 0:
                    tops[key] = (top_score, top_v)
            else:
                top_score, top_v = -1e18, 0
                for v, lid, frm, dest, lid2, frm2, dest2 in moves:
                    # each part (a 7 split's two, a Bonnie's one) scored as the loop above
                    # scores a one-part move: the same sums, so the same floats
                    score = 0.0
                    while True:
                        part = gain[lid][frm][dest]
                        if rivals & sources[frm]:  # 0 for the Dock and the Castle
                            part += escape[lid][frm]
                        if dest >= track:
                            if frm < track:
                                part += HOME_BONUS
                        else:
                            if rivals & sources[dest]:
                                part -= risk[lid][dest]
                            occ = board[dest]
                            if occ >= 0 and occ != lid:
                                oq = occ // n
                                if team[oq] != mine:
                                    part += capture[occ][dest]
                                else:
                                    part += (togo[oq][dest] - togo[oq][entrance[oq]]) * PARTNER
                        score += part
                        if lid2 < 0 or dest2 == frm2:  # no second part (a Bonnie's target)
                            break
                        lid, frm, dest, lid2 = lid2, frm2, dest2, -1
                    if score > top_score:
                        top_score, top_v = score, v
                if key >= 0:
                    tops[key] = (top_score, top_v)
            score = top_score - keep_cost[e] - leave_cost[e]
            if score > best_score:
                best, best_score = top_v * n_eff + e, score
        return best
