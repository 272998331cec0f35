"""Applying a move: the road stops and what each gives (spec §5, §7, §8)."""

from __future__ import annotations

from toolkit.games.tokaido.base import N_SOURCES, TokaidoBase, bits
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
    EV_EMPTY,
    EV_ENCOUNTER,
    EV_FARM,
    EV_HOT,
    EV_NEUTRAL,
    EV_SECTION,
    EV_SOUVENIR,
    EV_TEMPLE,
    EV_VILLAGE,
    FARM,
    HOT_SPRING,
    INN,
    P_ENC_PICK,
    P_MEAL,
    P_MOVE,
    P_PANO_PICK,
    P_TEMPLE,
    P_TRAVELLER,
    P_VILLAGE,
    PANORAMA,
    S_ACHIEVEMENTS,
    S_ENCOUNTERS,
    S_HOT_SPRINGS,
    S_PANORAMAS,
    S_SOUVENIRS,
    S_TEMPLE,
    TEMPLE,
    VILLAGE,
)


class Stops(TokaidoBase):
    """Applying a move: the road stops and what each gives (spec §5, §7, §8)."""

    __slots__ = ()

    # ----- applying --------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        t = self.t
        self._acts = None
        phase = self.phase
        s = self.actor
        if phase == P_MOVE:
            self._move(self.mover, action - t.a_move)
        elif phase == P_VILLAGE:
            self._buy(s, action - t.a_buy)
        elif phase == P_TEMPLE:
            self._donate(s, action - t.a_donate)
        elif phase == P_ENC_PICK:
            card = action - t.a_enc
            drawn = self.drawn
            drawn.remove(card)
            self.enc_deck[0:0] = drawn  # the others go face down under the deck
            self.drawn = []
            if not self._encounter_effect(s, card):
                self._then(s)
        elif phase == P_PANO_PICK:
            self._section(s, action - t.a_pano)
            self._then(s)
        elif phase == P_MEAL:
            self._eat(s, action)
        elif phase == P_TRAVELLER:
            self._keep(s, action - t.a_trav)
            if s + 1 < t.players:
                self.actor = s + 1
            else:
                self.dealt = []
                self._start()
        else:
            raise ValueError("the game is over")

    def _move(self, tr: int, j: int) -> None:
        t = self.t
        i = self.pos[tr]
        occ = self.occ
        if t.kind[i] != INN:
            occ[2 * i + self.lane[tr]] = -1
        self.pos[tr] = j
        if t.kind[j] == INN:
            self.lane[tr] = self.arrivals[j]
            self.arrivals[j] += 1
        else:
            lane = 0 if occ[2 * j] < 0 else 1
            self.lane[tr] = lane
            occ[2 * j + lane] = tr
        self.turns += 1
        if tr == t.neutral:
            self._neutral_stop(j)
        else:
            self._resolve(tr, j)

    def _neutral_stop(self, j: int) -> None:
        """§10: a bank coin to the neutral's temple zone; at an inn its mover discards a meal
        card at random, unseen (drawing the set first if the neutral arrived first)."""
        t = self.t
        self.events[EV_NEUTRAL] += 1
        kind = t.kind[j]
        if kind == TEMPLE:
            self.temple[t.neutral] += t.c.neutral_temple_coins
        elif kind == INN:
            if self.lane[t.neutral] == 0:
                self._draw_meals()
            meal_set = self.meal_set
            for _ in range(t.c.neutral_meal_discard):
                if meal_set:
                    self.meal_deck.insert(0, meal_set.pop(self.rng.randrange(len(meal_set))))
            self._inn_done(j)
            return
        self._advance()

    def _resolve(self, s: int, j: int) -> None:
        """Resolve the space `s` stopped on (§5)."""
        t = self.t
        kind = t.kind[j]
        if kind == VILLAGE:
            self.events[EV_VILLAGE] += 1
            deck = self.souv_deck
            n = min(t.c.village_reveal, len(deck))
            if n:
                self.revealed = [deck.pop() for _ in range(n)]
                self.phase = P_VILLAGE
                self.actor = s
                return
            self.events[EV_EMPTY] += 1
        elif kind == FARM:
            self.events[EV_FARM] += 1
            self.coins[s] += t.c.farm_coins
        elif kind == TEMPLE:
            self.events[EV_TEMPLE] += 1
            self.phase = P_TEMPLE
            self.actor = s
            return
        elif kind == HOT_SPRING:
            self._hot_spring(s)
        elif kind == ENCOUNTER:
            if self._encounter(s):
                return
        elif kind == PANORAMA:
            self._section(s, t.arg[j])
        elif kind == INN:
            self._arrive(s, j)
            return
        self._advance()

    def _then(self, s: int) -> None:
        """After a follow-up decision: at an inn the meal comes next; on the road the turn
        ends."""
        if self.t.kind[self.pos[s]] == INN:
            self._meal_start(s)
        else:
            self._advance()

    def _gain(self, s: int, points: int, source: int) -> None:
        self.score[s] += points
        self.src[s * N_SOURCES + source] += points

    def _card_bonus(self, s: int, flag_hot: bool) -> int:
        """Mitsukuni's extra point for a hot spring (flag_hot) or an achievement card."""
        if self.ab[s] != AB_CARD_BONUS:
            return 0
        on = self.ab_b[s] if flag_hot else self.ab_c[s]
        return self.ab_a[s] if on else 0

    def _hot_spring(self, s: int) -> None:
        self.events[EV_HOT] += 1
        if not self.hot_deck:
            self.events[EV_EMPTY] += 1
            return
        card = self.hot_deck.pop()
        self.hot_n[s] += 1
        self.card_plays[s][self.t.card_base[4] + card] += 1
        self._gain(s, self.t.c.hot_points[card] + self._card_bonus(s, True), S_HOT_SPRINGS)

    def _souvenir(self, s: int, card: int) -> None:
        """A souvenir joins the collection and scores its place in its set (§7.4)."""
        c = self.t.c
        f = c.souv_family[card]
        fams = c.families
        base = s * fams
        fam = self.fam
        k = fam[base + f] + 1
        m = 1
        for g in range(base, base + fams):
            if fam[g] >= k and g != base + f:
                m += 1
        fam[base + f] = k
        self.souv_n[s] += 1
        self.events[EV_SOUVENIR] += 1
        self.card_plays[s][self.t.card_base[1] + card] += 1
        pts = c.set_points
        self._gain(s, pts[min(m, len(pts)) - 1], S_SOUVENIRS)

    def _buy(self, s: int, mask: int) -> None:
        t = self.t
        revealed = self.revealed
        bought = [revealed[i] for i in bits(mask)]
        cost = self._village_cost(s, [t.c.souv_price[k] for k in bought], self.coins[s])
        self.coins[s] -= cost
        self.spent[s] += cost
        for card in bought:
            self._souvenir(s, card)
        rest = [revealed[i] for i in range(len(revealed)) if not mask >> i & 1]
        if rest:
            self.rng.shuffle(rest)
            self.souv_deck[0:0] = rest
        self.revealed = []
        self._advance()

    def _donate(self, s: int, coins: int) -> None:
        c = self.t.c
        self.coins[s] -= coins
        self.spent[s] += coins
        if self.ab[s] == AB_TEMPLE_BANK:
            coins += self.ab_a[s]  # Hirotada's bank coins: never worse to take, so taken
        self.temple[s] += coins
        self._gain(s, coins * c.temple_points, S_TEMPLE)
        self._advance()

    def _section(self, s: int, kind: int) -> None:
        """The next section of panorama `kind`; the first to complete it takes its
        achievement (§5)."""
        t = self.t
        nt = len(t.pano_sections)
        at = s * nt + kind
        k = self.pano[at]
        self.pano[at] = k + 1
        self.events[EV_SECTION] += 1
        self._gain(s, t.c.pano_points[kind][k], S_PANORAMAS)
        if k + 1 == t.pano_sections[kind] and self.pano_ach[kind] < 0:
            points = t.c.pano_achievement[kind]
            if points:
                self.pano_ach[kind] = s
                self.ach_n[s] += 1
                self._gain(s, points + self._card_bonus(s, False), S_ACHIEVEMENTS)

    def _encounter(self, s: int) -> bool:
        """Draw an encounter (Umegae's bonus first, Yoshiyasu draws several); True when a
        decision is pending."""
        deck = self.enc_deck
        self.events[EV_ENCOUNTER] += 1
        if not deck:
            self.events[EV_EMPTY] += 1
            return False
        ab = self.ab[s]
        if ab == AB_ENCOUNTER_BONUS:
            self._gain(s, self.ab_a[s], S_ENCOUNTERS)
            self.coins[s] += self.ab_b[s]
        if ab == AB_ENCOUNTER_CHOICE:
            n = min(self.ab_a[s], len(deck))
            if n > 1:
                self.drawn = [deck.pop() for _ in range(n)]
                self.phase = P_ENC_PICK
                self.actor = s
                return True
        return self._encounter_effect(s, deck.pop())

    def _encounter_effect(self, s: int, card: int) -> bool:
        """Keep the card and apply it (§7.3); True when a panorama choice is pending."""
        c = self.t.c
        self.enc_n[s] += 1
        self.card_plays[s][self.t.card_base[3] + card] += 1
        kind = c.enc_kind[card]
        if kind == E_SOUVENIR:
            if self.souv_deck:
                self._souvenir(s, self.souv_deck.pop())
            else:
                self.events[EV_EMPTY] += 1
        elif kind == E_PANORAMA:
            view = c.enc_a[card]
            if self.pano[s * len(c.pano_types) + view] < self.t.pano_sections[view]:
                self._section(s, view)
            else:
                choices = self.pano_choices(s, view)
                if len(choices) > 1:
                    self.phase = P_PANO_PICK
                    self.actor = s
                    return True
                if choices:
                    self._section(s, choices[0])
        elif kind == E_POINTS:
            self._gain(s, c.enc_a[card], S_ENCOUNTERS)
        elif kind == E_COINS:
            self.coins[s] += c.enc_a[card]
        elif kind == E_TEMPLE:
            self.temple[s] += c.enc_a[card]
            self._gain(s, c.enc_b[card], S_ENCOUNTERS)
        return False
