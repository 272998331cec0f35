"""Sips (F14, R6, R7): who drinks, shields, and what is left to settle."""

from __future__ import annotations

from toolkit.games.drinking_heroes.base import DrinkingBase
from toolkit.games.drinking_heroes.constants import (
    A_DRINK,
    AFTER_TRY,
    E_SACRIFICED,
    E_SACRIFICED_LEVELS,
    E_SIPS,
    E_SIPS_PEOPLE,
    E_SIPS_REFUSED,
    E_SIPS_SPELLS,
    E_SIPS_TRIES,
    PH_SIPS,
    SRC_TRY,
)


class Sips(DrinkingBase):
    """Sips (F14, R6, R7): who drinks, shields, and what is left to settle."""

    __slots__ = ()

    # --- sips (F14, R6, R7) --------------------------------------------------------------

    def _can_sacrifice(self, seat: int) -> bool:
        return not self.tb.coop and bool(self.owned[seat])

    def _drink(self, seat: int, amount: int, src: int) -> None:
        self.sips[seat] += amount
        ev = self.events
        ev[E_SIPS] += amount
        ev[E_SIPS_PEOPLE] += amount * self.tb.drinkers[seat]
        ev[E_SIPS_TRIES if src == SRC_TRY else E_SIPS_SPELLS] += amount

    def _next_pending(self) -> None:
        """Settle queued sips in order; stop at the first seat that has a choice."""
        while self.queue:
            seat, amount, src = self.queue[0]
            if self._can_sacrifice(seat):
                self.phase = PH_SIPS
                self.cur = seat
                return
            self.queue.pop(0)
            self._drink(seat, amount, src)
        if self.resume == AFTER_TRY:
            self._after_try()
        else:
            self._after_spell_phase()

    def _settle(self, action: int) -> None:
        seat, amount, src = self.queue.pop(0)
        if action == A_DRINK:
            self._drink(seat, amount, src)
        else:
            m = action - self.g.a_sacrifice
            if m not in self.owned[seat]:
                raise ValueError(f"illegal action {action}")
            self.owned[seat].remove(m)
            self.mark[m] = 1  # R7: out of the game, its mark lost
            self.gone.append(m)
            ev = self.events
            ev[E_SACRIFICED] += 1
            ev[E_SACRIFICED_LEVELS] += self.g.m_level[m]
            ev[E_SIPS_REFUSED] += amount
        self._next_pending()
