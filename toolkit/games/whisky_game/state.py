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

from toolkit.api import TERMINAL, GameSetup
from toolkit.games.whisky_game import specials as sp
from toolkit.games.whisky_game.constants import (
    C_JUMP,
    END_NOW,
    EV_EMPTY,
    EV_GAIN,
    EV_WON,
    EVENT_NAMES,
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
    R_ACT,
    R_AFTER_Q,
    R_END_MOVE,
    R_END_TURN,
    R_SETUP,
    R_START,
    S_CARRIAGE,
    S_TRUCK,
    SHIFT,
    Content,
)
from toolkit.games.whisky_game.destinations import Destinations
from toolkit.games.whisky_game.legal import LegalActions
from toolkit.games.whisky_game.scoring import (
    LOST,
)
from toolkit.games.whisky_game.tables import WhiskyTables
from toolkit.games.whisky_game.turns import TurnFlow


def _skill(c: Content, options: dict[str, bool | int | str], seat: int) -> tuple[int, ...]:
    """P(right) per difficulty for a seat: option `skill_<seat>` (1-based) when it names a
    preset, else the table's `skill` (C27)."""
    own = options.get(f"skill_{seat + 1}", "table")
    name = own if own in c.skills else options.get("skill", "default")
    if name not in c.skills:
        name = next(iter(c.skills))
    return c.skills[str(name)]


class WhiskyState(LegalActions, TurnFlow, Destinations):
    """One game in progress: its setup, the engine contract, applying an action, the helpers
    the special cards use, and its checks; each phase's moves come from its mixin."""

    __slots__ = ()

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
        """Cards, bottles and tokens conserved; one bottle per distillery per seat; a finished
        game's winner meets the goal. Asked after every move by the random-play contract: each
        count is one pass over its list (a `count()` per bottle code and a scan per seat and
        distillery made it three quarters of a random game's time)."""
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
        times: dict[int, int] = {}
        for b in owned:
            times[b] = times.get(b, 0) + 1
        if len(times) != len(owned):
            errors.append("a bottle is owned twice")
        for code, there in enumerate(self.avail):
            count = there + times.get(code, 0)
            if count != 1:
                errors.append(f"bottle {code} counted {count} times")
                break
        lost = len(self.lost_pile) + sum(1 for b in owned if b >= LOST)
        if lost != len(c.lost_values):
            errors.append(f"lost bottles: {lost}, expected {len(c.lost_values)}")
        distilleries = len(c.dist_space)
        for p in range(self.n):
            seen: set[int] = set()
            twice: set[int] = set()
            for b in self.bottles[p]:
                if b < LOST:
                    d = b // per
                    (twice if d in seen else seen).add(d)
            for d in sorted(twice):
                if 0 <= d < distilleries:
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
