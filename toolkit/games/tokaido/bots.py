"""Tokaido's greedy bot: values each reachable stop by what it adds for its own traveller and
the scoring state, then takes the best one; every follow-up decision is valued the same way.

What a stop is worth: the points it gives now (the next panorama section, a souvenir's place in
its sets, a hot spring's mean), the races it helps (a panorama achievement still free, the end
achievements it leads or trails), minus the coins it costs, valued by how many the traveller
still needs for the meals at the inns ahead; minus a price for every stop passed, since a long
stride hands turns to the others. It reads only what a player sees (no deck order).

The weights are the bot's taste, not rules: every rules number comes from the compiled table.
The traveller tile is kept at random, so per-traveller win rates measure the travellers and
not the bot's preferences.
"""

from __future__ import annotations

import math
import random

from toolkit.games.tokaido.base import bits
from toolkit.games.tokaido.constants import (
    AB_CARD_BONUS,
    AB_ENCOUNTER_BONUS,
    AB_ENCOUNTER_CHOICE,
    AB_TEMPLE_BANK,
    E_COINS,
    E_PANORAMA,
    E_POINTS,
    E_SOUVENIR,
    E_TEMPLE,
    ENCOUNTER,
    FARM,
    HOT_SPRING,
    M_ENCOUNTERS,
    M_HOT_SPRINGS,
    M_SOUVENIRS,
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
from toolkit.games.tokaido.state import TokaidoState


class GreedyBot:
    """One-step greedy Tokaido player (see the module docstring)."""

    name = "greedy"

    def __init__(
        self,
        step_cost: float = 1.1,
        coin_meal: float = 2.5,
        coin_high: float = 1.2,
        coin_low: float = 0.35,
        race: float = 0.25,
        momentum: float = 0.6,
        noise: float = 1.0,
    ) -> None:
        self.step_cost = step_cost  # points given up per stop passed
        self.coin_meal = coin_meal  # value of a coin that pays for the next meal
        self.coin_high = coin_high  # value of a coin still needed for the later meals
        self.coin_low = coin_low  # value of a spare coin
        self.race = race  # share of an end achievement a card towards it is worth
        self.momentum = momentum  # worth of a panorama section towards the later ones
        self.noise = noise  # spread of the bot's misjudgement of a stop's worth
        self.meal_margin = 0.5  # coins kept per inn ahead beyond a meal's mean price
        self._band_table: object = None
        self._band_rows: list[tuple[int, int]] = []

    # ----- coins ------------------------------------------------------------------------------

    def coin_value(self, state: TokaidoState, s: int, level: float) -> float:
        """What the coin held at `level` (0 = the first coin) is worth: a lot while it pays
        for the next meal, less while it pays for the later ones, little beyond; nothing once
        no inn lies ahead."""
        first, later = self._bands(state, s)
        if later == 0:
            return 0.0
        if level < first:
            return self.coin_meal
        return self.coin_high if level < later else self.coin_low

    def _bands(self, state: TokaidoState, s: int) -> tuple[int, int]:
        """Coins that pay for the next meal, and for all the meals ahead (0, 0: no inn);
        computed once per stop of a table."""
        t = state.t
        if self._band_table is not t:
            meal = t.mean_meal_price + self.meal_margin
            self._band_rows = [
                (math.ceil(meal), math.ceil(n * meal)) if n else (0, 0) for n in t.inns_after
            ]
            self._band_table = t
        return self._band_rows[state.pos[s]]

    def coins_worth(self, state: TokaidoState, s: int, low: int, high: int) -> float:
        """Worth of holding the coins from `low` up to `high` (one coin at a time)."""
        first, later = self._bands(state, s)
        if later == 0 or high <= low:
            return 0.0
        low = max(0, low)
        a = max(0, min(high, first) - low)
        b = max(0, min(high, later) - max(low, first))
        rest = (high - low) - a - b
        return a * self.coin_meal + b * self.coin_high + rest * self.coin_low

    def spend_cost(self, state: TokaidoState, s: int, cost: int) -> float:
        if cost <= 0:
            return 0.0
        coins = state.coins[s]
        return self.coins_worth(state, s, coins - cost, coins)

    def gain_worth(self, state: TokaidoState, s: int, coins: int) -> float:
        held = state.coins[s]
        return self.coins_worth(state, s, held, held + coins)

    # ----- values of gains ---------------------------------------------------------------------

    def race_bonus(self, state: TokaidoState, s: int, measure: int) -> float:
        """What one more card towards an end achievement is worth: a share of its points
        while the traveller leads or is one card behind."""
        if measure == M_SOUVENIRS:
            row = state.souv_n
        elif measure == M_HOT_SPRINGS:
            row = state.hot_n
        elif measure == M_ENCOUNTERS:
            row = state.enc_n
        else:
            return 0.0
        mine = row[s]
        for i, v in enumerate(row):
            if i != s and v > mine + 1:
                return 0.0
        return self.race * state.t.end_points[measure]

    def souvenir_gain(self, state: TokaidoState, s: int, fams: list[int], family: int) -> int:
        k = fams[family] + 1
        m = 1
        for f, n in enumerate(fams):
            if n >= k and f != family:
                m += 1
        pts = state.t.c.set_points
        return pts[min(m, len(pts)) - 1]

    def section_value(self, state: TokaidoState, s: int, kind: int) -> float:
        """The next section of panorama `kind`: its points, the achievement if it completes
        the panorama first, and a share for bringing the later sections closer."""
        t = state.t
        c = t.c
        k = state.pano[s * len(t.pano_sections) + kind]
        sections = t.pano_sections[kind]
        if k >= sections:
            return 0.0
        value = float(c.pano_points[kind][k])
        if state.pano_ach[kind] < 0:
            if k + 1 == sections:
                value += c.pano_achievement[kind] + _bonus(state, s, False)
            else:
                value += self.momentum * c.pano_achievement[kind] * (k + 1) / sections
        if k + 1 < sections:
            value += self.momentum * (c.pano_points[kind][k + 1] - c.pano_points[kind][k])
        return value

    def encounter_value(self, state: TokaidoState, s: int, card: int) -> float:
        t = state.t
        c = t.c
        kind = c.enc_kind[card]
        if kind == E_POINTS:
            return float(c.enc_a[card])
        if kind == E_COINS:
            return self.gain_worth(state, s, c.enc_a[card])
        if kind == E_TEMPLE:
            return c.enc_b[card] + self.temple_rank_gain(state, s, c.enc_a[card])
        if kind == E_SOUVENIR:
            fams = state.fam[s * c.families : (s + 1) * c.families]
            gains = [self.souvenir_gain(state, s, fams, f) for f in range(c.families)]
            return sum(gains) / len(gains) + self.race_bonus(state, s, M_SOUVENIRS)
        if kind == E_PANORAMA:
            view = c.enc_a[card]
            best = self.section_value(state, s, view)
            if best == 0.0:
                choices = state.pano_choices(s)
                best = max((self.section_value(state, s, k) for k in choices), default=0.0)
            return best
        return 0.0

    def temple_rank_gain(self, state: TokaidoState, s: int, coins: int) -> float:
        """How the end temple bonus would change with `coins` more in the zone (as if the
        game ended now, half-weighted: the others still donate)."""
        bonus = state.t.c.temple_bonus
        zone = state.temple
        mine = zone[s]
        return 0.5 * (
            _temple_bonus(zone, s, mine + coins, bonus) - _temple_bonus(zone, s, mine, bonus)
        )

    def temple_value(self, state: TokaidoState, s: int, donation: int) -> float:
        c = state.t.c
        extra = state.ab_a[s] if state.ab[s] == AB_TEMPLE_BANK else 0
        coins = donation + extra
        return (
            coins * c.temple_points
            + self.temple_rank_gain(state, s, coins)
            - self.spend_cost(state, s, donation)
        )

    def best_temple(self, state: TokaidoState, s: int) -> float:
        c = state.t.c
        top = min(c.temple_max, state.coins[s])
        return max(
            (self.temple_value(state, s, d) for d in range(c.temple_min, top + 1)), default=0.0
        )

    def village_value(self, state: TokaidoState, s: int) -> float:
        """Expected worth of a village visit: the best net souvenir gain among the families
        likely to be revealed (from the deck's composition, which is public: every other
        souvenir lies face up), and a share of the second best."""
        t = state.t
        c = t.c
        deck = state.souv_deck
        if not deck:
            return 0.0
        in_deck = [0] * c.families
        for card in deck:
            in_deck[c.souv_family[card]] += 1
        n = len(deck)
        shown = min(c.village_reveal, n)
        fams = state.fam[s * c.families : (s + 1) * c.families]
        mean_price = t.mean_souvenir_price
        rows = []
        for f in range(c.families):
            if not in_deck[f]:
                continue
            net = self.souvenir_gain(state, s, fams, f) - self.spend_cost(
                state, s, round(mean_price[f])
            )
            if net > 0:
                rows.append((net, 1.0 - (1.0 - in_deck[f] / n) ** shown))
        rows.sort(reverse=True)
        value = 0.0
        missing = 1.0
        for net, p in rows:
            value += net * p * missing
            missing *= 1.0 - p
        if len(rows) > 1:
            value += 0.4 * rows[1][0] * rows[1][1]
        return value + 0.5 * self.race_bonus(state, s, M_SOUVENIRS)

    def encounter_stop_value(self, state: TokaidoState, s: int) -> float:
        t = state.t
        deck = state.enc_deck
        if not deck:
            return 0.0
        values = [self.encounter_value(state, s, k) for k in range(len(t.c.enc_kind))]
        copies = t.c.enc_copies
        mean = sum(v * n for v, n in zip(values, copies, strict=True)) / sum(copies)
        if state.ab[s] == AB_ENCOUNTER_CHOICE:
            mean += 0.5 * (max(values) - mean)
        if state.ab[s] == AB_ENCOUNTER_BONUS:
            mean += state.ab_a[s] + self.gain_worth(state, s, state.ab_b[s])
        return mean + self.race_bonus(state, s, M_ENCOUNTERS)

    def hot_value(self, state: TokaidoState, s: int) -> float:
        if not state.hot_deck:
            return 0.0
        t = state.t
        points = t.c.hot_points
        copies = t.c.hot_copies
        mean = sum(p * n for p, n in zip(points, copies, strict=True)) / sum(copies)
        return mean + _bonus(state, s, True) + self.race_bonus(state, s, M_HOT_SPRINGS)

    def kind_value(self, state: TokaidoState, s: int, kind: int, arg: int) -> float:
        """The worth of stopping on a stop of `kind` (a panorama: of type `arg`)."""
        if kind == PANORAMA:
            return self.section_value(state, s, arg)
        if kind == VILLAGE:
            return self.village_value(state, s)
        if kind == FARM:
            return self.gain_worth(state, s, state.t.c.farm_coins)
        if kind == TEMPLE:
            return self.best_temple(state, s)
        if kind == HOT_SPRING:
            return self.hot_value(state, s)
        if kind == ENCOUNTER:
            return self.encounter_stop_value(state, s)
        return 0.0

    def move_values(
        self, state: TokaidoState, s: int, actions: list[int], step_cost: float
    ) -> list[float]:
        """Each destination's worth to seat `s`, less `step_cost` per legal stop passed;
        each kind of stop is valued once."""
        t = state.t
        kinds = t.kind
        args = t.arg
        seen: dict[int, float] = {}
        out: list[float] = []
        for a in actions:  # ascending: a stop's index here = legal stops it passes
            j = a - t.a_move
            key = kinds[j] * 16 + args[j]
            v = seen.get(key)
            if v is None:
                v = seen[key] = self.kind_value(state, s, kinds[j], args[j])
            out.append(v - step_cost * len(out))
        return out

    # ----- choosing -----------------------------------------------------------------------------

    def choose(self, state: TokaidoState, rng: random.Random) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        phase = state.phase
        s = state.actor
        t = state.t
        c = t.c
        if phase == P_TRAVELLER:
            return actions[rng.randrange(len(actions))]
        if phase == P_MOVE:
            if state.mover == t.neutral:  # park the neutral on the rival's best stop
                rival = next(x for x in range(t.players) if x != s)
                values = self.move_values(state, rival, actions, 0.0)
            else:
                values = self.move_values(state, s, actions, self.step_cost)
                if self.noise:
                    values = [v + rng.gauss(0.0, self.noise) for v in values]
        elif phase == P_VILLAGE:
            values = []
            fams0 = state.fam[s * c.families : (s + 1) * c.families]
            for a in actions:
                fams = fams0[:]
                gain = 0.0
                cards = [state.revealed[i] for i in bits(a - t.a_buy)]
                for card in cards:
                    f = c.souv_family[card]
                    gain += self.souvenir_gain(state, s, fams, f)
                    fams[f] += 1
                if cards and self.race_bonus(state, s, M_SOUVENIRS) > 0:
                    gain += 0.5 * self.race * len(cards)
                cost = state._village_cost(s, [c.souv_price[k] for k in cards], state.coins[s])
                values.append(gain - self.spend_cost(state, s, cost))
        elif phase == P_TEMPLE:
            values = [self.temple_value(state, s, a - t.a_donate) for a in actions]
        elif phase == P_ENC_PICK:
            values = [self.encounter_value(state, s, a - t.a_enc) for a in actions]
        elif phase == P_PANO_PICK:
            values = [self.section_value(state, s, a - t.a_pano) for a in actions]
        elif phase == P_MEAL:
            values = []
            rival = max((v for i, v in enumerate(state.meal_sum) if i != s), default=0)
            for a in actions:
                if a == t.a_skip:
                    values.append(0.0)
                    continue
                dish = state.meal_set[state.offer] if a == t.a_free else a - t.a_meal
                cost = 0 if a == t.a_free else state.meal_cost(s, dish)
                price = c.meal_price[dish]
                gourmet = 0.15 * price if state.meal_sum[s] + price >= rival else 0.0
                values.append(c.meal_points + gourmet - self.spend_cost(state, s, cost))
        else:
            return actions[0]
        best = max(values)
        top = [a for a, v in zip(actions, values, strict=True) if v >= best - 1e-9]
        return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


def _temple_bonus(zone: list[int], s: int, mine: int, bonus: tuple[int, ...]) -> int:
    """The temple bonus `s` would take holding `mine` coins (dense ranks, donors only)."""
    if mine <= 0:
        return 0
    above = {v for i, v in enumerate(zone) if i != s and v > mine}
    return bonus[min(len(above), len(bonus) - 1)]


def _bonus(state: TokaidoState, s: int, hot: bool) -> int:
    if state.ab[s] != AB_CARD_BONUS:
        return 0
    return state.ab_a[s] if (state.ab_b[s] if hot else state.ab_c[s]) else 0
