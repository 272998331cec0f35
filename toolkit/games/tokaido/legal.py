"""The legal actions of each decision (spec §5-§8): where to move, what to buy, which meal."""

from __future__ import annotations

from toolkit.games.tokaido.base import TokaidoBase, bits
from toolkit.games.tokaido.constants import (
    AB_CHEAPEST_FREE,
    AB_FIXED_PRICE,
    AB_MEAL_DISCOUNT,
    INN,
    P_ENC_PICK,
    P_MEAL,
    P_MOVE,
    P_PANO_PICK,
    P_TEMPLE,
    P_TRAVELLER,
    P_VILLAGE,
    PANORAMA,
    TEMPLE,
    VILLAGE,
)


class LegalActions(TokaidoBase):
    """The legal actions of each decision (spec §5-§8): where to move, what to buy, which meal."""

    __slots__ = ()

    # ----- legal actions ---------------------------------------------------------------------

    def _generate(self) -> list[int]:
        phase = self.phase
        t = self.t
        if phase == P_MOVE:
            return self.destinations(self.mover)
        s = self.actor
        if phase == P_VILLAGE:
            revealed = self.revealed
            coins = self.coins[s]
            price = t.c.souv_price
            out = []
            for mask in range(1 << len(revealed)):
                cost = self._village_cost(s, [price[revealed[i]] for i in bits(mask)], coins)
                if cost >= 0:
                    out.append(t.a_buy + mask)
            return out
        if phase == P_TEMPLE:
            top = min(t.c.temple_max, self.coins[s])
            return [t.a_donate + d for d in range(t.c.temple_min, top + 1)]
        if phase == P_ENC_PICK:
            return [t.a_enc + card for card in sorted(set(self.drawn))]
        if phase == P_PANO_PICK:
            return [t.a_pano + k for k in self.pano_choices(s)]
        if phase == P_MEAL:
            return self._meal_actions(s)
        if phase == P_TRAVELLER:
            return [t.a_trav + tile for tile in sorted(self.dealt[s])]
        return []

    def destinations(self, traveller: int) -> list[int]:
        """Stops `traveller` may move to: forward, free, never past the next inn, and not
        banned (§4: a completed panorama; a village or temple without coins)."""
        t = self.t
        occ = self.occ
        kind = t.kind
        slots = t.slots
        out = []
        if traveller == t.neutral:
            for j in t.reach[self.pos[traveller]]:
                if kind[j] == INN or occ[2 * j] < 0:
                    out.append(t.a_move + j)
            return out
        coins = self.coins[traveller]
        nt = len(t.pano_sections)
        base = traveller * nt
        for j in t.reach[self.pos[traveller]]:
            k = kind[j]
            if k != INN and occ[2 * j] >= 0 and (slots[j] < 2 or occ[2 * j + 1] >= 0):
                continue
            if k == PANORAMA:
                a = t.arg[j]
                if self.pano[base + a] >= t.pano_sections[a]:
                    continue
            elif k == VILLAGE:
                if coins <= 0:
                    continue
            elif k == TEMPLE and coins < t.c.temple_min:
                continue
            out.append(t.a_move + j)
        return out

    def _village_cost(self, s: int, prices: list[int], coins: int) -> int:
        """What buying `prices` costs `s` (Sasayakko, Zen-emon), or -1 if unaffordable."""
        total = sum(prices)
        if not prices:
            return 0
        ab = self.ab[s]
        if ab == AB_CHEAPEST_FREE and len(prices) >= self.ab_a[s]:
            return total - min(prices) if total <= coins else -1
        if ab == AB_FIXED_PRICE:
            top = max(prices)
            if top > self.ab_a[s]:
                total += self.ab_a[s] - top
        return total if total <= coins else -1

    def meal_cost(self, s: int, dish: int) -> int:
        price = self.t.c.meal_price[dish]
        if self.ab[s] == AB_MEAL_DISCOUNT:
            return max(0, price - self.ab_a[s])
        return price

    def _meal_actions(self, s: int) -> list[int]:
        t = self.t
        eaten = self.dishes[s]
        coins = self.coins[s]
        out = []
        for dish in sorted(set(self.meal_set)):
            if not eaten >> dish & 1 and self.meal_cost(s, dish) <= coins:
                out.append(t.a_meal + dish)
        offer = self.offer
        if offer >= 0 and not eaten >> self.meal_set[offer] & 1:
            out.append(t.a_free)
        out.append(t.a_skip)
        return out

    def pano_choices(self, s: int, other_than: int = -1) -> list[int]:
        """Panorama types `s` has not completed (except `other_than`)."""
        sections = self.t.pano_sections
        base = s * len(sections)
        return [
            k for k in range(len(sections)) if k != other_than and self.pano[base + k] < sections[k]
        ]
