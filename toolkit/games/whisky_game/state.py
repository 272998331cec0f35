"""One game of The Whisky Game in progress: the turn as a small state machine.

Phases: START (before each move: roll, or play a held card, a flight, a ferry, a spill),
PATH (pick where the rolled move ends), ACT (resolve a destination), HELP (when you don't
know the answer), JUMP (Nick Savage), CHOICE (a card's target, chosen by the seat named).
Phases with a single possible action resolve at once, so the runner and the bots see only
real choices (and a forced ROLL when nothing else is possible). Seat 0 is the player who
won the opening roll (rule A2); play goes up the seats.

Actions are `op << 12 | arg`. Chance (die, answers, the bag, the decks) comes from the
state's own RNG; every number comes from the compiled content.
"""

from __future__ import annotations

import random

from toolkit.api import TERMINAL, GameSetup, State
from toolkit.games.whisky_game import specials as sp
from toolkit.games.whisky_game.constants import (
    C_BONUS,
    C_EXTRA,
    C_JUMP,
    C_NEWQ,
    C_RESCUE,
    C_SPILL,
    C_WILD,
    END_NOW,
    EV_DECL,
    EV_EMPTY,
    EV_FERRY,
    EV_FLIGHT,
    EV_GAIN,
    EV_HANG,
    EV_HELP,
    EV_LOST,
    EV_PROHIB,
    EV_PUB,
    EV_Q,
    EV_QRESHUF,
    EV_RIGHT,
    EV_SEA,
    EV_SKIP,
    EV_SPENT,
    EV_SPILL,
    EV_VOID,
    EV_WON,
    EVENT_NAMES,
    H_FAIL,
    H_FIFTY,
    H_NEWQ,
    H_RESCUE,
    H_WRITER,
    K_AIR,
    K_DIST,
    K_LOST,
    K_PORT,
    K_PUB,
    MASK,
    OP_BOOK,
    OP_BUY,
    OP_CARD,
    OP_CHOOSE,
    OP_DIFF,
    OP_FERRY,
    OP_HELP,
    OP_HERE,
    OP_JUMP,
    OP_PASS,
    OP_PATH,
    OP_PUB,
    OP_ROLL,
    OP_SPILL,
    PH_ACT,
    PH_CHOICE,
    PH_END,
    PH_HELP,
    PH_JUMP,
    PH_OVER,
    PH_PATH,
    PH_START,
    R_ACT,
    R_AFTER_Q,
    R_END_MOVE,
    R_END_TURN,
    R_SETUP,
    R_START,
    ROLL,
    S_CALL,
    S_CARRIAGE,
    S_FIFTY,
    S_FLIGHT,
    S_HANGOVER,
    S_PROHIBITION,
    S_TRUCK,
    S_WRITER,
    SHIFT,
    Content,
)
from toolkit.games.whisky_game.moves import BANNED, Outcome, outcomes
from toolkit.games.whisky_game.scoring import (
    LOST,
    bonus_points,
    bottle_points,
    printed_value,
    regions_mask,
)
from toolkit.games.whisky_game.tables import WhiskyTables


def _skill(c: Content, options: dict[str, bool | int | str], seat: int) -> tuple[int, ...]:
    """P(right) per difficulty for a seat: option `skill_<seat>` (1-based) when it names a
    preset, else the table's `skill` (C27)."""
    own = options.get(f"skill_{seat + 1}", "table")
    name = own if own in c.skills else options.get("skill", "default")
    if name not in c.skills:
        name = next(iter(c.skills))
    return c.skills[str(name)]


class WhiskyState(State):
    __slots__ = (
        "g",
        "c",
        "rng",
        "n",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "char",
        "skill",
        "triple",
        "pos",
        "tokens",
        "bottles",
        "hand",
        "front",
        "skips",
        "last_q",
        "placed",
        "booked",
        "returns_to",
        "at_sea",
        "spilled",
        "revealed",
        "avail",
        "lost_pile",
        "deck",
        "discard",
        "removed",
        "bag",
        "piles",
        "cur",
        "phase",
        "moves_left",
        "turn_start",
        "newq_left",
        "spill_done",
        "helper_used",
        "q_diff",
        "q_dist",
        "q_call",
        "opts",
        "paths",
        "choice_kind",
        "choice_seat",
        "choice_arg",
        "resume",
        "pending",
        "traded",
        "declarer",
        "met",
        "winners",
        "over",
        "timeout",
        "stats",
        "ticket",
        "ext",
        "start_space",
        "tally",
        "begin_next",
    )
    # The slots' types (annotations only: no class attribute, no runtime cost).
    g: WhiskyTables
    c: Content
    n: int
    char: list[int]  # character index per seat
    skill: list[tuple[int, ...]]  # P(right) per difficulty per seat, in 1/1_000_000
    triple: bool
    pos: list[int]
    tokens: list[int]  # 3 per seat: barley, water, yeast
    bottles: list[list[int]]  # bottle codes per seat (LOST + i for lost bottles)
    hand: list[list[int]]  # special types held per seat
    front: list[list[int]]  # special types in play in front of each seat
    skips: list[int]
    last_q: list[int]
    placed: list[bool]
    booked: list[int]
    returns_to: list[list[int]]
    at_sea: list[int]
    spilled: list[int]  # [p * n + q] bottles p spilled from q
    revealed: list[int]
    avail: list[int]
    lost_pile: list[int]
    deck: list[int]
    discard: list[int]
    removed: list[int]
    bag: list[int]
    piles: list[int]
    cur: int
    phase: int
    moves_left: int
    turn_start: bool
    newq_left: int
    spill_done: bool
    helper_used: bool
    q_diff: int
    q_dist: int
    q_call: bool
    opts: list[int]  # the choice's options (start spaces, targets, bottles)
    paths: list[Outcome]  # where the rolled move may end (phase PATH; never changed in place)
    choice_kind: int
    choice_seat: int
    choice_arg: int
    resume: int
    pending: list[int]
    traded: bool
    declarer: int
    met: list[int]
    winners: list[int]
    over: bool
    timeout: bool
    stats: list[list[int]]
    ticket: list[int]
    ext: bool
    start_space: list[int]
    tally: list[list[int]]
    begin_next: bool

    # ----- setup -------------------------------------------------------------------------

    @classmethod
    def deal(cls, g: WhiskyTables, setup: GameSetup, seed: int) -> WhiskyState:
        c = g.content
        n = setup.players
        if not c.min_players <= n <= c.max_players:
            raise ValueError(f"{c.game_id} plays with {c.min_players}-{c.max_players} players")
        opts = setup.options
        extended = bool(opts.get("extended", False))
        pool = [i for i, ch in enumerate(c.characters) if extended or not ch.extended]
        if len(pool) < n:
            raise ValueError(f"{len(pool)} characters for {n} players")
        s = cls.__new__(cls)
        s.g, s.c = g, c
        s.rng = rng = random.Random(seed)
        s.n = n
        s.turns = s.rounds = 0
        s.events = [0] * len(EVENT_NAMES)
        s.card_plays = [[0] * len(c.specials) for _ in range(n)]
        s.char = rng.sample(pool, n)
        s.skill = [_skill(c, opts, seat) for seat in range(n)]
        s.triple = bool(opts.get("winchester_triple", False))
        s.pos = [c.starts[0]] * n
        s.tokens = [0] * (3 * n)
        s.bottles = [[] for _ in range(n)]
        s.hand = [[] for _ in range(n)]
        s.front = [[] for _ in range(n)]
        s.skips = [0] * n
        s.last_q = [-1] * n
        s.placed = [False] * n
        s.booked = [-1] * n  # destination airport, ticket type in returns_to bookkeeping
        s.returns_to = [[] for _ in range(n)]  # (ticket type << 12 | airport) held for later
        s.at_sea = [-1] * n  # far port while on a sea space
        s.spilled = [0] * (n * n)
        s.revealed = []
        per = c.bottles_per_distillery
        s.avail = [1] * (len(c.dist_space) * per)
        lost = list(range(len(c.lost_values)))
        rng.shuffle(lost)
        s.lost_pile = lost
        deck = [
            t
            for t, card in enumerate(c.specials)
            if extended or not card.extended
            for _ in range(card.copies)
        ]
        rng.shuffle(deck)
        s.deck = deck
        s.discard = []
        s.removed = []
        s.bag = list(c.bag)
        s.piles = list(c.questions)
        s.cur = 0
        s.phase = PH_CHOICE
        s.moves_left = 0
        s.turn_start = True
        s.newq_left = 0
        s.spill_done = False
        s.helper_used = False
        s.q_diff = s.q_dist = -1
        s.q_call = False
        s.opts = []
        s.paths = []
        s.choice_kind = sp.CH_START
        s.choice_seat = 0
        s.choice_arg = 0
        s.resume = R_SETUP
        s.pending = []
        s.traded = False
        s.declarer = -1
        s.met = []
        s.winners = []
        s.over = False
        s.timeout = False
        # figures: per seat [diff picks x3, rights x3, gained, spent, lost, bought, drew mask,
        # turns lost to hangover, prohibition, skips]
        s.stats = [[0] * 14 for _ in range(n)]
        s.ticket = [-1] * n  # handed-in ticket: mode << 24 | type << 12 | airport
        s.ext = extended
        s.begin_next = False
        s.start_space = [c.starts[0]] * n
        # figures only: per seat the turn each region was last completed, questions and
        # emptyings per distillery, crossings per sea space
        nd, nr = len(c.dist_space), len(c.region_names)
        s.tally = [[-1] * nr for _ in range(n)] + [[0] * nd, [0] * nd, [0] * len(c.kind)]
        s.opts = list(c.starts)
        if len(s.opts) == 1:
            s._choose(0)
            s.drain()
        return s

    def clone(self) -> WhiskyState:
        c = self.__class__.__new__(self.__class__)
        c.g, c.c, c.n = self.g, self.c, self.n
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c.turns, c.rounds = self.turns, self.rounds
        c.events = self.events[:]
        c.card_plays = [row[:] for row in self.card_plays]
        c.char = self.char
        c.skill = self.skill
        c.triple = self.triple
        c.pos = self.pos[:]
        c.tokens = self.tokens[:]
        c.bottles = [b[:] for b in self.bottles]
        c.hand = [h[:] for h in self.hand]
        c.front = [f[:] for f in self.front]
        c.skips = self.skips[:]
        c.last_q = self.last_q[:]
        c.placed = self.placed[:]
        c.booked = self.booked[:]
        c.returns_to = [r[:] for r in self.returns_to]
        c.at_sea = self.at_sea[:]
        c.spilled = self.spilled[:]
        c.revealed = self.revealed[:]
        c.avail = self.avail[:]
        c.lost_pile = self.lost_pile[:]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.removed = self.removed[:]
        c.bag = self.bag[:]
        c.piles = self.piles[:]
        c.cur, c.phase = self.cur, self.phase
        c.moves_left, c.turn_start = self.moves_left, self.turn_start
        c.newq_left, c.spill_done, c.helper_used = (
            self.newq_left,
            self.spill_done,
            self.helper_used,
        )
        c.q_diff, c.q_dist, c.q_call = self.q_diff, self.q_dist, self.q_call
        c.opts = self.opts[:]
        c.paths = self.paths
        c.choice_kind, c.choice_seat, c.choice_arg = (
            self.choice_kind,
            self.choice_seat,
            self.choice_arg,
        )
        c.resume = self.resume
        c.pending = self.pending[:]
        c.traded = self.traded
        c.declarer = self.declarer
        c.met = self.met[:]
        c.winners = self.winners[:]
        c.over, c.timeout = self.over, self.timeout
        c.stats = [row[:] for row in self.stats]
        c.ticket = self.ticket[:]
        c.ext = self.ext
        c.begin_next = self.begin_next
        c.start_space = self.start_space[:]
        c.tally = [row[:] for row in self.tally]
        return c

    def observation(self, seat: int) -> WhiskyState:
        """What `seat` may see: the special deck's order, the lost pile's order and the
        values of other players' face-down lost bottles are re-dealt at random."""
        view = self.clone()
        rng = view.rng
        rng.seed(self.rng.random())
        rng.shuffle(view.deck)
        hidden = [
            (q, i)
            for q in range(self.n)
            if q != seat
            for i, b in enumerate(view.bottles[q])
            if b >= LOST and b not in view.revealed
        ]
        pool = view.lost_pile + [view.bottles[q][i] - LOST for q, i in hidden]
        rng.shuffle(pool)
        for k, (q, i) in enumerate(hidden):
            view.bottles[q][i] = LOST + pool[k]
        view.lost_pile = pool[len(hidden) :]
        return view

    # ----- contract ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return self.choice_seat if self.phase == PH_CHOICE else self.cur

    def is_terminal(self) -> bool:
        return self.over

    @property
    def timed_out(self) -> bool:
        return self.timeout

    def returns(self) -> list[float]:
        if not self.winners:
            return [0.0] * self.n
        share = 1.0 / len(self.winners)
        return [share if s in self.winners else 0.0 for s in range(self.n)]

    def score_values(self) -> list[float]:
        return [float(self.points(s)) for s in range(self.n)]

    def roles(self) -> list[str]:
        return [self.c.characters[i].name for i in self.char]

    # ----- scoring -----------------------------------------------------------------------

    def char_effects(self, seat: int) -> tuple[tuple[int, int, int], ...]:
        return self.c.characters[self.char[seat]].effects

    def char_arg(self, seat: int, code: int) -> tuple[int, int] | None:
        for kind, a, b in self.c.characters[self.char[seat]].effects:
            if kind == code:
                return a, b
        return None

    def own_arg(self, seat: int, code: int) -> tuple[int, int]:
        """`char_arg` of an effect the seat's character has (the action using it was legal)."""
        found = self.char_arg(seat, code)
        if found is None:
            raise ValueError(f"seat {seat}'s character has no effect {code}")
        return found

    def points(self, seat: int) -> int:
        c, effects = self.c, self.char_effects(seat)
        total = sum(bottle_points(c, b, effects, self.triple) for b in self.bottles[seat])
        return total + bonus_points(c, self.hand[seat])

    def regions(self, seat: int) -> int:
        return regions_mask(self.c, self.bottles[seat])

    def meets_goal(self, seat: int) -> bool:
        c = self.c
        return (
            self.regions(seat).bit_count() >= c.goal_regions and self.points(seat) >= c.goal_points
        )

    # ----- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PH_PATH:
            return [OP_PATH << SHIFT | i for i in range(len(self.paths))]
        if phase == PH_CHOICE:
            return [OP_CHOOSE << SHIFT | i for i in range(len(self.opts))]
        if phase == PH_START:
            return self._start_actions()
        if phase == PH_ACT:
            return self._act_actions()
        if phase == PH_HELP:
            return self._help_actions()
        if phase == PH_JUMP:
            return [OP_JUMP << SHIFT, OP_PASS << SHIFT | 1]
        if phase == PH_END:
            late = sp.playable_late(self, self.cur)
            return [OP_PASS << SHIFT | END_NOW, *(OP_CARD << SHIFT | t for t in late)]
        return []

    def _start_actions(self) -> list[int]:
        c, p = self.c, self.cur
        out = [ROLL]
        here = self.pos[p]
        kind = c.kind[here]
        banned = self._banned(p)
        if self.turn_start:
            if self.placed[p] and kind == K_DIST and not banned and self._diffs(p, here):
                out.append(OP_HERE << SHIFT)
            if kind == K_PORT:
                out.extend(OP_FERRY << SHIFT | i for i in range(len(c.ferries[here])))
            if kind == K_AIR:
                out.extend(self._book_actions(p))
        if self.hand[p]:
            out.extend(OP_CARD << SHIFT | t for t in sp.playable_now(self, p))
        if not self.spill_done:
            spill = self.char_arg(p, C_SPILL)
            if spill is not None:
                per = spill[0]
                for q in range(self.n):
                    if q != p and self.bottles[q] and self.spilled[p * self.n + q] < per:
                        out.append(OP_SPILL << SHIFT | q)
        return out

    def _book_actions(self, p: int) -> list[int]:
        c = self.c
        here = self.pos[p]
        out: list[int] = []
        seen = set()
        for t in self.hand[p]:
            if c.specials[t].kind == S_FLIGHT and t not in seen:
                seen.add(t)
                out.extend(OP_BOOK << SHIFT | (t << 4) | i for i, _ in enumerate(c.flights[here]))
        for i, code in enumerate(self.returns_to[p]):
            if (code & MASK) != here:
                out.append(OP_BOOK << SHIFT | (1 << 11) | i)
        return out

    def _act_actions(self) -> list[int]:
        c, p = self.c, self.cur
        here = self.pos[p]
        kind = c.kind[here]
        out: list[int] = []
        if kind == K_DIST:
            out = self._diff_actions(p, here)
        elif kind == K_LOST:
            if self._can_buy(p):
                out.append(OP_BUY << SHIFT)
        elif kind == K_PUB:
            out = self._pub_actions(p)
        elif kind == K_AIR:
            out = self._book_actions(p)
        if self.hand[p]:  # a held card on arrival, before acting (Coffey before buying)
            out.extend(OP_CARD << SHIFT | t for t in sp.playable_late(self, p))
        out.append(OP_PASS << SHIFT | 1)
        if self.moves_left > 1 and not self.traded:
            out.append(OP_PASS << SHIFT)
        return out

    def _diff_actions(self, p: int, here: int) -> list[int]:
        out = [OP_DIFF << SHIFT | v for v in self._diffs(p, here)]
        if any(self.c.specials[t].kind == S_CALL for t in self.hand[p]):
            out.extend(OP_DIFF << SHIFT | 8 | v for v in self._call_diffs(p, here))
        return out

    def _diffs(self, p: int, space: int) -> list[int]:
        """Open difficulties at a distillery (C19): its bottle is there, the player owns
        nothing from it, their latest question was elsewhere, and the pile has cards."""
        c = self.c
        d = c.space_dist[space]
        if d < 0 or self.last_q[p] == d or not self._may_own(p, d):
            return []
        per = c.bottles_per_distillery
        return [
            v for v in range(len(c.bottle_values)) if self.avail[d * per + v] and c.questions[v]
        ]

    def _call_diffs(self, p: int, space: int) -> list[int]:
        """Robbie MacPherson: a difficulty is open if any distillery the player may own
        holds that value (the question is still asked here)."""
        c = self.c
        d = c.space_dist[space]
        if d < 0 or self.last_q[p] == d:
            return []
        return [
            v for v in range(len(c.bottle_values)) if c.questions[v] and self._call_targets(p, v)
        ]

    def _call_targets(self, p: int, v: int) -> list[int]:
        per = self.c.bottles_per_distillery
        return [
            d * per + v
            for d in range(len(self.c.dist_space))
            if self.avail[d * per + v] and self._may_own(p, d)
        ]

    def _may_own(self, p: int, d: int) -> bool:
        per = self.c.bottles_per_distillery
        return all(b >= LOST or b // per != d for b in self.bottles[p])

    def _can_buy(self, p: int) -> bool:
        if not self.lost_pile:
            return False
        cost = self.c.lost_cost
        tok = self.tokens[3 * p : 3 * p + 3]
        if self.char_arg(p, C_WILD) is not None:
            return sum(tok) >= sum(cost)
        return all(tok[k] >= cost[k] for k in range(3))

    def _pub_actions(self, p: int) -> list[int]:
        c = self.c
        tok = self.tokens[3 * p : 3 * p + 3]
        if sum(tok) < c.pub_in:
            return []
        out = []
        for give in range(3):
            if not tok[give]:
                continue
            for get in range(3):
                if get != give and self.bag[get]:
                    out.append(OP_PUB << SHIFT | give * 3 + get)
        return out

    def _help_actions(self) -> list[int]:
        p = self.cur
        out = [OP_HELP << SHIFT | H_FAIL]
        if not self.helper_used:
            kinds = {self.c.specials[t].kind for t in self.hand[p]}
            if S_FIFTY in kinds:
                out.append(OP_HELP << SHIFT | H_FIFTY)
            if S_WRITER in kinds:
                out.append(OP_HELP << SHIFT | H_WRITER)
            if self.char_arg(p, C_RESCUE) is not None:
                out.append(OP_HELP << SHIFT | H_RESCUE)
        if self.newq_left > 0 and self.char_arg(p, C_NEWQ) is not None:
            out.append(OP_HELP << SHIFT | H_NEWQ)
        return out

    # ----- apply -------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        op, arg = action >> SHIFT, action & MASK
        if op == OP_PATH:
            self._take_path(arg)
        elif op == OP_ROLL:
            self._roll()
        elif op == OP_CHOOSE:
            self._choose(arg)
        elif op == OP_DIFF:
            self._ask(arg & 7, bool(arg & 8))
        elif op == OP_PASS:
            if arg == END_NOW:
                self._finish_turn()
            elif arg == 1 or self.traded:
                self._end_turn()
            else:
                self._end_move()
        elif op == OP_HELP:
            self._help(arg)
        elif op == OP_BUY:
            self._buy()
        elif op == OP_PUB:
            self._pub(arg // 3, arg % 3)
        elif op == OP_BOOK:
            self._book(arg)
        elif op == OP_FERRY:
            self._ferry(arg)
        elif op == OP_CARD:
            resume = {PH_END: R_END_TURN, PH_ACT: R_ACT}.get(self.phase, R_START)
            sp.play(self, self.cur, arg, resume)
        elif op == OP_SPILL:
            self._spill(arg)
        elif op == OP_HERE:
            self.turn_start = False
            self._arrive_distillery()
        elif op == OP_JUMP:
            p = self.cur
            self.place(p, self.own_arg(p, C_JUMP)[1])
            self._end_turn()
        else:
            raise ValueError(f"unknown action {action}")
        self.drain()

    def drain(self) -> None:
        """Start the turns that follow, as long as they need no decision."""
        while self.begin_next and not self.over:
            self.begin_next = False
            self._begin_turn()

    # ----- turn flow ---------------------------------------------------------------------

    def _begin_turn(self) -> None:
        """Start the current seat's turn: skips, sea, flight, Prohibition (C14, C15)."""
        c = self.c
        while True:
            p = self.cur
            self.turns += 1
            if self.skips[p] > 0:
                self.skips[p] -= 1
                self.events[EV_SKIP] += 1
                self.stats[p][13] += 1
                if self._next_seat():
                    return
                continue
            break
        self.turn_start = True
        self.spill_done = False
        self.traded = False
        self.newq_left = 0
        newq = self.char_arg(p, C_NEWQ)
        if newq is not None:
            self.newq_left = newq[1]
        if self.at_sea[p] >= 0:  # the turn after stepping on the sea: land, play on
            self.pos[p] = self.at_sea[p]
            self.at_sea[p] = -1
            self.events[EV_SEA] += 1
        elif self.booked[p] >= 0:
            self._fly(p)
        for t in self.front[p]:
            if c.specials[t].kind == S_PROHIBITION:
                card = c.specials[t]
                for _ in range(card.a):
                    if self.rng.randint(1, c.die_sides) == card.b:
                        self.front[p].remove(t)
                        self.discard.append(t)
                        break
                else:
                    self.events[EV_PROHIB] += 1
                    self.stats[p][12] += 1
                break
        here = self.pos[p]
        self.moves_left = 1
        extra = self.char_arg(p, C_EXTRA)
        if extra is not None and extra[0] == c.country[here]:
            self.moves_left = extra[1]
        self._start_move()

    def _start_move(self) -> None:
        self.phase = PH_START
        if len(self._start_actions()) == 1:
            self._roll()

    def _banned(self, p: int) -> bool:
        specials = self.c.specials
        return any(specials[t].kind == S_PROHIBITION for t in self.front[p])

    def _roll(self) -> None:
        """One move's value in the order of C10, then the ways it can end."""
        c, p, rng = self.c, self.cur, self.rng
        sides, reroll = c.die_sides, c.reroll_face
        hang = -1
        for t in self.front[p]:
            if c.specials[t].kind == S_HANGOVER:
                hang = t
                break
        if hang >= 0:
            card = c.specials[hang]
            face = rng.randint(1, sides)
            if face == card.b:
                self.front[p].remove(hang)
                self.discard.append(hang)
                self._end_turn()
                return
            if face <= card.c:
                self.events[EV_HANG] += 1
                self.stats[p][11] += 1
                self._end_move()
                return
            steps = face - card.a
        else:
            steps = face = rng.randint(1, sides)
            while face == reroll:
                face = rng.randint(1, sides)
                steps += face
        self._move(steps, modify=True)

    def _move(self, steps: int, modify: bool) -> None:
        c, p = self.c, self.cur
        self.turn_start = False
        here = self.pos[p]
        if modify:
            bonus = self.char_arg(p, C_BONUS)
            if bonus is not None and bonus[0] == c.country[here]:
                steps += bonus[1]
            for t in self.front[p]:
                if c.specials[t].kind == S_TRUCK:
                    steps *= c.specials[t].a
            for t in self.front[p]:
                if c.specials[t].kind == S_CARRIAGE:
                    steps += c.specials[t].a
        self.paths = list(outcomes(c, self.g._paths, here, steps, self._banned(p)))
        if len(self.paths) == 1:
            self._take_path(0)
        else:
            self.phase = PH_PATH

    def _take_path(self, i: int) -> None:
        end, tokens, draws = self.paths[i]
        p = self.cur
        self.pos[p] = end
        self.placed[p] = False
        for _ in range(tokens):
            self.gain_token(p)
        if draws:
            if sp.draw(self, p, R_END_MOVE):
                return  # a choice is pending; it resumes the move's end
            if self.over or self.cur != p or self.phase == PH_CHOICE:
                return
            self._end_move()
            return
        self._arrive()

    def _arrive(self) -> None:
        """End of a move on its space: resolve a destination (A9, A13, A14, A8)."""
        c, p = self.c, self.cur
        here = self.pos[p]
        kind = c.kind[here]
        if self._banned(p) and kind in BANNED:
            self._end_move()
            return
        if kind == K_DIST:
            self._arrive_distillery()
            return
        if kind == K_PORT and self.moves_left > 1:
            self.phase = PH_ACT
            return
        if kind in (K_LOST, K_PUB, K_AIR) and len(self._act_actions()) > 1 + (self.moves_left > 1):
            self.phase = PH_ACT
            return
        self._end_move()

    def _arrive_distillery(self) -> None:
        p = self.cur
        if self._diff_actions(p, self.pos[p]):
            self.phase = PH_ACT
        else:
            self._end_move()

    def _end_move(self) -> None:
        self.moves_left -= 1
        if self.moves_left > 0 and not self.over:
            self._start_move()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Before the turn ends, held cards may still be played ("any time in your own turn":
        after an arrival or a question too); then the turn is over."""
        p = self.cur
        if self.hand[p] and not self.over and sp.playable_late(self, p):
            self.phase = PH_END
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        """Declare if the goal is met (C1); then the next seat, or the reveal."""
        p = self.cur
        if self.meets_goal(p) and p not in self.met:
            self.met.append(p)
            if self.declarer < 0:
                self.declarer = p
                self.events[EV_DECL] += 1
        if not self._next_seat():
            self.begin_next = True  # started by apply's loop: no recursion turn to turn

    def _next_seat(self) -> bool:
        """Advance the seat; True when the game ended (reveal or timeout)."""
        self.cur += 1
        if self.cur < self.n:
            return False
        self.cur = 0
        self.rounds += 1
        if self.declarer >= 0:
            self._reveal()
            if self.over:
                return True
        if self.rounds >= self.c.round_limit:
            self.over = self.timeout = True
            self.phase = PH_OVER
            return True
        return False

    def _reveal(self) -> None:
        """The round is complete: all reveal; among those meeting the goal, most points,
        then more top-valued bottles, then who met it first from the declarer (C1, C2)."""
        met = [s for s in range(self.n) if self.meets_goal(s)]
        if not met:
            self.events[EV_VOID] += 1
            self.declarer = -1
            self.met = []
            return
        c = self.c
        top = max(c.bottle_values)
        order = {s: i for i, s in enumerate(self.met)}
        start = self.declarer

        def key(s: int) -> tuple[int, int, int]:
            fives = sum(1 for b in self.bottles[s] if printed_value(c, b) == top)
            first = order.get(s, len(order) + (s - start) % self.n)
            return (-self.points(s), -fives, first)

        best = min(met, key=key)
        self.winners = [best]
        self.over = True
        self.phase = PH_OVER

    # ----- distillery --------------------------------------------------------------------

    def _ask(self, v: int, call: bool) -> None:
        c, p = self.c, self.cur
        d = c.space_dist[self.pos[p]]
        self.q_diff, self.q_dist, self.q_call = v, d, call
        self.tally[self.n][d] += 1
        self.last_q[p] = d
        self.helper_used = False
        self.stats[p][v] += 1
        if call:
            t = next(t for t in self.hand[p] if c.specials[t].kind == S_CALL)
            self.hand[p].remove(t)
            self.discard.append(t)
            self.card_plays[p][t] += 1
            sp.note_play(self)
        self._question()

    def _question(self) -> None:
        """Draw a card of the difficulty (C20) and the answer's chance (C27)."""
        v, p = self.q_diff, self.cur
        if self.piles[v] <= 0:
            self.piles[v] = self.c.questions[v]
            self.events[EV_QRESHUF] += 1
        self.piles[v] -= 1
        self.events[EV_Q] += 1
        if self.rng.random() * 1_000_000 < self.skill[p][v]:
            self._right()
        elif len(self._help_actions()) > 1:
            self.phase = PH_HELP
        else:
            self._after_question()

    def _help(self, h: int) -> None:
        c, p, rng = self.c, self.cur, self.rng
        if h == H_FAIL:
            self._after_question()
            return
        if h == H_NEWQ:
            self.newq_left -= 1
            parity = self.own_arg(p, C_NEWQ)[0]
            if rng.randint(1, c.die_sides) % 2 == (1 if parity else 0):
                self._question()
            elif len(self._help_actions()) > 1:
                self.phase = PH_HELP
            else:
                self._after_question()
            return
        self.helper_used = True
        self.events[EV_HELP] += 1
        if h == H_RESCUE:
            if rng.randint(1, c.die_sides) <= self.own_arg(p, C_RESCUE)[0]:
                self._right()
            else:
                self._after_question()
            return
        kind = S_FIFTY if h == H_FIFTY else S_WRITER
        t = next(t for t in self.hand[p] if c.specials[t].kind == kind)
        self.hand[p].remove(t)
        self.card_plays[p][t] += 1
        sp.note_play(self)
        if kind == S_WRITER:
            self.deck.insert(0, t)  # to the bottom of the special deck
            self._right()
        else:
            self.discard.append(t)
            if rng.random() < 0.5:
                self._right()
            else:
                self._after_question()

    def _right(self) -> None:
        c, p, v = self.c, self.cur, self.q_diff
        self.events[EV_RIGHT] += 1
        self.stats[p][3 + v] += 1
        if self.q_call:
            targets = self._call_targets(p, v)
            if not targets:
                self._after_question()
                return
            self.ask_choice(sp.CH_CALL, p, targets, R_AFTER_Q)
            return
        per = c.bottles_per_distillery
        code = self.q_dist * per + v
        if self.avail[code] and self._may_own(p, self.q_dist):
            self.take_bottle(p, code)
        self._after_question()

    def _after_question(self) -> None:
        """Nick Savage may jump after his question at his distillery; else the turn ends."""
        p = self.cur
        jump = self.char_arg(p, C_JUMP)
        if jump is not None and self.pos[p] == jump[0] and not self.over:
            self.phase = PH_JUMP
            return
        self._end_turn()

    # ----- other destinations ------------------------------------------------------------

    def _buy(self) -> None:
        """Lost distillery (A13, C5): pay into the bag, take the top hidden bottle."""
        c, p = self.c, self.cur
        cost = list(c.lost_cost)
        base = 3 * p
        wild = self.char_arg(p, C_WILD) is not None
        spent = 0
        for k in range(3):
            pay = min(cost[k], self.tokens[base + k])
            self.tokens[base + k] -= pay
            self.bag[k] += pay
            cost[k] -= pay
            spent += pay
        if wild:  # Friar John Cor: any token pays for any kind (B5)
            rest = sum(cost)
            for k in sorted(range(3), key=lambda k: -self.tokens[base + k]):
                pay = min(rest, self.tokens[base + k])
                self.tokens[base + k] -= pay
                self.bag[k] += pay
                rest -= pay
                spent += pay
        self.events[EV_SPENT] += spent
        self.stats[p][7] += spent
        card = self.lost_pile.pop()
        self.bottles[p].append(LOST + card)
        self.events[EV_LOST] += 1
        self.stats[p][9] += 1
        self._end_turn()

    def _pub(self, give: int, get: int) -> None:
        """Pub (A14, C9): hand in pub_in tokens, first of `give`, then of the kinds held
        most; take pub_out of `get` as far as the bag allows."""
        c, p = self.c, self.cur
        base = 3 * p
        need = c.pub_in
        order = [give] + sorted(
            (k for k in range(3) if k != give), key=lambda k: (k == get, -self.tokens[base + k])
        )
        for k in order:
            pay = min(need, self.tokens[base + k])
            self.tokens[base + k] -= pay
            self.bag[k] += pay
            need -= pay
        self.events[EV_SPENT] += c.pub_in
        self.stats[p][7] += c.pub_in
        got = min(c.pub_out, self.bag[get])
        self.bag[get] -= got
        self.tokens[base + get] += got
        self.events[EV_PUB] += 1
        self.traded = True
        if not self._pub_actions(p):
            self._end_turn()

    def _book(self, arg: int) -> None:
        """Hand in a ticket at an airport (A8, C23); the flight is next turn. A return
        ticket is kept after the first flight for a later one back to where it took off."""
        c, p = self.c, self.cur
        here = self.pos[p]
        if arg & (1 << 11):
            code = self.returns_to[p].pop(arg & 0x7FF)
            self.booked[p] = code & MASK
            self.ticket[p] = 2 << 24 | code
        else:
            t, i = arg >> 4, arg & 15
            self.hand[p].remove(t)
            self.card_plays[p][t] += 1
            sp.note_play(self)
            self.booked[p] = c.flights[here][i]
            self.ticket[p] = (1 if c.specials[t].b else 0) << 24 | t << SHIFT | here
        self._end_turn()

    def _fly(self, p: int) -> None:
        c = self.c
        dest = self.booked[p]
        mode, code = self.ticket[p] >> 24, self.ticket[p] & 0xFFFFFF
        self.booked[p] = self.ticket[p] = -1
        self.events[EV_FLIGHT] += 1
        if c.country[dest] != c.country[self.pos[p]]:
            self.leave_country(p)
        if mode == 1:
            self.returns_to[p].append(code)
        else:
            self.discard.append(code >> SHIFT)
        self.pos[p] = dest

    def cancel_booking(self, p: int) -> None:
        """A booked player moved away before flying gets the ticket back (C23)."""
        if self.booked[p] < 0:
            return
        mode, code = self.ticket[p] >> 24, self.ticket[p] & 0xFFFFFF
        self.booked[p] = self.ticket[p] = -1
        if mode == 2:
            self.returns_to[p].append(code)
        else:
            self.hand[p].append(code >> SHIFT)

    def _ferry(self, i: int) -> None:
        """Step onto the sea space (A7, C24); the far port next turn."""
        c, p = self.c, self.cur
        sea, far, leaves = c.ferries[self.pos[p]][i]
        if leaves:
            self.leave_country(p)
        self.pos[p] = sea
        self.at_sea[p] = far
        self.events[EV_FERRY] += 1
        self.tally[self.n + 2][sea] += 1
        self._end_turn()

    def _spill(self, q: int) -> None:
        """Richard Paterson: a uniform bottle of the victim, who shuffled them (C18)."""
        p = self.cur
        self.spill_done = True
        self.spilled[p * self.n + q] += 1
        victim = self.bottles[q]
        code = victim[self.rng.randrange(len(victim))]
        self.return_bottle(q, code)
        self.events[EV_SPILL] += 1
        self._start_move()

    # ----- shared helpers (used by specials) ---------------------------------------------

    def gain_token(self, p: int) -> None:
        """One token drawn blind from the bag (C8, C9)."""
        bag = self.bag
        total = bag[0] + bag[1] + bag[2]
        if total <= 0:
            self.events[EV_EMPTY] += 1
            return
        r = self.rng.randrange(total)
        k = 0 if r < bag[0] else 1 if r < bag[0] + bag[1] else 2
        bag[k] -= 1
        self.tokens[3 * p + k] += 1
        self.events[EV_GAIN] += 1
        self.stats[p][6] += 1

    def take_bottle(self, p: int, code: int) -> None:
        c = self.c
        per = c.bottles_per_distillery
        d = code // per
        region = c.dist_region[d]
        if not self.regions(p) >> region & 1:
            self.tally[p][region] = self.turns
        self.avail[code] = 0
        self.bottles[p].append(code)
        self.events[EV_WON] += 1
        if not any(self.avail[d * per : d * per + per]):
            self.tally[self.n + 1][d] += 1

    def return_bottle(self, p: int, code: int) -> None:
        """A returned or discarded bottle goes back to its distillery, a lost one back into
        the shuffled lost pile (C12)."""
        self.bottles[p].remove(code)
        sp.note_return(self)
        if code >= LOST:
            self.lost_pile.append(code - LOST)
            self.rng.shuffle(self.lost_pile)
            if code in self.revealed:
                self.revealed.remove(code)
        else:
            self.avail[code] = 1

    def place(self, p: int, space: int) -> None:
        """Moved by a card (C16): no tokens, no draw; a distillery may be answered next."""
        c = self.c
        if c.country[space] != c.country[self.pos[p]]:
            self.leave_country(p)
        self.cancel_booking(p)
        self.at_sea[p] = -1
        self.pos[p] = space
        self.placed[p] = True

    def leave_country(self, p: int) -> None:
        """Truck and Carriage are discarded on leaving the country (C13)."""
        specials = self.c.specials
        for t in [t for t in self.front[p] if specials[t].kind in (S_TRUCK, S_CARRIAGE)]:
            self.front[p].remove(t)
            self.discard.append(t)

    def ask_choice(
        self, kind: int, seat: int, options: list[int], resume: int, arg: int = 0
    ) -> None:
        """Hand a choice to `seat`; the caller returns at once (a single option resolves
        now, and the flow resumes from here)."""
        self.phase = PH_CHOICE
        self.choice_kind = kind
        self.choice_seat = seat
        self.choice_arg = arg
        self.opts = options
        self.resume = resume
        if len(options) == 1:
            self._choose(0)

    def _choose(self, i: int) -> None:
        value = self.opts[i]
        kind = self.choice_kind
        if kind == sp.CH_START:
            seat = self.choice_seat
            self.pos[seat] = self.start_space[seat] = value
            if seat + 1 < self.n:
                self.choice_seat = seat + 1
                if len(self.opts) == 1:
                    self._choose(0)
                return
            self.cur = 0
            self._begin_turn()
            return
        resume = self.resume
        if sp.resolve_choice(self, kind, value):
            return  # a further choice is pending
        self.resume_after(resume)

    def resume_after(self, resume: int) -> None:
        if self.over:
            return
        if resume == R_START:
            self._start_move()
        elif resume == R_END_MOVE:
            self._end_move()
        elif resume == R_AFTER_Q:
            self._after_question()
        elif resume == R_END_TURN:
            self._end_turn()
        elif resume == R_ACT:
            self.phase = PH_ACT

    # ----- checks, labels, figures -------------------------------------------------------

    def invariant_errors(self) -> list[str]:
        c = self.c
        errors = []
        held = sum(len(h) for h in self.hand) + sum(len(f) for f in self.front)
        held += sum(len(r) for r in self.returns_to) + sum(1 for t in self.ticket if t >= 0)
        cards = len(self.deck) + len(self.discard) + len(self.removed) + held
        expected = sum(card.copies for card in c.specials if self.ext or not card.extended)
        if cards != expected:
            errors.append(f"special cards: {cards} in play, {expected} expected")
        per = c.bottles_per_distillery
        owned = [b for bs in self.bottles for b in bs]
        if len(set(owned)) != len(owned):
            errors.append("a bottle is owned twice")
        for code in range(len(self.avail)):
            count = self.avail[code] + owned.count(code)
            if count != 1:
                errors.append(f"bottle {code} counted {count} times")
                break
        lost = len(self.lost_pile) + sum(1 for b in owned if b >= LOST)
        if lost != len(c.lost_values):
            errors.append(f"lost bottles: {lost}, expected {len(c.lost_values)}")
        for p in range(self.n):
            for d in range(len(c.dist_space)):
                if sum(1 for b in self.bottles[p] if b < LOST and b // per == d) > 1:
                    errors.append(f"seat {p} owns two bottles of distillery {d}")
        for k in range(3):
            total = self.bag[k] + sum(self.tokens[3 * p + k] for p in range(self.n))
            if total != c.bag[k]:
                errors.append(f"tokens of kind {k}: {total}, bag holds {c.bag[k]}")
        if self.over and not self.timeout and len(self.winners) != 1:
            errors.append("a finished game needs one winner")
        for w in self.winners:
            if not self.meets_goal(w):
                errors.append(f"winner {w} does not meet the goal")
        return errors

    def action_label(self, action: int) -> str:
        op, arg = action >> SHIFT, action & MASK
        names: tuple[str, ...] = ("roll", "path", "difficulty", "pass", "help", "buy", "pub")
        names += ("book", "ferry", "card", "spill", "choose", "answer-here", "jump")
        return f"{names[op]}:{arg}"

    def figures(self) -> dict[str, float | tuple[float, ...]]:
        from toolkit.games.whisky_game.figures import figures

        return figures(self)
