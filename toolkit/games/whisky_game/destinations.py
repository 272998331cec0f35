"""The destinations a move resolves: a distillery's question (and help), buying at the lost
distilleries, the pub, booking and flying, ferries, spills."""

from __future__ import annotations

from toolkit.games.whisky_game import specials as sp
from toolkit.games.whisky_game.base import WhiskyBase
from toolkit.games.whisky_game.constants import (
    C_JUMP,
    C_NEWQ,
    C_RESCUE,
    C_WILD,
    EV_FERRY,
    EV_FLIGHT,
    EV_HELP,
    EV_LOST,
    EV_PUB,
    EV_Q,
    EV_QRESHUF,
    EV_RIGHT,
    EV_SPENT,
    EV_SPILL,
    H_FAIL,
    H_FIFTY,
    H_NEWQ,
    H_RESCUE,
    MASK,
    PH_HELP,
    PH_JUMP,
    R_AFTER_Q,
    S_CALL,
    S_FIFTY,
    S_WRITER,
    SHIFT,
)
from toolkit.games.whisky_game.scoring import (
    LOST,
)


class Destinations(WhiskyBase):
    """The destinations a move resolves: a distillery's question (and help), buying at the lost"""

    __slots__ = ()

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
