"""The turn flow: the decisions of a fight, the tries, passing the turn, the end."""

from __future__ import annotations

from toolkit.games.drinking_heroes.base import DrinkingBase
from toolkit.games.drinking_heroes.constants import (
    A_NONE,
    AFTER_TRY,
    E_COOP_ATTEMPTS,
    E_COOP_LOST,
    E_COOP_WON,
    E_DOUBLE_SCORED,
    E_FAILED_MAX,
    E_FIGHTS,
    E_KILLED,
    E_LEVELS,
    E_REFUSED,
    E_REROLLS,
    E_SEAT_TURNS,
    E_SHARED_WINS,
    E_SIPS_SHIELDED,
    E_SPELLS_DRAWN,
    E_TIE_BREAKS,
    E_TRIES,
    PH_CHOOSE,
    PH_DECIDE,
    PH_END,
    PH_GO,
    PH_SPELL,
    SRC_TRY,
)


class TurnFlow(DrinkingBase):
    """The turn flow: the decisions of a fight, the tries, passing the turn, the end."""

    __slots__ = ()

    # --- turn flow -----------------------------------------------------------------------

    def _start_turn(self) -> None:
        """Draw the next monster (F8); competitive: the active seat's spell phase."""
        m = self.deck.pop()
        self.monster = m
        self.events[E_SEAT_TURNS] += 1
        if self.tb.coop:
            self.failed = 0
            self._choose_or_start()
        else:
            self._start_combat(self.active)

    def _choose_or_start(self) -> None:
        free = self.eligible()
        if len(free) == 1:
            self._start_combat(free[0])
        else:
            self.phase = PH_CHOOSE
            self.cur = (self.last_fighter + 1) % self.tb.seats

    def _start_combat(self, seat: int) -> None:
        """Fresh combat numbers for `seat` against the current monster, then its spell phase."""
        g, tb, m = self.g, self.tb, self.monster
        self.fighter = self.cur = seat
        self.eff_type = g.m_type[m]
        self.lower = self.rerolls = self.shields = self.rb_amt = self.tries_used = 0
        self.rb_type = -1
        self.dbl = 1
        tries = g.m_tries[m]
        if not tb.drinking[seat]:
            tries = min(tries, g.nd_cap)  # R18: the cap, before the extras
        self.tries_max = tries + tb.coop_extra
        if tb.coop:
            self.last_fighter = seat
            self.events[E_COOP_ATTEMPTS] += 1
        self._set_need()
        playable = self.spell_actions(seat) if self.hands[seat] else None
        if playable:
            self.phase = PH_SPELL
            self.legal = [A_NONE, *playable]  # apply() reset the cache before this point
        else:
            self._after_spell_phase()

    def _set_need(self) -> None:
        """The smallest face that kills now (R2): target minus every modifier."""
        g, f = self.g, self.fighter
        t = self.eff_type
        need = g.m_kill[self.monster] - self.lower - g.bonus[self.hero[f]][t] - self.curse[f]
        if self.rb_type == t:
            need -= self.rb_amt
        self.need = need

    def _after_spell_phase(self) -> None:
        if self.tb.coop:
            self.events[E_FIGHTS] += 1
            self._try()
        else:
            self.phase = PH_DECIDE
            self.cur = self.active

    def _refuse(self) -> None:
        m = self.monster
        self.events[E_REFUSED] += 1
        self.events[E_LEVELS + 3 * self.g.level_index[self.g.m_level[m]] + 1] += 1
        self.pit.append(m)
        self._end_turn()

    def _try(self) -> None:
        """One roll (R5): kill, or sips for the natural face, settled before continuing."""
        g = self.g
        rng = self.rng
        self.tries_used += 1
        self.events[E_TRIES] += 1
        sides, need, kf, ff = g.sides, self.need, g.kill_face, g.fail_face
        face = int(rng.random() * sides) + 1
        if face != kf and (face == ff or face < need) and self.rerolls > 0:
            self.rerolls -= 1
            self.events[E_REROLLS] += 1
            face = int(rng.random() * sides) + 1
        if face == kf or (face != ff and face >= need):
            self._kill()
            return
        seat = self.fighter
        amount = g.m_sips[self.monster][face]
        if amount and self.tb.drinking[seat]:
            if self.shields > 0:
                self.shields -= 1
                self.events[E_SIPS_SHIELDED] += amount
            elif self._can_sacrifice(seat):
                self.queue.append((seat, amount, SRC_TRY))
                self.resume = AFTER_TRY
                self._next_pending()
                return
            else:
                self._drink(seat, amount, SRC_TRY)
        self._after_try()

    def _after_try(self) -> None:
        if self.tries_used < self.tries_max:
            self.phase = PH_GO
            self.cur = self.fighter
        else:
            self.events[E_FAILED_MAX] += 1
            self._combat_lost()

    def _kill(self) -> None:
        g, m, seat = self.g, self.monster, self.fighter
        level = g.m_level[m]
        self.events[E_KILLED] += 1
        self.events[E_LEVELS + 3 * g.level_index[level]] += 1
        if self.tb.coop:
            self.pit.append(m)  # F16: shared kills go to the Pit
            self.coop_levels[seat] += level
        else:
            self.owned[seat].append(m)
            if self.dbl > 1:
                self.mark[m] = self.dbl
        for _ in range(g.spells_per_kill):  # F12, R10
            if self.sdeck:
                self.hands[seat].append(self.sdeck.pop())
                self.events[E_SPELLS_DRAWN] += 1
        self._end_turn()

    def _combat_lost(self) -> None:
        """Gave up or failed every try (F13); co-op: another hero may try (F16)."""
        m = self.monster
        if self.tb.coop:
            self.failed |= 1 << self.fighter
            if self.eligible():
                self._choose_or_start()
                return
            self.events[E_LEVELS + 3 * self.g.level_index[self.g.m_level[m]] + 2] += 1
            self.events[E_COOP_LOST] += 1
            self.pit.append(m)
            self.monster = -1
            self.won = 0
            self.phase = PH_END
            return
        self.pit.append(m)
        self._end_turn()

    def _end_turn(self) -> None:
        """R11: the game ends once the turn that drew the last monster is over."""
        self.curse[self.active] = 0  # a curse lasts until the end of its target's next turn
        self.monster = self.fighter = -1
        n = self.tb.seats
        if not self.deck:
            self.phase = PH_END
            self.rounds = self.events[E_SEAT_TURNS] // n
            self._finish()
            return
        self.active = (self.active + 1) % n
        if self.active == 0:
            self.rounds += 1
        self._start_turn()

    def _finish(self) -> None:
        if self.tb.coop:
            self.won = 1
            self.events[E_COOP_WON] += 1
            return
        n = self.tb.seats
        for s in range(n):
            for m in self.owned[s]:
                if self.mark[m] > 1:
                    self.events[E_DOUBLE_SCORED] += 1
        scores = [self.score(s) for s in range(n)]
        top = max(scores)
        keys = [self._rank_key(s) for s in range(n) if scores[s] == top]
        if len(keys) > 1:
            if keys.count(max(keys)) > 1:
                self.events[E_SHARED_WINS] += 1
            else:
                self.events[E_TIE_BREAKS] += 1
