"""The inns (spec §6): arriving, the meal draw, eating, leaving together."""

from __future__ import annotations

from toolkit.games.tokaido.base import TokaidoBase
from toolkit.games.tokaido.constants import (
    AB_FREE_MEAL,
    AB_INN_ENCOUNTER,
    AB_INN_PANORAMA,
    EV_MEAL,
    EV_MEAL_SKIP,
    P_MEAL,
    P_PANO_PICK,
    S_MEALS,
)


class Inns(TokaidoBase):
    """The inns (spec §6): arriving, the meal draw, eating, leaving together."""

    __slots__ = ()

    # ----- inns (§6) ---------------------------------------------------------------------------

    def _arrive(self, s: int, j: int) -> None:
        """Hiroshige and Chuubei act at an intermediate inn before the meal."""
        if self.t.intermediate[j]:
            ab = self.ab[s]
            if ab == AB_INN_PANORAMA:
                choices = self.pano_choices(s)
                if len(choices) > 1:
                    self.phase = P_PANO_PICK
                    self.actor = s
                    return
                if choices:
                    self._section(s, choices[0])
            elif ab == AB_INN_ENCOUNTER and self._encounter(s):
                return
        self._meal_start(s)

    def _draw_meals(self) -> None:
        deck = self.meal_deck
        n = min(self.t.meal_draw, len(deck))
        self.meal_set = [deck.pop() for _ in range(n)]

    def _meal_start(self, s: int) -> None:
        """The first arrival draws the set; Satsuki is offered one of it at random."""
        if self.lane[s] == 0:
            self._draw_meals()
        self.offer = -1
        if self.ab[s] == AB_FREE_MEAL and self.meal_set:
            self.offer = self.rng.randrange(len(self.meal_set))
        self.phase = P_MEAL
        self.actor = s
        acts = self._meal_actions(s)
        if len(acts) == 1:  # nothing on offer she or he may take: no decision
            self.events[EV_MEAL_SKIP] += 1
            self._meal_done(s)
        else:
            self._acts = acts

    def _eat(self, s: int, action: int) -> None:
        t = self.t
        meal_set = self.meal_set
        if action == t.a_skip:
            self.events[EV_MEAL_SKIP] += 1
            self._meal_done(s)
            return
        if action == t.a_free:
            dish = meal_set.pop(self.offer)
        else:
            dish = action - t.a_meal
            meal_set.remove(dish)
            cost = self.meal_cost(s, dish)
            self.coins[s] -= cost
            self.spent[s] += cost
        self.dishes[s] |= 1 << dish
        self.meals_n[s] += 1
        self.meal_sum[s] += t.c.meal_price[dish]
        self.events[EV_MEAL] += 1
        self.card_plays[s][t.card_base[2] + dish] += 1
        self._gain(s, t.c.meal_points, S_MEALS)
        self._meal_done(s)

    def _meal_done(self, s: int) -> None:
        self.offer = -1
        self._inn_done(self.pos[s])

    def _inn_done(self, j: int) -> None:
        """Everyone here: unbought meals go under the deck; at the last inn the game ends."""
        t = self.t
        if self.arrivals[j] == t.travellers:
            rest = self.meal_set
            if rest:
                self.rng.shuffle(rest)
                self.meal_deck[0:0] = rest
            self.meal_set = []
            self.rounds += 1
            if j == t.last:
                self._finish()
                return
        self._advance()
