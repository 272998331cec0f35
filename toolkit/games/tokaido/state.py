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

from toolkit.api import TERMINAL
from toolkit.games.tokaido.base import N_SOURCES, bits
from toolkit.games.tokaido.constants import (
    AB_NONE,
    EVENT_NAMES,
    INN,
    M_ENCOUNTERS,
    M_HOT_SPRINGS,
    M_MEAL_PRICES,
    M_SOUVENIRS,
    P_MOVE,
    P_OVER,
    P_TRAVELLER,
    S_ACHIEVEMENTS,
    S_TEMPLE,
    SOURCES,
    Table,
)
from toolkit.games.tokaido.inns import Inns
from toolkit.games.tokaido.legal import LegalActions
from toolkit.games.tokaido.scoring import end_winners, temple_bonuses, winners
from toolkit.games.tokaido.stops import Stops


class TokaidoState(LegalActions, Stops, Inns):
    """Tokaido state; see the module docstring for the encoding. Each decision's moves come
    from its mixin (legal, stops, inns)."""

    __slots__ = ()

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
            return f"buy {[c.souv_ids[self.revealed[i]] for i in bits(action - t.a_buy)]}"
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
