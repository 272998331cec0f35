"""A greedy bot for The Whisky Game: route to what the goal still needs, answer for points.

It scores every space by the best target in reach (a distillery it may still win from,
weighted by the expected points of its best open difficulty and by whether its region is
still missing; a lost distillery when it can pay and needs points), discounted by the
precomputed map distance. Moves, ferries, flights and placements pick the best-scored
space; held cards are played when they pay; attacks go to the leader. The weights below
are the bot's taste, not rules: every rules number comes from the compiled content.
"""

from __future__ import annotations

import random

from toolkit.games.whisky_game import specials as sp
from toolkit.games.whisky_game.constants import (
    C_ADD,
    C_JUMP,
    C_MULT,
    C_NEWQ,
    C_RESCUE,
    EV_DRAWN,
    EV_GAIN,
    EV_PLAYED,
    EV_RETURNED,
    EV_SPENT,
    EV_TLOST,
    EV_WON,
    H_FAIL,
    H_FIFTY,
    H_NEWQ,
    H_RESCUE,
    H_WRITER,
    K_LOST,
    MASK,
    OP_BOOK,
    OP_BUY,
    OP_CARD,
    OP_DIFF,
    OP_FERRY,
    OP_HELP,
    OP_HERE,
    OP_PASS,
    OP_PUB,
    OP_SPILL,
    PH_ACT,
    PH_CHOICE,
    PH_END,
    PH_HELP,
    PH_JUMP,
    PH_PATH,
    PH_START,
    ROLL,
    S_FIFTY,
    S_FIXED,
    S_MULTTOKENS,
    S_WRITER,
    SHIFT,
)
from toolkit.games.whisky_game.scoring import LOST, bottle_points
from toolkit.games.whisky_game.state import WhiskyState

REGION_BONUS = 6.0  # a missing region is worth this many points to the bot
STEP_COST = 0.3  # points given up per step of distance
TOKEN_VALUE = 0.15
LUCK_FROM = 8  # play Luck of the Irish when the best target is at least this far


class GreedyBot:
    name = "greedy"

    def choose(self, state: WhiskyState, rng: random.Random) -> int:
        s = state
        actions = s.legal_actions()
        phase = s.phase
        p = s.current_player()
        if phase == PH_PATH:
            return self._path(s, p, actions)
        if phase == PH_CHOICE:
            return actions[self._choice(s, p, rng)]
        if phase == PH_START:
            return self._start(s, p, actions)
        if phase == PH_ACT:
            return self._act(s, p, actions)
        if phase == PH_HELP:
            return self._help(s, actions)
        if phase == PH_END:
            return self._end(s, p, actions)
        if phase == PH_JUMP:
            values = self._values(s, p)
            jump = s.char_arg(p, C_JUMP)
            here = values[s.pos[p]]
            there = values[jump[1]] if jump else here
            return actions[0] if there > here else actions[-1]
        return actions[0]

    # ----- the map's value for the player --------------------------------------------------

    def __init__(self) -> None:
        self._key: tuple[int, ...] = ()
        self._cached: list[tuple[float, tuple[int, ...]]] = []

    def _targets(self, s: WhiskyState, p: int) -> list[tuple[float, tuple[int, ...]]]:
        """(weight, distance row) of every place worth going to now; the same between
        the decisions of a turn until a bottle, a card, a token or a question changes."""
        ev = s.events
        key: tuple[int, ...] = (
            id(s),
            s.turns,
            p,
            ev[EV_WON],
            ev[EV_RETURNED],
            ev[EV_DRAWN],
            ev[EV_GAIN],
        )
        key += (ev[EV_SPENT], ev[EV_TLOST], ev[EV_PLAYED], s.last_q[p], len(s.lost_pile))
        if key == self._key:
            return self._cached
        self._key = key
        self._cached = sorted(self._compute_targets(s, p), key=lambda t: -t[0])
        return self._cached

    def _compute_targets(self, s: WhiskyState, p: int) -> list[tuple[float, tuple[int, ...]]]:
        c = s.c
        per = c.bottles_per_distillery
        owned = 0
        for b in s.bottles[p]:
            if b < LOST:
                owned |= 1 << (b // per)
        missing = ~s.regions(p)
        need = c.goal_points - s.points(p) > 0
        chance = self.chances(s, p)
        gain = [
            chance[v] * (value if need else 0.5) if c.questions[v] else 0.0
            for v, value in enumerate(c.bottle_values)
        ]
        region_bonus = REGION_BONUS * max(chance)
        values = range(len(gain))
        effects = s.char_effects(p)
        bonus_at = {space for kind, space, _ in effects if kind in (C_ADD, C_MULT)}
        avail, last, regions, dist = s.avail, s.last_q[p], c.dist_region, c.distance
        out = []
        for d, space in enumerate(c.dist_space):
            if owned >> d & 1 or d == last:  # one bottle each; a question elsewhere first
                continue
            base = d * per
            best = 0.0
            if space in bonus_at and need:  # the character's own bottle scores more
                for v in values:
                    if avail[base + v] and c.questions[v]:
                        x = chance[v] * bottle_points(c, base + v, effects, s.triple)
                        best = max(best, x)
            else:
                for v in values:
                    if avail[base + v] and gain[v] > best:
                        best = gain[v]
            if best <= 0:
                continue
            if missing >> regions[d] & 1:
                best += region_bonus
            out.append((best, dist[space]))
        if need and s.lost_pile and s._can_buy(p):
            mean = sum(c.lost_values) / len(c.lost_values)
            out.extend((mean, dist[space]) for space in c.lost_spaces)
        return out

    @staticmethod
    def chances(s: WhiskyState, p: int) -> list[float]:
        """P(right) per difficulty with what the seat can call on when it doesn't know:
        Jim McEwan's retry first, then its best helper (C21, C27)."""
        c = s.c
        kinds = {c.specials[t].kind for t in s.hand[p]}
        helper = 0.0
        rescue = s.char_arg(p, C_RESCUE)
        if rescue is not None:
            helper = rescue[0] / c.die_sides
        if S_FIFTY in kinds:
            helper = max(helper, 0.5)
        if S_WRITER in kinds:
            helper = 1.0
        retry = s.char_arg(p, C_NEWQ) is not None
        out = []
        for x in s.skill[p]:
            q = x / 1e6
            if retry:
                q += (1 - q) * 0.5 * q
            out.append(q + (1 - q) * helper)
        return out

    def _values(self, s: WhiskyState, p: int) -> list[float]:
        targets = self._targets(s, p)
        return [self._value(s, targets, a) for a in range(len(s.c.kind))]

    @staticmethod
    def _value(s: WhiskyState, targets: list[tuple[float, tuple[int, ...]]], a: int) -> float:
        best = -1e18
        for w, row in targets:  # heaviest first: a lighter target at distance 0 can't win
            if w <= best:
                break
            x = w - STEP_COST * row[a]
            if x > best:
                best = x
        return best if targets else 0.0

    # ----- phases --------------------------------------------------------------------------

    def _path(self, s: WhiskyState, p: int, actions: list[int]) -> int:
        targets = self._targets(s, p)
        best, best_score = actions[0], -1e9
        for action in actions:
            end, tokens, draws = s.paths[action & MASK]
            score = self._value(s, targets, end) + TOKEN_VALUE * tokens + 0.05 * draws
            if score > best_score:
                best, best_score = action, score
        return best

    def _start(self, s: WhiskyState, p: int, actions: list[int]) -> int:
        c = s.c
        targets = self._targets(s, p)
        here = self._value(s, targets, s.pos[p])
        best_move = None
        best_gain = 1.0
        for action in actions:
            op, arg = action >> SHIFT, action & MASK
            if op == OP_HERE:
                return action
            if op == OP_SPILL:
                if arg == self._leader(s, p):
                    return action
            elif op == OP_CARD:
                kind = c.specials[arg].kind
                if kind == S_FIXED:
                    far = min((row[s.pos[p]] for _, row in targets), default=0)
                    if far >= LUCK_FROM:
                        return action
                elif kind == S_MULTTOKENS:
                    if sum(s.tokens[3 * p : 3 * p + 3]) >= 3:
                        return action
                else:
                    return action
            elif op == OP_FERRY:
                _, far, _ = c.ferries[s.pos[p]][arg]
                gain = self._value(s, targets, far) - here
                if gain > best_gain:
                    best_move, best_gain = action, gain
            elif op == OP_BOOK:
                gain = self._value(s, targets, self._flight_dest(s, p, arg)) - here
                if gain > best_gain + 1.0:
                    best_move, best_gain = action, gain
        return best_move if best_move is not None else ROLL

    def _end(self, s: WhiskyState, p: int, actions: list[int]) -> int:
        """After the moves: a held card the start policy would play now, else end the turn."""
        for action in actions[1:]:
            kind = s.c.specials[action & MASK].kind
            if kind != S_MULTTOKENS or sum(s.tokens[3 * p : 3 * p + 3]) >= 3:
                return action
        return actions[0]

    def _flight_dest(self, s: WhiskyState, p: int, arg: int) -> int:
        if arg & (1 << 11):
            return s.returns_to[p][arg & 0x7FF] & MASK
        return s.c.flights[s.pos[p]][arg & 15]

    def _act(self, s: WhiskyState, p: int, actions: list[int]) -> int:
        c = s.c
        need = c.goal_points - s.points(p)
        chance = self.chances(s, p)
        here = s.pos[p]
        per = c.bottles_per_distillery
        effects = s.char_effects(p)
        best, best_score = None, 0.0
        for action in actions:
            op, arg = action >> SHIFT, action & MASK
            if op == OP_DIFF:
                v = arg & 7
                code = c.space_dist[here] * per + v
                value = bottle_points(c, code, effects, s.triple) if need > 0 else 1
                score = chance[v] * value + (0.01 if arg & 8 else 0.0)
                if arg & 8 and not s._diffs(p, s.pos[p]):
                    score += 0.5
                elif arg & 8:
                    score -= 0.02
                if score > best_score:
                    best, best_score = action, score
            elif op == OP_BUY and need > 0:
                return action
            elif op == OP_PUB:
                give, get = divmod(arg, 3)
                tok = s.tokens[3 * p : 3 * p + 3]
                cost = c.lost_cost
                if tok[get] < cost[get] and tok[give] > cost[give]:
                    return action
            elif op == OP_BOOK:
                targets = self._targets(s, p)
                stay = self._value(s, targets, s.pos[p])
                if self._value(s, targets, self._flight_dest(s, p, arg)) - stay > 2.0:
                    return action
        if best is not None:
            return best
        if c.kind[s.pos[p]] == K_LOST:
            return actions[-1]
        # a port between two moves: stop there if the ferry pays, else go on
        if OP_PASS << SHIFT in actions:
            targets = self._targets(s, p)
            stay = self._value(s, targets, s.pos[p])
            for _, far, _ in c.ferries[s.pos[p]]:
                if self._value(s, targets, far) - stay > 1.0:
                    return OP_PASS << SHIFT | 1
            return OP_PASS << SHIFT
        return actions[-1] if actions[-1] >> SHIFT == OP_PASS else actions[0]

    def _help(self, s: WhiskyState, actions: list[int]) -> int:
        args = {a & MASK for a in actions}
        value = s.c.bottle_values[s.q_diff]
        top = max(s.c.bottle_values)
        order = (H_WRITER, H_FIFTY, H_RESCUE) if value >= top / 2 else (H_RESCUE, H_FIFTY)
        for h in (H_NEWQ, *order):
            if h in args:
                return OP_HELP << SHIFT | h
        return OP_HELP << SHIFT | H_FAIL

    # ----- choices -------------------------------------------------------------------------

    def _leader(self, s: WhiskyState, p: int) -> int:
        best, key = -1, (-1, -1)
        for q in range(s.n):
            if q != p:
                k = (s.regions(q).bit_count(), s.points(q))
                if k > key:
                    best, key = q, k
        return best

    def _choice(self, s: WhiskyState, p: int, rng: random.Random) -> int:
        kind = s.choice_kind
        opts = s.opts
        c = s.c
        if kind in (sp.CH_START, sp.CH_PLACE):  # the best space; equal ones by lot
            targets = self._targets(s, p)
            values = [self._value(s, targets, space) for space in opts]
            top = max(values)
            best = [i for i, v in enumerate(values) if v >= top - 1e-9]
            return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        if kind in (sp.CH_PROHIB, sp.CH_OFFERMAN, sp.CH_WAREHOUSE, sp.CH_CORK_SEAT):
            leader = self._leader(s, p)
            return opts.index(leader) if leader in opts else 0
        if kind in (sp.CH_RETURN_ANY, sp.CH_ANGELS, sp.CH_REVEAL):
            return self._pick_bottle(s, p, opts)
        if kind == sp.CH_GM:
            return max(range(len(opts)), key=lambda i: opts[i] & 15)
        if kind in (sp.CH_TAKE_REGION, sp.CH_CALL):
            missing = ~s.regions(p)
            per = c.bottles_per_distillery

            def gain(i: int) -> float:
                code = opts[i]
                region = missing >> c.dist_region[code // per] & 1
                return bottle_points(c, code, s.char_effects(p), s.triple) + REGION_BONUS * region

            return max(range(len(opts)), key=gain)
        return 0

    def _pick_bottle(self, s: WhiskyState, p: int, opts: list[int]) -> int:
        """Own bottles: give up the cheapest that keeps the regions; others': hurt most."""
        c = s.c
        per = c.bottles_per_distillery

        def worth(i: int) -> float:
            q, j = opts[i] >> 8, opts[i] & 255
            code = s.bottles[q][j]
            points: float = bottle_points(c, code, s.char_effects(q), s.triple)
            if code < LOST:
                region = c.dist_region[code // per]
                alone = sum(
                    1 for b in s.bottles[q] if b < LOST and c.dist_region[b // per] == region
                )
                points += REGION_BONUS if alone == 1 else 0.0
            return points

        own = all(opts[i] >> 8 == s.current_player() for i in range(len(opts)))
        if own:
            return min(range(len(opts)), key=worth)
        return max(range(len(opts)), key=worth)


def make_greedy(seat: int) -> GreedyBot:
    return GreedyBot()
