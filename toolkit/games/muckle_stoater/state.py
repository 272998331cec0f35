"""A Muckle Stoater game in progress: Laddie positions, hands, piles, and every rule of play.

Positions are ints: -1 Dock, 0..L-1 track hole, L+c-1 Castle hole c. Each colour's Laddies
on the board are also one bitmask (bit = position), so "no own Laddie on the path" is a single
`&` against a precomputed path mask. A turn: the player has already drawn (done when the turn
passes), then plays one action. Actions are `variant * E + effect` (see `Table`).
"""

from __future__ import annotations

import random
from itertools import compress
from typing import Any

from toolkit.api import TERMINAL, State
from toolkit.games.muckle_stoater.constants import (
    BACK,
    BONNIE,
    DISCARD,
    EV_BACK,
    EV_CAPTURE,
    EV_EXIT,
    EV_HOME,
    EV_PARTNER,
    EV_PASS,
    EV_RESHUFFLE,
    EV_SPLIT,
    EV_SWAP,
    EVENT_NAMES,
    FWD,
    LEAVE,
    SPLIT,
    Move,
    Table,
)

Moves = list[Move]
Scoring = tuple[Any, ...]
"""What the greedy bot hands the state to score its seat's moves as they are listed
(`GreedyBot._look_up`)."""
NO_MOVE: Move = (0, -1, -1, -1, -1, -1, -1)

SPLIT_MEMO_SIZE = 1 << 16
"""How many colour configurations a table keeps the 7-split moves of (`Table.split_memo`)
before it starts again: some 36,000 after 1,600 four-player games, ~300 bytes each."""


_BITS = tuple((i + 1).bit_length() for i in range(1024))
"""_BITS[i]: the bits `Random._randbelow(i + 1)` draws, looked up (a method call a card)."""


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """`rng.shuffle(cards)`, the same draws in the same order (so the same games), without
    a Python call per card: `Random.shuffle` calls `_randbelow` for each one, and a game
    shuffles its 100-odd cards two or three times (~2 % of a greedy game's time)."""
    getrandbits = rng.getrandbits
    bits = _BITS if len(cards) <= len(_BITS) else [(i + 1).bit_length() for i in range(len(cards))]
    for i in range(len(cards) - 1, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:  # j < i + 1: below the count of cards left
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


class MuckleState(State):
    """Muckle Stoater state; see the module docstring for the encoding."""

    __slots__ = (
        "t",
        "rng",
        "pos",
        "board",
        "mask",
        "dock",
        "home",
        "hands",
        "draw",
        "discard",
        "seat",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "winner",
        "over",
        "timeout",
        "_acts",
        "_groups",
        "_scoring",
        "_best",
    )

    t: Table
    pos: list[int]  # [laddie id] position
    board: list[int]  # [track hole] laddie id, or -1
    mask: list[int]  # [colour] bits of the positions its Laddies hold (track and Castle)
    dock: list[int]  # [colour] Laddies in the Dock
    home: list[int]  # [colour] Laddies in the Castle
    hands: list[int]  # [seat * R + rank] cards held
    draw: list[int]
    discard: list[int]
    seat: int
    winner: int  # winning team (the colour itself without teams), -1 while none
    over: bool
    timeout: bool
    _acts: list[int] | None
    _groups: list[tuple[int, Moves]] | None
    _scoring: list[Scoring | None] | None
    """[seat] the look-ups of the greedy bot playing that seat, once it has chosen a move in
    this game: that seat's moves are then scored as they are listed (`_list_scored`). None
    in a clone (a search plays its copies with other bots)."""
    _best: int  # the best action for the greedy bot, when scored as listed; else -1

    @classmethod
    def deal(cls, t: Table, seed: int) -> MuckleState:
        """A fresh game: shuffle, deal `hand_size` each, seat 0 draws and plays first (R16)."""
        s = cls.__new__(cls)
        players, n = t.players, t.laddies
        s.t = t
        s.rng = random.Random(seed)
        s.pos = [-1] * (players * n)
        s.board = [-1] * t.track
        s.mask = [0] * players
        s.dock = [n] * players
        s.home = [0] * players
        s.hands = [0] * (players * t.ranks)
        s.draw = list(t.deck)
        shuffle(s.rng, s.draw)
        s.discard = []
        for seat in range(players):
            for _ in range(t.hand_size):
                if s.draw:
                    s.hands[seat * t.ranks + s.draw.pop()] += 1
        s.seat = 0
        s.turns = 0
        s.rounds = 0
        s.events = [0] * len(EVENT_NAMES)
        s.card_plays = [[0] * t.ranks for _ in range(players)]
        s.winner = -1
        s.over = False
        s.timeout = False
        s._acts = None
        s._groups = None
        s._scoring = [None] * players
        s._best = -1
        s._draw(0)
        return s

    # ----- contract -------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.over else self.seat

    def is_terminal(self) -> bool:
        return self.over

    @property
    def timed_out(self) -> bool:
        return self.timeout

    def returns(self) -> list[float]:
        """Winner (or both members of the winning team) 1.0; timeout or unfinished: zeros."""
        team = self.t.team
        return [1.0 if team[s] == self.winner else 0.0 for s in range(self.t.players)]

    def score_values(self) -> list[float]:
        """Laddies home per seat."""
        return [float(h) for h in self.home]

    def roles(self) -> list[str]:
        """No asymmetric roles; in teams each seat's role is its team, for per-team rates."""
        t = self.t
        return [f"team-{t.team[s] + 1}" for s in range(t.players)] if t.teams else []

    def move_groups(self) -> list[tuple[int, Moves]]:
        """Legal moves grouped by effect: (effect, moves); ranks sharing an effect share one
        moves list. Empty when the only actions are discards (for bots)."""
        self.legal_actions()
        if self._groups is None:  # scored as listed, without the groups: list them now
            acts, best, scoring = self._acts, self._best, self._scoring
            self._acts = self._scoring = None
            try:
                self.legal_actions()
            finally:
                self._acts, self._best, self._scoring = acts, best, scoring
        return self._groups or []

    def moves(self) -> list[Move]:
        """What each legal action does, index-aligned with legal_actions(); a discard is
        NO_MOVE. For tests and labels."""
        acts = self.legal_actions()
        found = [m for _, moves in self.move_groups() for m in moves]
        return found if len(found) == len(acts) else [NO_MOVE] * len(acts)

    def active_colour(self) -> int:
        """The colour the current seat moves: its own, or its partner's once it is home (R18)."""
        t = self.t
        seat = self.seat
        if t.teams and self.home[seat] == t.laddies:
            return t.partner[seat]
        return seat

    def clone(self) -> MuckleState:
        c = MuckleState.__new__(MuckleState)
        c.t = self.t
        r = random.Random()
        r.setstate(self.rng.getstate())
        c.rng = r
        c.pos = self.pos[:]
        c.board = self.board[:]
        c.mask = self.mask[:]
        c.dock = self.dock[:]
        c.home = self.home[:]
        c.hands = self.hands[:]
        c.draw = self.draw[:]
        c.discard = self.discard[:]
        c.seat = self.seat
        c.turns = self.turns
        c.rounds = self.rounds
        c.events = self.events[:]
        c.card_plays = [row[:] for row in self.card_plays]
        c.winner = self.winner
        c.over = self.over
        c.timeout = self.timeout
        c._acts = self._acts  # shared read-only until one of them applies
        c._groups = self._groups
        c._scoring = None
        c._best = self._best
        return c

    def observation(self, seat: int) -> MuckleState:
        """A clone where the other hands and the draw pile order are re-dealt at random."""
        c = self.clone()
        t = self.t
        ranks = t.ranks
        pool = c.draw[:]
        sizes = []
        for other in range(t.players):
            base = other * ranks
            sizes.append(sum(c.hands[base : base + ranks]))
            if other == seat:
                continue
            for r in range(ranks):
                pool.extend([r] * c.hands[base + r])
                c.hands[base + r] = 0
        shuffle(c.rng, pool)
        for other in range(t.players):
            if other != seat:
                for _ in range(sizes[other]):
                    c.hands[other * ranks + pool.pop()] += 1
        c.draw = pool
        c._acts = c._groups = None
        c._best = -1
        return c

    # ----- chance -----------------------------------------------------------------------

    def _draw(self, seat: int) -> None:
        """Draw `draw_per_turn` cards; an empty pile takes the shuffled discards (R13)."""
        t = self.t
        for _ in range(t.draw_count):
            if not self.draw:
                if not self.discard:
                    return  # both piles empty: skip the draw
                self.draw, self.discard = self.discard, self.draw
                shuffle(self.rng, self.draw)
                self.events[EV_RESHUFFLE] += 1
            self.hands[seat * t.ranks + self.draw.pop()] += 1

    # ----- move generation --------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Distinct legal moves (a read-only list, cached until the next apply), grouped by
        effect for bots (`move_groups`): ranks sharing an effect (10, J, Q, K move 10) share
        one computed move list, so bots score each distinct move once. Identical cards of one
        rank give one action. With plain loops, not comprehensions: each comprehension is a
        function call, dearer than the few items it builds here.

        For a seat played by the greedy bot (`bots.GreedyBot`), which has handed the state its
        look-ups, each move is scored as it is listed and the best action kept in `_best`
        for the bot: the bot scoring the groups afterwards walked every move a second time
        (a quarter of a greedy game), and here each Laddie's gain row and escape bonus are
        looked up once per turn, not once per move. The sums are the bot's, made in the same
        order (the same floats), and ties go to the first, as the bot's do. The move groups
        are then listed only when asked for (`move_groups`). Listed here, not in a method of
        its own (a call a turn); other seats' moves by `_list_plain`."""
        listed_acts = self._acts
        if listed_acts is not None:
            return listed_acts
        if self.over:
            return []
        seat = self.seat
        scoring = self._scoring
        hot = None if scoring is None else scoring[seat]
        if hot is None:
            return self._list_plain()
        (
            n,
            track,
            team,
            entrance,
            _,
            togo,
            sources,
            rival_starts,
            keep_cost,
            leave_costs,
            _,
            gain,
            escape,
            risk,
            capture,
            home_bonus,
            share,
        ) = hot
        t = self.t
        o = seat
        if t.teams and self.home[seat] == n:
            o = t.partner[seat]
        hb = seat * t.ranks
        hand = self.hands[hb : hb + t.ranks]
        pos = self.pos
        board = self.board
        dock = self.dock
        masks = self.mask
        lo = o * n
        own = masks[o]
        mine = team[o]
        rivals = 0  # a hole is in danger when `rivals & sources[hole]` (see bots.Plan)
        for q, docked_bit in rival_starts[o]:
            rivals |= masks[q]
            if dock[q]:
                rivals |= docked_bit
        leave_cost = leave_costs[dock[o] > 0]
        end = track + t.castle - 1
        width = end + 1
        n_eff = t.n_effects
        row = o * width  # the colour's rows in fmoves[k], one per position
        # (row in fmoves, Laddie, position, its gain row, its escape bonus or 0.0, what its
        # place among the colour's Laddies adds to an action)
        movers: list[tuple[int, int, int, tuple[float, ...], float, int]] = []
        for lid in range(lo, lo + n):
            p = pos[lid]
            if p < track:
                if p >= 0:
                    bonus = escape[lid][p] if rivals & sources[p] else 0.0
                    movers.append((row + p, lid, p, gain[lid][p], bonus, (lid - lo) * n_eff))
            elif p < end and not own >> (p + 1) & 1:  # no danger in the Castle
                movers.append((row + p, lid, p, gain[lid][p], 0.0, (lid - lo) * n_eff))
        # per shared key: (first action, end, its effect, best score, its variant), so an
        # effect listing the same moves adds their actions without listing them again
        shared: list[tuple[int, int, int, float, int] | None] = [None] * t.n_keys
        acts: list[int] = []
        best, best_score = -1, -1e18
        plans = t.rank_plan if movers else t.rank_plan_docked
        for plan in compress(plans, hand):  # the ranks held, in rank order
            for e, key, kind, arg in plan:
                if key >= 0:
                    listed = shared[key]
                    if listed is not None:  # listed for an effect before: the same moves
                        first, last, e0, top, top_v = listed
                        if top_v:
                            for i in range(first, last):
                                acts.append(acts[i] - e0 + e)
                            score = top - keep_cost[e] - leave_cost[e]
                            if score > best_score:
                                best, best_score = top_v * n_eff + e, score
                        continue
                    first = len(acts)
                top, top_v = -1e18, 0  # a move's variant is never 0 (a discard's)
                if kind == FWD:
                    for at, lid, frm, row_gain, bonus, slot in movers:
                        path, dest, v, base, second = arg[at]
                        if own & path:
                            if second is None:
                                continue
                            path, dest, v, base = second
                            second = None
                            if own & path:
                                continue
                        while True:
                            acts.append(base + slot + e)
                            score = row_gain[dest]
                            if bonus:
                                score += bonus
                            if dest >= track:
                                if frm < track:
                                    score += home_bonus
                            else:
                                if rivals & sources[dest]:
                                    score -= risk[lid][dest]
                                occ = board[dest]
                                if occ >= 0 and occ != lid:
                                    oq = occ // n
                                    if team[oq] != mine:
                                        score += capture[occ][dest]
                                    else:
                                        score += (togo[oq][dest] - togo[oq][entrance[oq]]) * share
                            if score > top:
                                top, top_v = score, v + lid - lo
                            if second is None:
                                break
                            path, dest, v, base = second  # a track and a Castle option
                            second = None
                            if own & path:
                                break
                elif kind == BACK:
                    for _, lid, frm, row_gain, bonus, _ in movers:
                        if frm >= track:
                            continue
                        dest, path = arg[frm]
                        if own & path:
                            continue
                        v = 2 + lid - lo
                        acts.append(v * n_eff + e)
                        score = row_gain[dest]
                        if bonus:
                            score += bonus
                        if rivals & sources[dest]:  # backwards from the track: on the track
                            score -= risk[lid][dest]
                        occ = board[dest]
                        if occ >= 0 and occ != lid:
                            oq = occ // n
                            if team[oq] != mine:
                                score += capture[occ][dest]
                            else:
                                score += (togo[oq][dest] - togo[oq][entrance[oq]]) * share
                        if score > top:
                            top, top_v = score, v
                elif kind == LEAVE:
                    start = t.start[o]
                    if dock[o] and not own >> start & 1:
                        lid = pos.index(-1, lo, lo + n)
                        acts.append(n_eff + e)
                        top = gain[lid][-1][start]  # from the Dock: no escape bonus
                        if rivals & sources[start]:
                            top -= risk[lid][start]
                        occ = board[start]
                        if occ >= 0:
                            oq = occ // n
                            if team[oq] != mine:
                                top += capture[occ][start]
                            else:
                                top += (togo[oq][start] - togo[oq][entrance[oq]]) * share
                        top_v = 1
                else:
                    found: Moves = []
                    if kind == SPLIT:
                        self._split_moves(arg, o, found)
                    elif kind == BONNIE:
                        self._bonnie_moves(e, o, found)
                    for v, lid, frm, dest, lid2, frm2, dest2 in found:
                        acts.append(v * n_eff + e)
                        # each part (a 7 split's two, a Bonnie's one) scored as above
                        score = 0.0
                        while True:
                            part = gain[lid][frm][dest]
                            if rivals & sources[frm]:  # 0 for the Dock and the Castle
                                part += escape[lid][frm]
                            if dest >= track:
                                if frm < track:
                                    part += home_bonus
                            else:
                                if rivals & sources[dest]:
                                    part -= risk[lid][dest]
                                occ = board[dest]
                                if occ >= 0 and occ != lid:
                                    oq = occ // n
                                    if team[oq] != mine:
                                        part += capture[occ][dest]
                                    else:
                                        part += (togo[oq][dest] - togo[oq][entrance[oq]]) * share
                            score += part
                            if lid2 < 0 or dest2 == frm2:  # no second part (a Bonnie's target)
                                break
                            lid, frm, dest, lid2 = lid2, frm2, dest2, -1
                        if score > top:
                            top, top_v = score, v
                if top_v:  # a move found
                    score = top - keep_cost[e] - leave_cost[e]
                    if score > best_score:
                        best, best_score = top_v * n_eff + e, score
                if key >= 0:
                    shared[key] = (first, len(acts), e, top, top_v)
        if not acts:  # only discards: the bot weighs those itself (from empty groups)
            for r in range(t.ranks):
                if hand[r]:
                    acts.append(t.rank_first[r])
            if not acts:
                acts.append(0)
            self._groups = []
        else:
            self._groups = None  # listed by move_groups() when asked for
        self._acts = acts
        self._best = best
        return acts

    def _list_plain(self) -> list[int]:
        """`legal_actions()` listed without scores, with the move groups (see there)."""
        t = self.t
        seat = self.seat
        n = t.laddies
        o = seat
        if t.teams and self.home[seat] == n:
            o = t.partner[seat]
        hb = seat * t.ranks
        hand = self.hands[hb : hb + t.ranks]
        pos = self.pos
        lo = o * n
        own = self.mask[o]
        # Laddies that can move forward: on the track, or in the Castle with a free hole ahead,
        # as each one's row in `fmoves[k]`: laddie * (track + castle) + position
        track = t.track
        end = track + t.castle - 1
        width = end + 1
        row = o * width
        movers = []  # (its row, Laddie, position)
        for lid in range(lo, lo + n):
            p = pos[lid]
            if p < track:
                if p >= 0:
                    movers.append((row + p, lid, p))
            elif p < end and not own >> (p + 1) & 1:
                movers.append((row + p, lid, p))
        cache: list[Moves | None] = [None] * t.n_keys
        groups: list[tuple[int, Moves]] = []
        acts = []
        n_eff = t.n_effects
        # with no Laddie to move forward, the forward and backward effects give nothing
        plans = t.rank_plan if movers else t.rank_plan_docked
        for plan in compress(plans, hand):  # the ranks held, in rank order
            for e, key, kind, arg in plan:
                if key < 0:  # no other effect lists these moves
                    found: Moves = []
                else:
                    listed = cache[key]
                    if listed is not None:  # listed for an effect before: the same moves
                        if listed:
                            groups.append((e, listed))
                            for m in listed:
                                acts.append(m[0] * n_eff + e)
                        continue
                    found = cache[key] = []
                # the common kinds inline (a call per effect costs more than they do), their
                # actions added as their moves are found
                if kind == FWD:
                    for at, lid, p in movers:
                        path, dest, v, base, second = arg[at]  # one lookup, no loop: fmoves
                        if not own & path:
                            v += lid - lo  # the row's variant is the colour's first Laddie's
                            found.append((v, lid, p, dest, -1, -1, -1))
                            acts.append(v * n_eff + e)
                        if second is not None:  # a track and a Castle option
                            path, dest, v, base = second
                            if not own & path:
                                v += lid - lo
                                found.append((v, lid, p, dest, -1, -1, -1))
                                acts.append(v * n_eff + e)
                    if found:
                        groups.append((e, found))
                elif kind == LEAVE:
                    start = t.start[o]
                    if self.dock[o] and not own >> start & 1:
                        found.append((1, pos.index(-1, lo, lo + n), -1, start, -1, -1, -1))
                        acts.append(n_eff + e)
                        groups.append((e, found))
                elif kind == BACK:
                    for _, lid, p in movers:
                        if p < track:
                            dest, path = arg[p]
                            if not own & path:
                                found.append((2 + lid - lo, lid, p, dest, -1, -1, -1))
                                acts.append((2 + lid - lo) * n_eff + e)
                    if found:
                        groups.append((e, found))
                else:
                    if kind == SPLIT:
                        self._split_moves(arg, o, found)
                    elif kind == BONNIE:
                        self._bonnie_moves(e, o, found)
                    if found:
                        groups.append((e, found))
                        for m in found:
                            acts.append(m[0] * n_eff + e)
        if not acts:  # R11/R14: no legal move at all → discard any one card and pass
            for r in range(t.ranks):
                if hand[r]:
                    acts.append(t.rank_first[r])
            if not acts:  # empty hand (both piles ran dry): a bare pass
                acts.append(0)
        self._acts = acts
        self._groups = groups
        self._best = -1  # nothing scored: the bot scores the groups itself
        return acts

    def _bonnie_moves(self, e: int, o: int, out: Moves) -> None:
        """R9/R10: an own Laddie (track, or Dock) takes a rival's track hole."""
        t = self.t
        n = t.laddies
        track = t.track
        pos = self.pos
        targets = [(lid, pos[lid]) for lid in t.rivals[o] if 0 <= pos[lid] < track]
        if not targets:
            return
        lo = o * n
        span = t.players * n
        sources = [(k, lo + k, pos[lo + k]) for k in range(n) if 0 <= pos[lo + k] < track]
        if t.eff_from_dock[e] and self.dock[o]:
            sources.append((n, pos.index(-1, lo, lo + n), -1))
        for k, lid, p in sources:
            base = 2 + k * span
            for tid, hole in targets:
                out.append((base + tid, lid, p, hole, tid, hole, hole))

    def _split_moves(self, total: int, o: int, out: Moves) -> None:
        """R3/R4/R5: two different Laddies, the first part fully resolved, all steps used.

        Each pair and share is listed once: lower Laddie first when that order is legal, else
        the other order (when both orders are legal they end in the same position)."""
        t = self.t
        n = t.laddies
        if n - self.dock[o] < (1 if t.teams else 2):  # too few Laddies out of the Dock
            return
        # R5: in teams, a first part that brings the player's last Laddie home hands the rest
        # of the 7 to a partner's Laddie; such orders are listed by _finishing_split
        fin = t.teams and o == self.seat and self.home[o] == n - 1
        if not fin:  # the moves depend on the colour's positions alone: listed once each
            memo = t.split_memo
            lo = o * n
            key = (o, total, *self.pos[lo : lo + n])
            listed = memo.get(key)
            if listed is not None:
                out.extend(listed)
                return
            first = len(out)
            self._split_listing(total, o, out, False)
            if len(memo) >= SPLIT_MEMO_SIZE:
                memo.clear()
            memo[key] = tuple(out[first:])
            return
        self._split_listing(total, o, out, True)

    def _split_listing(self, total: int, o: int, out: Moves, fin: bool) -> None:
        """`_split_moves` without the memo; `fin` as R5 says (see there)."""
        t = self.t
        n = t.laddies
        track = t.track
        lo = o * n
        pos = self.pos
        own = self.mask[o]
        parts = total - 1
        # a Castle Laddie blocked by its neighbour may move once that one has moved first:
        # every Laddie short of the Castle's dead end can take part
        end = track + t.castle - 1
        shares = t.shares[total][o]
        movers = []  # (lid, position, (options per share, live bits, rest-live bits))
        for lid, p in enumerate(pos[lo : lo + n], lo):
            if 0 <= p < end:
                movers.append((lid, p, shares[p]))
        if len(movers) < 2 and not (t.teams and movers):
            return
        if fin:
            sfwd = t.sfwd[o]
            for la, pa, _ in movers:
                if pa < track:
                    for f in range(1, total):
                        for _, dest, path, _ in sfwd[f][pa]:
                            if dest >= track and not own & path:
                                self._finishing_split(la, dest, total - f, la - lo, f, out)
        # a pair with no share f that one Laddie can take f of and the other the rest of is
        # skipped at once (Castle Laddies, mostly)
        share_fs = t.share_fs
        bit = t.bit
        last = len(movers)
        for i in range(last - 1):
            la, pa, (row_a, live_a, _) = movers[i]
            if not live_a:
                continue
            ka = la - lo
            own_a = own ^ bit[pa]  # the colour's Laddies with a lifted off
            for j in range(i + 1, last):
                lb, pb, (row_b, _, rlive_b) = movers[j]
                both = live_a & rlive_b  # the shares f a can take and b the rest of
                if not both:
                    continue
                kb = lb - lo
                ab = (ka * n + kb) * parts - 1  # variant = ((ab + f) << 2) + options + 2
                for f in share_fs[both]:
                    g = total - f
                    opts_b = row_b[g - 1]
                    for oa, da, pka, bit_a in row_a[f - 1]:
                        if not own & pka and not (fin and pa < track <= da):
                            # a may go first; b first then needs only a's path clear of b's
                            # landing hole (a's path already meets no Laddie of the colour)
                            after_a = own_a | bit_a
                            for ob, db, pkb, bit_b in opts_b:
                                if not after_a & pkb:  # a first, then b
                                    v = ((ab + f) << 2) + (oa << 1) + ob + 2
                                    out.append((v, la, pa, da, lb, pb, db))
                                elif (
                                    not own & pkb
                                    and not (fin and pb < track <= db)
                                    and not bit_b & pka
                                ):  # b first, then a
                                    ba = (kb * n + ka) * parts - 1
                                    v = ((ba + g) << 2) + (ob << 1) + oa + 2
                                    out.append((v, lb, pb, db, la, pa, da))
                        elif not (own ^ bit[pb]) & pka:  # only b first, then a, can be legal
                            for ob, db, pkb, bit_b in opts_b:
                                if (
                                    not own & pkb
                                    and not (fin and pb < track <= db)
                                    and not bit_b & pka
                                ):
                                    ba = (kb * n + ka) * parts - 1
                                    v = ((ba + g) << 2) + (ob << 1) + oa + 2
                                    out.append((v, lb, pb, db, la, pa, da))

    def _finishing_split(self, la: int, dest: int, rest: int, ka: int, f: int, out: Moves) -> None:
        """R5: the first part brings the player's last Laddie home; the rest moves a partner's
        Laddie, judged after the first part has resolved (rare, so played on a clone)."""
        t = self.t
        n = t.laddies
        parts = rest + f - 1
        probe = self.clone()
        probe._move(la, dest)
        o2 = t.partner[self.seat]
        lo2 = o2 * n
        own = probe.mask[o2]
        opts = t.sfwd[o2][rest]
        for kb in range(n):
            pb = probe.pos[lo2 + kb]
            if pb < 0:
                continue
            for ob, dest2, path, _ in opts[pb]:
                if not own & path:
                    v = 2 + ((((ka * n + kb) * parts + f - 1) * 2 + 1) * 2) + ob
                    out.append((v, la, self.pos[la], dest, lo2 + kb, pb, dest2))

    # ----- applying -----------------------------------------------------------------------

    def apply(self, action: int) -> None:
        t = self.t
        seat = self.seat
        n_eff = t.n_effects
        e = action % n_eff
        v = action // n_eff
        r = t.eff_rank[e]
        hands = self.hands
        slot = seat * t.ranks + r
        if hands[slot]:
            hands[slot] -= 1
            self.discard.append(r)
        n = t.laddies
        o = seat
        if t.teams and self.home[seat] == n:
            o = t.partner[seat]
        if v == 0:
            self.events[EV_PASS] += 1
        else:
            self.card_plays[seat][r] += 1
            kind = t.eff_kind[e]
            lo = o * n
            if kind == FWD:
                v -= 2
                if v >= n:  # Castle option, or a move inside the Castle
                    lid = lo + v - n
                    self._move(lid, self._dest(o, lid, t.eff_arg[e], 1))
                else:  # the commonest move, inline: track hole to track hole
                    lid = lo + v
                    pos = self.pos
                    board = self.board
                    p = pos[lid]
                    dest = (p + t.eff_arg[e]) % t.track
                    board[p] = -1
                    if board[dest] < 0:
                        board[dest] = lid
                        pos[lid] = dest
                        self.mask[o] ^= t.bit[p] | t.bit[dest]
                    else:
                        self.mask[o] ^= t.bit[p]
                        self._land(lid, o, dest)
            elif kind == LEAVE:
                lid = self.pos.index(-1, lo, lo + n)
                self.dock[o] -= 1
                self.events[EV_EXIT] += 1
                self._land(lid, o, t.start[o])
            elif kind == BACK:
                lid = lo + v - 2
                self.events[EV_BACK] += 1
                self._move(lid, t.back[t.eff_arg[e]][self.pos[lid]][0])
            elif kind == BONNIE:
                self._swap(o, v - 2)
            elif kind == SPLIT:
                self._split(o, t.eff_arg[e], v - 2)
        self.turns += 1
        self._acts = None
        self._groups = None
        self._best = -1
        # win check (R17/R18), next seat clockwise, round cap (R20), the next player draws
        if t.teams:
            if self.home[seat] == n and self.home[t.partner[seat]] == n:
                self.winner = t.team[seat]
                self.over = True
                return
        elif self.home[o] == n:
            self.winner = o
            self.over = True
            return
        seat += 1
        if seat == t.players:
            seat = 0
            self.rounds += 1
            if self.rounds >= t.max_rounds:
                self.over = True
                self.timeout = True
                return
        self.seat = seat
        draw = self.draw
        base = seat * t.ranks
        if draw and t.draw_count == 1:  # the usual draw, without a loop
            hands[base + draw.pop()] += 1
            return
        for _ in range(t.draw_count):
            if not draw:
                if not self.discard:
                    break  # both piles empty: skip the draw (R13)
                draw = self.draw = self.discard
                self.discard = []
                shuffle(self.rng, draw)
                self.events[EV_RESHUFFLE] += 1
            hands[base + draw.pop()] += 1

    def _dest(self, o: int, lid: int, k: int, castle: int) -> int:
        """Where a forward move of `k` ends: track option, or Castle option (castle=1)."""
        t = self.t
        p = self.pos[lid]
        track = t.track
        if p >= track:
            return p + k
        if castle:
            return track + k - t.dist[o][p] - 1
        return (p + k) % track

    def _split(self, o: int, total: int, v: int) -> None:
        t = self.t
        n = t.laddies
        parts = total - 1
        ob = v & 1
        v >>= 1
        oa = v & 1
        v >>= 1
        f = v % parts + 1
        v //= parts
        kb = v % n
        ka = v // n
        la = o * n + ka
        self._move(la, self._dest(o, la, f, oa))
        o2 = o
        if t.teams and self.home[o] == n and o == self.seat:
            o2 = t.partner[o]  # R5: the player's last Laddie went home; the rest is partner's
        lb = o2 * n + kb
        self._move(lb, self._dest(o2, lb, total - f, ob))
        self.events[EV_SPLIT] += 1

    def _swap(self, o: int, v: int) -> None:
        """Bonnie Fechter: the own Laddie takes the target's hole; the target goes to its Dock."""
        t = self.t
        n = t.laddies
        src, tid = divmod(v, t.players * n)
        pos = self.pos
        mask = self.mask
        lo = o * n
        if src == n:
            lid = pos.index(-1, lo, lo + n)
            self.dock[o] -= 1
        else:
            lid = lo + src
            p = pos[lid]
            self.board[p] = -1
            mask[o] ^= t.bit[p]
        hole = pos[tid]
        q = tid // n
        mask[q] ^= t.bit[hole]
        pos[tid] = -1
        self.dock[q] += 1
        self.board[hole] = lid
        pos[lid] = hole
        mask[o] |= t.bit[hole]
        self.events[EV_SWAP] += 1

    def _move(self, lid: int, dest: int) -> None:
        """Move a Laddie (already known to be legal) to `dest`; landing resolves captures."""
        t = self.t
        track = t.track
        o = lid // t.laddies
        pos = self.pos
        p = pos[lid]
        if p >= 0:
            self.mask[o] ^= t.bit[p]
            if p < track:
                self.board[p] = -1
        else:
            self.dock[o] -= 1
        if dest >= track:
            pos[lid] = dest
            self.mask[o] |= t.bit[dest]
            if p < track:
                self.home[o] += 1
                self.events[EV_HOME] += 1
        else:
            self._land(lid, o, dest)

    def _land(self, lid: int, o: int, hole: int) -> None:
        """Landing on a track hole: an opponent goes to its Dock; a partner goes to its
        entrance, or to its Dock when its own team holds the entrance (R15, no chains)."""
        t = self.t
        board = self.board
        pos = self.pos
        mask = self.mask
        occ = board[hole]
        board[hole] = lid
        pos[lid] = hole
        bit = t.bit[hole]
        mask[o] |= bit
        if occ < 0:
            return
        n = t.laddies
        q = occ // n
        mask[q] ^= bit
        team = t.team
        if team[q] != team[o]:
            pos[occ] = -1
            self.dock[q] += 1
            self.events[EV_CAPTURE] += 1
            return
        self.events[EV_PARTNER] += 1
        gate = t.entrance[q]
        occ2 = board[gate]
        if occ2 >= 0:
            q2 = occ2 // n
            if team[q2] == team[q]:
                pos[occ] = -1
                self.dock[q] += 1
                return
            mask[q2] ^= t.bit[gate]
            pos[occ2] = -1
            self.dock[q2] += 1
            self.events[EV_CAPTURE] += 1
        board[gate] = occ
        pos[occ] = gate
        mask[q] |= t.bit[gate]

    # ----- checks and labels ---------------------------------------------------------------

    def invariant_errors(self) -> list[str]:
        """Cards conserved; N Laddies per colour; board, masks and counts agree."""
        return [] if self._consistent() else self._inconsistencies()

    def _consistent(self) -> bool:
        """True only when `_inconsistencies()` finds nothing: its conditions in fewer Python
        steps (no walk over every hole of the board), as the random-play contract asks after
        every move. Anything unusual answers False, and the full check then says what."""
        t = self.t
        hands, pos, board = self.hands, self.pos, self.board
        if sum(hands) + len(self.draw) + len(self.discard) != t.total_cards or min(hands) < 0:
            return False
        n, track = t.laddies, t.track
        if len(pos) != t.players * n or min(pos) < -1 or max(pos) >= track + t.castle:
            return False
        on_track = 0
        for o in range(t.players):
            first = o * n
            mine = pos[first : first + n]
            castle = [p for p in mine if p >= track]
            if mine.count(-1) != self.dock[o] or len(castle) != self.home[o]:
                return False
            if len(set(castle)) != len(castle):
                return False
            mask = 0
            for lid, p in enumerate(mine, first):
                if p >= 0:
                    mask |= 1 << p
                    if p < track:  # its hole names it: no two Laddies share a hole
                        if board[p] != lid:
                            return False
                        on_track += 1
            if mask != self.mask[o]:
                return False
        # every other hole empty: no hole names a Laddie standing elsewhere
        return len(board) - board.count(-1) == on_track

    def _inconsistencies(self) -> list[str]:
        t = self.t
        errors: list[str] = []
        cards = sum(self.hands) + len(self.draw) + len(self.discard)
        if cards != t.total_cards or min(self.hands) < 0:
            errors.append(f"cards: {cards} held, {t.total_cards} in the game")
        n, track = t.laddies, t.track
        for o in range(t.players):
            mine = self.pos[o * n : o * n + n]
            placed = [p for p in mine if p >= 0]
            in_castle = [p for p in placed if p >= track]
            if min(mine) < -1 or max(mine) >= track + t.castle:
                errors.append(f"colour {o}: Laddies at impossible places {mine}")
            if mine.count(-1) != self.dock[o] or len(in_castle) != self.home[o]:
                errors.append(f"colour {o}: dock/home counts {self.dock[o]}/{self.home[o]} wrong")
            if len(set(in_castle)) != len(in_castle):
                errors.append(f"colour {o}: two Laddies share a Castle hole")
            if sum(1 << p for p in set(placed)) != self.mask[o]:
                errors.append(f"colour {o}: position mask out of date")
        holes = [p for p in self.pos if 0 <= p < track]
        if len(set(holes)) != len(holes):
            errors.append("two Laddies share a track hole")
        for hole, lid in enumerate(self.board):
            if lid >= 0 and self.pos[lid] != hole:
                errors.append(f"board hole {hole} names Laddie {lid} standing elsewhere")
        if sum(1 for lid in self.board if lid >= 0) != len(holes):
            errors.append("board and positions disagree")
        return errors

    def action_label(self, action: int) -> str:
        t = self.t
        e = action % t.n_effects
        v = action // t.n_effects
        kind = ("discard", "move", "leave", "back", "bonnie", "split")[
            DISCARD if v == 0 else t.eff_kind[e]
        ]
        return f"{kind} {t.card_names[t.eff_rank[e]]} v{v}"


__all__ = ["BACK", "BONNIE", "FWD", "LEAVE", "NO_MOVE", "SPLIT", "Move", "Moves", "MuckleState"]
