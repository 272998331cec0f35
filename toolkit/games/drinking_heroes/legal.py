"""The spells a seat may play now (R8, R9)."""

from __future__ import annotations

from toolkit.games.drinking_heroes.base import DrinkingBase
from toolkit.games.drinking_heroes.constants import (
    K_BANISH,
    K_CURSE,
    K_GIVE,
    K_GIVE_ALL,
    K_SET_TYPE,
    K_STEAL_M,
    K_STEAL_S,
)


class LegalSpells(DrinkingBase):
    """The spells a seat may play now (R8, R9)."""

    __slots__ = ()

    # --- legal spells (R8, R9) -----------------------------------------------------------

    def spell_actions(self, seat: int) -> list[int]:
        """Every (spell, target) the seat may play now; a spell with no legal target is out."""
        g, tb = self.g, self.tb
        base, tw = g.a_spell, g.tw
        out: list[int] = []
        seen = 0
        for card in self.hands[seat]:
            if seen >> card & 1:
                continue
            seen |= 1 << card
            kind = g.s_kind[card]
            code = base + card * tw
            if kind == K_SET_TYPE:
                out += [code + t for t in range(len(g.type_ids)) if t != self.eff_type]
            elif kind == K_BANISH:
                if self.deck:
                    out.append(code)
            elif kind == K_CURSE:
                out += [code + s for s in range(tb.seats) if s != seat]
            elif kind == K_GIVE:
                out += [code + s for s in range(tb.seats) if s != seat and tb.drinking[s]]
            elif kind == K_GIVE_ALL:
                if any(tb.drinking[s] for s in range(tb.seats) if s != seat):
                    out.append(code)
            elif kind == K_STEAL_M:
                cap, level = g.s_param[card], g.m_level
                for s in range(tb.seats):
                    if s != seat:
                        out += [code + m for m in self.owned[s] if level[m] <= cap]
            elif kind == K_STEAL_S:
                out += [code + s for s in range(tb.seats) if s != seat and self.hands[s]]
            else:
                out.append(code)
        return out

    def eligible(self) -> list[int]:
        """Co-op heroes who have not failed or given up on the current monster (R15)."""
        return [s for s in range(self.tb.seats) if not self.failed >> s & 1]
