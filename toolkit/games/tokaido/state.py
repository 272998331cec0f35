"""A Tokaido game in progress: travellers on the road, coins, collections, decks, and every
rule of play (spec §3-§10).

Travellers 0..P-1 are the seats' pawns; with two players traveller P is the neutral one. A
traveller stands at a stop index and a lane: at an ordinary stop lane 0 is the road slot and
lane 1 the second slot of a double; at an inn the lane is the order of arrival. The traveller
furthest behind has the smallest key `stop * 8 + 7 - lane` and moves next (§4).

One action answers one decision; `phase` says which: the traveller tile to keep, where to move,
which souvenirs to buy, how much to donate, which encounter to keep (Yoshiyasu), which panorama
to extend (Annaibito, Hiroshige), which meal to eat. Chance (every deck) comes from `rng`.
Decks are lists whose top is the end; "under the deck" is the front.
"""

from __future__ import annotations

import random

from toolkit.api import TERMINAL, State
from toolkit.games.tokaido.constants import (
    AB_CARD_BONUS,
    AB_CHEAPEST_FREE,
    AB_ENCOUNTER_BONUS,
    AB_ENCOUNTER_CHOICE,
    AB_FIXED_PRICE,
    AB_FREE_MEAL,
    AB_INN_ENCOUNTER,
    AB_INN_PANORAMA,
    AB_MEAL_DISCOUNT,
    AB_NONE,
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
    EV_MEAL,
    EV_MEAL_SKIP,
    EV_NEUTRAL,
    EV_SECTION,
    EV_SOUVENIR,
    EV_TEMPLE,
    EV_VILLAGE,
    EVENT_NAMES,
    FARM,
    HOT_SPRING,
    INN,
    M_ENCOUNTERS,
    M_HOT_SPRINGS,
    M_MEAL_PRICES,
    M_SOUVENIRS,
    P_ENC_PICK,
    P_MEAL,
    P_MOVE,
    P_OVER,
    P_PANO_PICK,
    P_TEMPLE,
    P_TRAVELLER,
    P_VILLAGE,
    PANORAMA,
    S_ACHIEVEMENTS,
    S_ENCOUNTERS,
    S_HOT_SPRINGS,
    S_MEALS,
    S_PANORAMAS,
    S_SOUVENIRS,
    S_TEMPLE,
    SOURCES,
    TEMPLE,
    VILLAGE,
    Table,
)
from toolkit.games.tokaido.scoring import end_winners, temple_bonuses, winners

N_SOURCES = len(SOURCES)


class TokaidoState(State):
    """Tokaido state; see the module docstring for the encoding."""

    __slots__ = (
        "t",
        "rng",
        "phase",
        "actor",
        "mover",
        "trav",
        "ab",
        "ab_a",
        "ab_b",
        "ab_c",
        "coins",
        "score",
        "spent",
        "pos",
        "lane",
        "kyoto",
        "occ",
        "arrivals",
        "pano",
        "pano_ach",
        "fam",
        "souv_n",
        "dishes",
        "meals_n",
        "meal_sum",
        "hot_n",
        "enc_n",
        "ach_n",
        "temple",
        "src",
        "souv_deck",
        "enc_deck",
        "hot_deck",
        "meal_deck",
        "revealed",
        "drawn",
        "meal_set",
        "offer",
        "dealt",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "win",
        "_acts",
    )

    t: Table
    phase: int
    actor: int  # seat deciding now
    mover: int  # traveller whose turn it is
    win: list[int]
    _acts: list[int] | None
    # per seat: traveller tile, ability code and its numbers, coins, points, coins spent
    trav: list[int]
    ab: list[int]
    ab_a: list[int]
    ab_b: list[int]
    ab_c: list[int]
    coins: list[int]
    score: list[int]
    spent: list[int]
    pos: list[int]  # per traveller
    lane: list[int]  # per traveller
    kyoto: list[int]  # per seat: its place in the Kyoto queue as dealt
    occ: list[int]  # [2 * stop + lane] traveller or -1
    arrivals: list[int]
    pano: list[int]  # [seat * types + type] sections held
    pano_ach: list[int]
    fam: list[int]  # [seat * families + family] souvenirs held
    souv_n: list[int]
    dishes: list[int]  # bit mask of dishes eaten
    meals_n: list[int]
    meal_sum: list[int]
    hot_n: list[int]
    enc_n: list[int]
    ach_n: list[int]
    temple: list[int]  # per traveller
    src: list[int]  # [seat * N_SOURCES + source] points
    souv_deck: list[int]
    enc_deck: list[int]
    hot_deck: list[int]
    meal_deck: list[int]
    revealed: list[int]
    drawn: list[int]
    meal_set: list[int]
    offer: int
    dealt: list[list[int]]

    # ----- setup ----------------------------------------------------------------------------

    @classmethod
    def deal(cls, t: Table, seed: int) -> TokaidoState:
        """A fresh game (§3): shuffled decks, the Kyoto queue, traveller tiles dealt."""
        c = t.c
        s = cls.__new__(cls)
        p, n_t = t.players, t.travellers
        s.t = t
        rng = s.rng = random.Random(seed)
        s.trav = [-1] * p
        s.ab = [AB_NONE] * p
        s.ab_a = [0] * p
        s.ab_b = [0] * p
        s.ab_c = [0] * p
        s.coins = [0] * p
        s.score = [0] * p
        s.spent = [0] * p
        s.pos = [0] * n_t
        s.occ = [-1] * (2 * t.stops)
        s.arrivals = [0] * t.stops
        s.arrivals[0] = n_t
        nt = len(c.pano_types)
        s.pano = [0] * (p * nt)
        s.pano_ach = [-1] * nt
        s.fam = [0] * (p * c.families)
        s.souv_n = [0] * p
        s.dishes = [0] * p
        s.meals_n = [0] * p
        s.meal_sum = [0] * p
        s.hot_n = [0] * p
        s.enc_n = [0] * p
        s.ach_n = [0] * p
        s.temple = [0] * n_t
        s.src = [0] * (p * N_SOURCES)
        decks = []
        for full in (t.souv_deck, t.enc_deck, t.hot_deck, t.meal_deck):
            deck = list(full)
            rng.shuffle(deck)
            decks.append(deck)
        s.souv_deck, s.enc_deck, s.hot_deck, s.meal_deck = decks
        s.revealed = []
        s.drawn = []
        s.meal_set = []
        s.offer = -1
        s.turns = 0
        s.rounds = 0
        s.events = [0] * len(EVENT_NAMES)
        s.card_plays = [[0] * len(t.card_names) for _ in range(p)]
        s.win = []
        s._acts = None
        # Kyoto queue (§3.7): every pawn, the neutral one too (§10), in random order; lane 0
        # stands next to the road, so the pawn at the back (highest lane) leaves first
        queue = list(range(n_t))
        rng.shuffle(queue)
        s.lane = [0] * n_t
        for order, traveller in enumerate(queue):
            s.lane[traveller] = order
        s.kyoto = s.lane[:p]  # each seat's place in the queue as dealt (never changed)
        s.mover = -1
        if t.initiation:
            s.coins = [c.initiation_coins] * p
            s.dealt = []
            s._start()
        else:
            tiles = rng.sample(range(len(c.trav_ids)), c.travellers_dealt * p)
            k = c.travellers_dealt
            s.dealt = [tiles[i * k : i * k + k] for i in range(p)]
            s.phase = P_TRAVELLER
            s.actor = 0
        return s

    def _keep(self, seat: int, tile: int) -> None:
        """A player keeps one of the dealt tiles and takes its starting coins (§3.6)."""
        c = self.t.c
        self.trav[seat] = tile
        self.ab[seat] = c.trav_ability[tile]
        self.ab_a[seat] = c.trav_a[tile]
        self.ab_b[seat] = c.trav_b[tile]
        self.ab_c[seat] = c.trav_c[tile]
        self.coins[seat] = c.trav_coins[tile]
        self.card_plays[seat][tile] += 1

    def _start(self) -> None:
        """Preparations (§11) adjusts coins by the order of leaving Kyoto; then play starts."""
        t = self.t
        if t.preparations:
            prep = t.c.preparations
            leaving = sorted(range(t.players), key=lambda s: -self.lane[s])
            for back, seat in enumerate(reversed(leaving)):
                self.coins[seat] = max(0, self.coins[seat] + prep[min(back, len(prep) - 1)])
        self._advance()

    # ----- contract -------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == P_OVER else self.actor

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def returns(self) -> list[float]:
        """1/k to each of the k winners (§9.3); zeros before the end."""
        win = self.win
        share = 1.0 / len(win) if win else 0.0
        return [share if s in win else 0.0 for s in range(self.t.players)]

    def score_values(self) -> list[float]:
        return [float(v) for v in self.score]

    def first_player(self) -> int:
        """The seat that left Kyoto first: the back of the queue, past a neutral pawn."""
        return max(range(self.t.players), key=self.kyoto.__getitem__)

    def roles(self) -> list[str]:
        """The traveller each seat plays (none in the Initiation variant)."""
        ids = self.t.c.trav_ids
        return [ids[k] for k in self.trav if k >= 0]

    def figures(self) -> dict[str, float | tuple[float, ...]]:
        """Points by source, coins spent and left, per seat."""
        p = self.t.players
        src = self.src
        out: dict[str, float | tuple[float, ...]] = {
            f"points_{name}": tuple(float(src[s * N_SOURCES + k]) for s in range(p))
            for k, name in enumerate(SOURCES)
        }
        out["points_total"] = tuple(float(v) for v in self.score)
        out["coins_spent"] = tuple(float(v) for v in self.spent)
        out["coins_left"] = tuple(float(v) for v in self.coins)
        out["road_turns_per_traveller"] = self.turns / self.t.travellers
        return out

    def legal_actions(self) -> list[int]:
        """The current decision's actions (a read-only list, cached until the next apply)."""
        acts = self._acts
        if acts is None:
            acts = self._acts = self._generate()
        return acts

    def clone(self) -> TokaidoState:
        c = TokaidoState.__new__(TokaidoState)
        c.t = self.t
        r = random.Random()
        r.setstate(self.rng.getstate())
        c.rng = r
        c.phase = self.phase
        c.actor = self.actor
        c.mover = self.mover
        c.kyoto = self.kyoto  # read only
        c.trav = self.trav[:]
        c.ab = self.ab[:]
        c.ab_a = self.ab_a[:]
        c.ab_b = self.ab_b[:]
        c.ab_c = self.ab_c[:]
        c.coins = self.coins[:]
        c.score = self.score[:]
        c.spent = self.spent[:]
        c.pos = self.pos[:]
        c.lane = self.lane[:]
        c.occ = self.occ[:]
        c.arrivals = self.arrivals[:]
        c.pano = self.pano[:]
        c.pano_ach = self.pano_ach[:]
        c.fam = self.fam[:]
        c.souv_n = self.souv_n[:]
        c.dishes = self.dishes[:]
        c.meals_n = self.meals_n[:]
        c.meal_sum = self.meal_sum[:]
        c.hot_n = self.hot_n[:]
        c.enc_n = self.enc_n[:]
        c.ach_n = self.ach_n[:]
        c.temple = self.temple[:]
        c.src = self.src[:]
        c.souv_deck = self.souv_deck[:]
        c.enc_deck = self.enc_deck[:]
        c.hot_deck = self.hot_deck[:]
        c.meal_deck = self.meal_deck[:]
        c.revealed = self.revealed[:]
        c.drawn = self.drawn[:]
        c.meal_set = self.meal_set[:]
        c.offer = self.offer
        c.dealt = [d[:] for d in self.dealt]
        c.turns = self.turns
        c.rounds = self.rounds
        c.events = self.events[:]
        c.card_plays = [row[:] for row in self.card_plays]
        c.win = self.win[:]
        c._acts = self._acts  # shared read-only until one of them applies
        return c

    def observation(self, seat: int) -> TokaidoState:
        """A clone whose face-down decks are re-shuffled (their order is hidden)."""
        c = self.clone()
        for deck in (c.souv_deck, c.enc_deck, c.hot_deck, c.meal_deck):
            c.rng.shuffle(deck)
        return c

    # ----- whose turn (§4) -------------------------------------------------------------------

    def key(self, traveller: int) -> int:
        """Order on the road: smaller is further behind."""
        return self.pos[traveller] * 8 + 7 - self.lane[traveller]

    def _advance(self) -> None:
        """The traveller furthest behind moves; the neutral one is moved by the player whose
        traveller is first on the road (§10)."""
        pos, lane = self.pos, self.lane
        best = behind = -1
        low = high = 0
        for tr in range(self.t.travellers):
            k = pos[tr] * 8 + 7 - lane[tr]
            if behind < 0 or k < low:
                behind, low = tr, k
            if tr != self.t.neutral and (best < 0 or k > high):
                best, high = tr, k
        self.mover = behind
        self.actor = best if behind == self.t.neutral else behind
        self.phase = P_MOVE

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
                cost = self._village_cost(s, [price[revealed[i]] for i in _bits(mask)], coins)
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
        bought = [revealed[i] for i in _bits(mask)]
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

    # ----- end (§9) ----------------------------------------------------------------------------

    def _finish(self) -> None:
        t = self.t
        c = t.c
        p = t.players
        bonus = temple_bonuses(self.temple, c.temple_bonus)
        for s in range(p):
            if bonus[s]:
                self._gain(s, bonus[s], S_TEMPLE)
        measures = {
            M_MEAL_PRICES: self.meal_sum,
            M_SOUVENIRS: self.souv_n,
            M_HOT_SPRINGS: self.hot_n,
            M_ENCOUNTERS: self.enc_n,
        }
        for measure, points in c.end_achievements:
            values = measures[measure]
            for s in end_winners(values):
                self.ach_n[s] += 1
                self._gain(s, points + self._card_bonus(s, False), S_ACHIEVEMENTS)
        self.win = winners(self.score, self.ach_n)
        self.phase = P_OVER
        self.actor = TERMINAL

    # ----- checks and labels ---------------------------------------------------------------------

    def invariant_errors(self) -> list[str]:
        """Cards conserved; points by source add up to the score; slots and pawns agree."""
        t = self.t
        errors: list[str] = []
        held = len(self.souv_deck) + len(self.revealed) + sum(self.souv_n)
        if held != len(t.souv_deck):
            errors.append(f"souvenirs: {held} accounted for, {len(t.souv_deck)} in the game")
        held = len(self.enc_deck) + len(self.drawn) + sum(self.enc_n)
        if held != len(t.enc_deck):
            errors.append(f"encounters: {held} accounted for, {len(t.enc_deck)} in the game")
        if len(self.hot_deck) + sum(self.hot_n) != len(t.hot_deck):
            errors.append("hot springs not conserved")
        held = len(self.meal_deck) + len(self.meal_set) + sum(self.meals_n)
        if held != len(t.meal_deck):
            errors.append(f"meals: {held} accounted for, {len(t.meal_deck)} in the game")
        for s in range(t.players):
            row = self.src[s * N_SOURCES : (s + 1) * N_SOURCES]
            if sum(row) != self.score[s]:
                errors.append(f"seat {s}: sources add to {sum(row)}, score {self.score[s]}")
            if self.coins[s] < 0:
                errors.append(f"seat {s}: {self.coins[s]} coins")
            if bin(self.dishes[s]).count("1") != self.meals_n[s]:
                errors.append(f"seat {s}: a dish eaten twice")
        for tr in range(t.travellers):
            j = self.pos[tr]
            if t.kind[j] != INN and self.occ[2 * j + self.lane[tr]] != tr:
                errors.append(f"traveller {tr}: slot at stop {j} does not name it")
            if t.kind[j] != INN and self.lane[tr] >= t.slots[j]:
                errors.append(f"traveller {tr}: second slot of stop {j} is closed")
        placed = sum(1 for x in self.occ if x >= 0)
        on_road = sum(1 for tr in range(t.travellers) if t.kind[self.pos[tr]] != INN)
        if placed != on_road:
            errors.append("slots and pawns disagree")
        return errors

    def action_label(self, action: int) -> str:
        t = self.t
        c = t.c
        if action < t.a_buy:
            return f"move to {action - t.a_move}"
        if action < t.a_donate:
            return f"buy {[c.souv_ids[self.revealed[i]] for i in _bits(action - t.a_buy)]}"
        if action < t.a_enc:
            return f"donate {action - t.a_donate}"
        if action < t.a_pano:
            return f"keep {c.enc_ids[action - t.a_enc]}"
        if action < t.a_meal:
            return f"panorama {c.pano_types[action - t.a_pano]}"
        if action < t.a_skip:
            return f"eat {c.meal_ids[action - t.a_meal]}"
        if action == t.a_skip:
            return "no meal"
        if action == t.a_free:
            return "free meal"
        return f"keep {c.trav_ids[action - t.a_trav]}"


_BITS = tuple(tuple(i for i in range(8) if m >> i & 1) for m in range(256))


def _bits(mask: int) -> tuple[int, ...]:
    if mask < len(_BITS):
        return _BITS[mask]
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
