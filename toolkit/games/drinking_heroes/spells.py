"""Playing a spell: each effect kind as the rules say."""

from __future__ import annotations

from toolkit.games.drinking_heroes.base import DrinkingBase
from toolkit.games.drinking_heroes.constants import (
    AFTER_SPELL,
    E_BANISHED,
    E_SPELLS_PLAYED,
    E_STEALS,
    E_STOLEN_LEVELS,
    K_BANISH,
    K_CURSE,
    K_DOUBLE,
    K_EXTRA,
    K_GIVE,
    K_GIVE_ALL,
    K_LOWER,
    K_REROLL,
    K_ROLL,
    K_SET_TYPE,
    K_SHIELD,
    K_STEAL_M,
    K_STEAL_S,
    SRC_SPELL,
)


class Spells(DrinkingBase):
    """Playing a spell: each effect kind as the rules say."""

    __slots__ = ()

    # --- spells --------------------------------------------------------------------------

    def _play_spell(self, action: int) -> None:
        g, tb = self.g, self.tb
        seat = self.cur
        card, target = divmod(action - g.a_spell, g.tw)
        if action not in self.spell_actions(seat):
            raise ValueError(f"illegal action {action}")
        self.hands[seat].remove(card)
        self.spit += 1
        self.events[E_SPELLS_PLAYED] += 1
        self.card_plays[seat][card] += 1
        kind, p = g.s_kind[card], g.s_param[card]
        if kind == K_LOWER:
            self.lower += p
        elif kind == K_SET_TYPE:
            self.eff_type = target
        elif kind == K_EXTRA:
            self.tries_max += p
        elif kind == K_BANISH:
            self.deck.insert(0, self.monster)  # under the deck; draw the next one
            self.monster = self.deck.pop()
            self.events[E_BANISHED] += 1
            if tb.coop:
                self.failed = 0
            self._start_combat_numbers_after_banish()
        elif kind == K_DOUBLE:
            self.dbl = p
        elif kind == K_ROLL:
            self.rb_amt, self.rb_type = p, g.s_type[card]
        elif kind == K_REROLL:
            self.rerolls += p
        elif kind == K_SHIELD:
            if tb.drinking[seat]:
                self.shields += p
            else:
                self.tries_max += p  # R18: a non-drinker's shield is an extra try
        elif kind == K_CURSE:
            self.curse[target] += p
        elif kind == K_GIVE:
            self.queue.append((target, p, SRC_SPELL))
        elif kind == K_GIVE_ALL:
            n = tb.seats
            for k in range(1, n):
                s = (seat + k) % n
                if tb.drinking[s]:
                    self.queue.append((s, p, SRC_SPELL))
        elif kind == K_STEAL_M:
            for s in range(tb.seats):
                if target in self.owned[s]:
                    self.owned[s].remove(target)
                    break
            self.owned[seat].append(target)
            self.events[E_STEALS] += 1
            self.events[E_STOLEN_LEVELS] += g.m_level[target]
        elif kind == K_STEAL_S:
            victim = self.hands[target]
            for _ in range(p):
                if victim:
                    self.hands[seat].append(victim.pop(self.rng.randrange(len(victim))))
                    self.events[E_STEALS] += 1
        self._set_need()
        if self.queue:
            self.resume = AFTER_SPELL
            self._next_pending()
        else:
            self._after_spell_phase()

    def _start_combat_numbers_after_banish(self) -> None:
        """The drawn replacement is fought with fresh printed numbers (no second spell)."""
        g, tb, m = self.g, self.tb, self.monster
        self.eff_type = g.m_type[m]
        tries = g.m_tries[m]
        if not tb.drinking[self.fighter]:
            tries = min(tries, g.nd_cap)
        self.tries_max = tries + tb.coop_extra
