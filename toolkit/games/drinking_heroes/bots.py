"""Drinking Heroes bots (design §5): `careful` (registered as `greedy`) and `brave`.

Careful fights and continues while `points × P(kill from here) ≥ λ × E[sips from here]`
(λ = 0.5); brave always fights to the last try. Both play the monster/self spell that most
raises their fight value on monsters of level ≥ 3, aim hostile spells at the leader, and
refuse sips by sacrificing their lowest monster when the sips reach 3 × its value. In co-op
both fight to the last try; the table sends the hero with the best kill chance (R15).
Odds are exact per try and summed over the remaining tries: no search, so bots are fast.
"""

from __future__ import annotations

import random

from toolkit.games.drinking_heroes.constants import (
    A_CONTINUE,
    A_DRINK,
    A_FIGHT,
    A_GIVE_UP,
    A_NONE,
    A_REFUSE,
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
    PH_CHOOSE,
    PH_DECIDE,
    PH_GO,
    PH_SIPS,
    PH_SPELL,
)
from toolkit.games.drinking_heroes.state import DrinkingState

FIGHT_KINDS = frozenset((K_LOWER, K_SET_TYPE, K_EXTRA, K_DOUBLE, K_ROLL, K_REROLL, K_SHIELD))
# Hostile spells in the order a bot prefers them (ties inside a kind: larger parameter first).
HOSTILE_ORDER = {K_STEAL_M: 0, K_GIVE: 1, K_STEAL_S: 2, K_CURSE: 3, K_GIVE_ALL: 4}


def fight_odds(
    p: float, sips: float, tries: int, rerolls: int, shields: int, drinks: bool
) -> tuple[float, float]:
    """(P(kill), E[sips]) fighting every remaining try; a reroll saves the first failed dice,
    a shield cancels the first failed tries' sips (design 3.1 formulas, with spells)."""
    alive, kill, cost = 1.0, 0.0, 0.0
    q = 1.0 - p
    for _ in range(tries):
        if rerolls > 0:
            rerolls -= 1
            pk, es, pf = p + q * p, q * sips, q * q
        else:
            pk, es, pf = p, sips, q
        kill += alive * pk
        if shields > 0:
            shields -= 1
        elif drinks:
            cost += alive * es
        alive *= pf
    return kill, cost


class CarefulBot:
    """The spec's `careful` bot; `greedy` in the registry."""

    name = "greedy"

    def __init__(
        self,
        lam: float = 0.5,
        sacrifice_ratio: float = 3.0,
        spell_level: int = 3,
        coop_spell_below: float = 0.9,
        brave: bool = False,
    ) -> None:
        self.lam = lam
        self.sacrifice_ratio = sacrifice_ratio
        self.spell_level = spell_level
        self.coop_spell_below = coop_spell_below
        self.brave = brave

    # --- the decision --------------------------------------------------------------------

    def choose(self, state: DrinkingState, rng: random.Random) -> int:
        ph = state.phase
        if ph == PH_DECIDE:
            return A_FIGHT if self.brave or self._worth_now(state) else A_REFUSE
        if ph == PH_GO:
            if self.brave or state.tb.coop or self._worth_now(state):
                return A_CONTINUE
            return A_GIVE_UP
        if ph == PH_SIPS:
            return self._sips(state)
        if ph == PH_CHOOSE:
            return self._choose_fighter(state)
        if ph == PH_SPELL:
            return self._spell(state)
        actions = state.legal_actions()
        return actions[0]

    # --- fight value ---------------------------------------------------------------------

    def _worth_now(self, state: DrinkingState) -> bool:
        """Keep fighting while points × P ≥ λ × E[sips], with the combat's live numbers."""
        g, m, seat = state.g, state.monster, state.fighter
        p, sips = g.odds(m, state.need)
        kill, cost = fight_odds(
            p,
            sips,
            state.tries_max - state.tries_used,
            state.rerolls,
            state.shields,
            state.tb.drinking[seat],
        )
        return g.m_level[m] * state.dbl * kill >= self.lam * cost

    def _combat(
        self, state: DrinkingState, seat: int, m: int, card: int, target: int
    ) -> tuple[float, float, int]:
        """(P(kill), E[sips], points) of a fresh combat of `seat` against `m`, after playing
        spell `card` (-1: none) at `target`."""
        g, tb = state.g, state.tb
        etype = g.m_type[m]
        lower = extra = rerolls = shields = rb = 0
        dbl, rbt = 1, -1
        drinks = tb.drinking[seat]
        if card >= 0:
            kind, p = g.s_kind[card], g.s_param[card]
            if kind == K_SET_TYPE:
                etype = target
            elif kind == K_LOWER:
                lower = p
            elif kind == K_EXTRA:
                extra = p
            elif kind == K_DOUBLE:
                dbl = p
            elif kind == K_ROLL:
                rb, rbt = p, g.s_type[card]
            elif kind == K_REROLL:
                rerolls = p
            elif kind == K_SHIELD:
                if drinks:
                    shields = p
                else:
                    extra = p
        need = g.m_kill[m] - lower - g.bonus[state.hero[seat]][etype] - state.curse[seat]
        if rbt == etype:
            need -= rb
        tries = g.m_tries[m]
        if not drinks:
            tries = min(tries, g.nd_cap)
        tries += tb.coop_extra + extra
        p_try, sips = g.odds(m, need)
        kill, cost = fight_odds(p_try, sips, tries, rerolls, shields, drinks)
        return kill, cost, g.m_level[m] * dbl

    def _value(self, state: DrinkingState, seat: int, m: int, card: int, target: int) -> float:
        """What a bot maximises: co-op P(kill); competitive the careful value (≥ 0, since
        refusing is free; brave fights anyway, so its value may be negative)."""
        kill, cost, points = self._combat(state, seat, m, card, target)
        if state.tb.coop:
            return kill
        value = points * kill - self.lam * cost
        return value if self.brave else max(0.0, value)

    # --- spell phase ---------------------------------------------------------------------

    def _spell(self, state: DrinkingState) -> int:
        g = state.g
        seat, m = state.cur, state.monster
        actions = state.legal_actions()
        if g.m_level[m] >= self.spell_level:
            base = self._value(state, seat, m, -1, 0)
            if not state.tb.coop or base < self.coop_spell_below:
                best, best_gain = A_NONE, 1e-9
                banish_value = -1.0
                for action in actions:
                    if action == A_NONE:
                        continue
                    card, target = divmod(action - g.a_spell, g.tw)
                    kind = g.s_kind[card]
                    if kind in FIGHT_KINDS:
                        gain = self._value(state, seat, m, card, target) - base
                    elif kind == K_BANISH:
                        if banish_value < 0:
                            deck = state.deck
                            banish_value = sum(
                                self._value(state, seat, x, -1, 0) for x in deck
                            ) / len(deck)
                        gain = banish_value - base
                    else:
                        continue
                    if gain > best_gain:
                        best, best_gain = action, gain
                if best != A_NONE:
                    return best
        if not state.tb.coop:
            hostile = self._hostile(state, seat, actions)
            if hostile != A_NONE:
                return hostile
        return A_NONE

    def _hostile(self, state: DrinkingState, seat: int, actions: list[int]) -> int:
        """The preferred hostile spell, aimed at the leader when it is a legal target."""
        g = state.g
        n = state.tb.seats
        scores = [state.score(s) for s in range(n)]
        order = [(seat + k) % n for k in range(1, n)]
        leader = max(order, key=lambda s: scores[s])  # first in clockwise order on ties
        best, best_key = A_NONE, None
        for action in actions:
            if action == A_NONE:
                continue
            card, target = divmod(action - g.a_spell, g.tw)
            kind = g.s_kind[card]
            rank = HOSTILE_ORDER.get(kind)
            if rank is None:
                continue
            if kind == K_STEAL_M:
                owner = next(s for s in range(n) if target in state.owned[s])
                aim = (owner == leader, g.m_level[target] * state.mark[target], scores[owner])
            elif kind == K_GIVE_ALL:
                aim = (True, 0, 0)
            else:
                aim = (target == leader, scores[target], -order.index(target))
            key = (-rank, g.s_param[card] * (1 if kind != K_CURSE else -1), *aim)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best

    # --- sips and co-op choice -----------------------------------------------------------

    def _sips(self, state: DrinkingState) -> int:
        """Sacrifice the cheapest monster (value, then lowest id) when sips ≥ ratio × value."""
        g = state.g
        seat = state.cur
        amount = state.queue[0][1]
        owned = state.owned[seat]
        cheapest = min(owned, key=lambda x: (g.m_level[x] * state.mark[x], g.m_rank[x]))
        if amount >= self.sacrifice_ratio * g.m_level[cheapest] * state.mark[cheapest]:
            return g.a_sacrifice + cheapest
        return A_DRINK

    def _choose_fighter(self, state: DrinkingState) -> int:
        """R15: best kill chance (bonus + best spell in hand), ties clockwise from the last
        fighter."""
        g, m = state.g, state.monster
        n = state.tb.seats
        best, best_p = -1, -1.0
        for k in range(1, n + 1):
            seat = (state.last_fighter + k) % n
            if state.failed >> seat & 1:
                continue
            chance = self._combat(state, seat, m, -1, 0)[0]
            for card in set(state.hands[seat]):
                kind = g.s_kind[card]
                if kind == K_SET_TYPE:
                    for t in range(len(g.type_ids)):
                        chance = max(chance, self._combat(state, seat, m, card, t)[0])
                elif kind in FIGHT_KINDS:
                    chance = max(chance, self._combat(state, seat, m, card, 0)[0])
            if chance > best_p + 1e-12:
                best, best_p = seat, chance
        return g.a_choose + best


class BraveBot(CarefulBot):
    """Always fights to the last try; same spell and sacrifice habits as careful."""

    name = "brave"

    def __init__(self) -> None:
        super().__init__(brave=True)
