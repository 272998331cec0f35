"""The turn flow: beginning a turn, rolling and moving, arriving, ending the move and the turn,
passing to the next seat, revealing the winners."""

from __future__ import annotations

from toolkit.games.whisky_game import specials as sp
from toolkit.games.whisky_game.base import WhiskyBase
from toolkit.games.whisky_game.constants import (
    C_BONUS,
    C_EXTRA,
    C_NEWQ,
    EV_DECL,
    EV_HANG,
    EV_PROHIB,
    EV_SEA,
    EV_SKIP,
    EV_VOID,
    K_AIR,
    K_DIST,
    K_LOST,
    K_PORT,
    K_PUB,
    PH_ACT,
    PH_CHOICE,
    PH_END,
    PH_OVER,
    PH_PATH,
    PH_START,
    R_END_MOVE,
    S_CARRIAGE,
    S_HANGOVER,
    S_PROHIBITION,
    S_TRUCK,
)
from toolkit.games.whisky_game.moves import BANNED, outcomes
from toolkit.games.whisky_game.scoring import (
    printed_value,
)


class TurnFlow(WhiskyBase):
    """The turn flow: a turn begins, a move is rolled and taken, a seat arrives, the turn ends."""

    __slots__ = ()

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
