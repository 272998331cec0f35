"""One game of Drinking Heroes in progress: turns, spells, combats, sips and scores.

Phases (each a decision of `cur`): SPELL (play one spell or none, R8), DECIDE (fight or
refuse, F10), GO (after a failed try: continue or give up, F13), SIPS (drink, or refuse by
sacrificing a monster, F14/R6), CHOOSE (co-op: which hero fights, R15). Phases with a single
possible action are resolved on the spot, so every decision a bot sees is a real one.
Dice are rolled inside `apply`, from the state's own RNG.
"""

from __future__ import annotations

import random

from toolkit.api import TERMINAL
from toolkit.games.drinking_heroes.constants import (
    A_CONTINUE,
    A_DRINK,
    A_FIGHT,
    A_GIVE_UP,
    A_NONE,
    A_REFUSE,
    AFTER_SPELL,
    E_FIGHTS,
    E_GIVEN_UP,
    E_KILLED,
    E_SIPS,
    PH_CHOOSE,
    PH_DECIDE,
    PH_END,
    PH_GO,
    PH_SIPS,
    PH_SPELL,
    Table,
)
from toolkit.games.drinking_heroes.legal import LegalSpells
from toolkit.games.drinking_heroes.sips import Sips
from toolkit.games.drinking_heroes.spells import Spells
from toolkit.games.drinking_heroes.tables import DrinkingTables
from toolkit.games.drinking_heroes.turns import TurnFlow


class DrinkingState(LegalSpells, TurnFlow, Spells, Sips):
    """One Drinking Heroes game in progress: setup, the engine contract, the per-seat figures
    and the invariants; each part of a turn comes from its mixin (legal, turns, spells, sips)."""

    __slots__ = ()

    # --- setup ---------------------------------------------------------------------------

    @classmethod
    def new(cls, g: DrinkingTables, tb: Table, seed: int) -> DrinkingState:
        s = cls.__new__(cls)
        rng = random.Random(seed)
        n = tb.seats
        s.g, s.tb, s.rng = g, tb, rng
        s.turns = s.rounds = 0
        s.events = [0] * len(g.event_names)
        s.card_plays = [[0] * len(g.card_names) for _ in range(n)]
        s.hero = rng.sample(range(len(g.hero_ids)), n)  # R14: no repeats
        if tb.short:  # R21: one monster of each (type, level), picked at random
            deck = [group[rng.randrange(len(group))] for group in g.pairs]
        else:
            deck = list(range(len(g.m_id)))
        rng.shuffle(deck)
        sdeck = list(tb.spells)
        rng.shuffle(sdeck)
        s.hands = []
        for _ in range(n):
            k = min(g.spells_per_seat, len(sdeck))
            s.hands.append(sdeck[len(sdeck) - k :])
            del sdeck[len(sdeck) - k :]
        s.deck, s.sdeck = deck, sdeck
        s.owned = [[] for _ in range(n)]
        s.mark = [1] * len(g.m_id)
        s.pit, s.gone, s.spit = [], [], 0
        s.active = 0  # R1: seats are numbered clockwise from the seat that won the all-roll
        s.cur = 0
        s.phase = PH_END
        s.monster = s.fighter = -1
        s.eff_type = s.need = s.lower = s.tries_max = s.tries_used = 0
        s.rerolls = s.shields = s.rb_amt = 0
        s.dbl = 1
        s.rb_type = -1
        s.queue = []
        s.resume = AFTER_SPELL
        s.curse = [0] * n
        s.failed = 0
        s.last_fighter = n - 1
        s.coop_levels = [0] * n
        s.sips = [0] * n
        s.won = -1
        s.legal = None
        s._start_turn()
        return s

    def clone(self) -> DrinkingState:
        c = DrinkingState.__new__(DrinkingState)
        c.g, c.tb = self.g, self.tb
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c.turns, c.rounds = self.turns, self.rounds
        c.events = self.events[:]
        c.card_plays = [row[:] for row in self.card_plays]
        c.hero = self.hero
        c.hands = [h[:] for h in self.hands]
        c.owned = [o[:] for o in self.owned]
        c.mark = self.mark[:]
        c.deck, c.sdeck, c.pit, c.gone = self.deck[:], self.sdeck[:], self.pit[:], self.gone[:]
        c.spit, c.active, c.cur, c.phase = self.spit, self.active, self.cur, self.phase
        c.monster, c.fighter, c.eff_type, c.need = (
            self.monster,
            self.fighter,
            self.eff_type,
            self.need,
        )
        c.lower, c.tries_max, c.tries_used = self.lower, self.tries_max, self.tries_used
        c.rerolls, c.shields, c.dbl = self.rerolls, self.shields, self.dbl
        c.rb_amt, c.rb_type = self.rb_amt, self.rb_type
        c.queue = self.queue[:]
        c.resume = self.resume
        c.curse = self.curse[:]
        c.failed, c.last_fighter = self.failed, self.last_fighter
        c.coop_levels = self.coop_levels[:]
        c.sips = self.sips[:]
        c.won = self.won
        c.legal = None
        return c

    def observation(self, seat: int) -> DrinkingState:
        """A clone where what `seat` cannot see is re-sampled: the order of both decks and the
        other seats' hands (pooled with the spell deck and re-dealt in the same sizes)."""
        c = self.clone()
        c.rng.seed(c.rng.getrandbits(64) ^ ((seat + 1) * 0x9E3779B97F4A7C15))
        c.rng.shuffle(c.deck)
        pool = list(c.sdeck)
        others = [s for s in range(self.tb.seats) if s != seat]
        for s in others:
            pool += c.hands[s]
        c.rng.shuffle(pool)
        for s in others:
            k = len(c.hands[s])
            c.hands[s] = pool[len(pool) - k :]
            del pool[len(pool) - k :]
        c.sdeck = pool
        return c

    # --- contract ------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == PH_END else self.cur

    def is_terminal(self) -> bool:
        return self.phase == PH_END

    def legal_actions(self) -> list[int]:
        ph = self.phase
        if ph == PH_DECIDE:
            return [A_FIGHT, A_REFUSE]
        if ph == PH_GO:
            return [A_CONTINUE, A_GIVE_UP]
        if self.legal is None:
            if ph == PH_SPELL:
                self.legal = [A_NONE, *self.spell_actions(self.cur)]
            elif ph == PH_SIPS:
                base = self.g.a_sacrifice
                self.legal = [A_DRINK, *(base + m for m in self.owned[self.cur])]
            elif ph == PH_CHOOSE:
                base = self.g.a_choose
                self.legal = [base + s for s in self.eligible()]
            else:
                self.legal = []
        return self.legal[:]

    def apply(self, action: int) -> None:
        ph = self.phase
        self.turns += 1
        self.legal = None
        if ph == PH_DECIDE:
            if action == A_FIGHT:
                self.events[E_FIGHTS] += 1
                self._try()
            elif action == A_REFUSE:
                self._refuse()
            else:
                raise ValueError(f"illegal action {action}")
        elif ph == PH_GO:
            if action == A_CONTINUE:
                self._try()
            elif action == A_GIVE_UP:
                self.events[E_GIVEN_UP] += 1
                self._combat_lost()
            else:
                raise ValueError(f"illegal action {action}")
        elif ph == PH_SPELL:
            if action == A_NONE:
                self._after_spell_phase()
            else:
                self._play_spell(action)
        elif ph == PH_SIPS:
            self._settle(action)
        elif ph == PH_CHOOSE:
            seat = action - self.g.a_choose
            if not (0 <= seat < self.tb.seats) or self.failed >> seat & 1:
                raise ValueError(f"illegal action {action}")
            self._start_combat(seat)
        else:
            raise ValueError("the game is over")

    def returns(self) -> list[float]:
        n = self.tb.seats
        if self.phase != PH_END:
            return [0.0] * n
        if self.tb.coop:
            return [float(self.won)] * n
        keys = [self._rank_key(s) for s in range(n)]
        best = max(keys)
        winners = [s for s in range(n) if keys[s] == best]
        share = 1.0 / len(winners)
        return [share if keys[s] == best else 0.0 for s in range(n)]

    def roles(self) -> list[str]:
        ids = self.g.hero_ids
        return [ids[h] for h in self.hero]

    def score_values(self) -> list[float]:
        """Points per seat: owned levels (× a double_points mark); co-op: levels killed."""
        if self.tb.coop:
            return [float(v) for v in self.coop_levels]
        return [float(self.score(s)) for s in range(self.tb.seats)]

    def action_label(self, action: int) -> str:
        g = self.g
        fixed = ("none", "fight", "refuse", "continue", "give up", "drink")
        if action < len(fixed):
            return fixed[action]
        if action < g.a_choose:
            return f"sacrifice {g.m_id[action - g.a_sacrifice]}"
        if action < g.a_spell:
            return f"choose seat {action - g.a_choose}"
        card, target = divmod(action - g.a_spell, g.tw)
        return f"spell {g.card_names[card]} → {target}"

    # --- per-seat figures for reports ----------------------------------------------------

    def score(self, seat: int) -> int:
        level, mark = self.g.m_level, self.mark
        return sum(level[m] * mark[m] for m in self.owned[seat])

    def sips_per_seat(self) -> list[int]:
        """Sips each drinking member of a seat drank (a team member drinks the team's sips)."""
        return self.sips[:]

    def figures(self) -> dict[str, float | tuple[float, ...]]:
        """Sips per drinking person (a team member drinks the team's sips), for the report."""
        per_person: list[float] = []
        for seat, sips in enumerate(self.sips):
            per_person.extend(float(sips) for _ in range(self.tb.drinkers[seat]))
        return {"sips_per_drinking_person": tuple(per_person)}

    def drinkers_per_seat(self) -> list[int]:
        return list(self.tb.drinkers)

    def members_per_seat(self) -> list[int]:
        return list(self.tb.members)

    def _rank_key(self, seat: int) -> tuple[int, ...]:
        """F15: score, then the count of monsters of each level from the highest down."""
        g = self.g
        counts = [0] * (g.max_level + 1)
        for m in self.owned[seat]:
            counts[g.m_level[m]] += 1
        return (self.score(seat), *counts[::-1])

    # --- invariants (random-play test) ---------------------------------------------------

    def invariant_errors(self) -> list[str]:
        errors: list[str] = []
        g, tb = self.g, self.tb
        places = self.deck + self.pit + self.gone
        for o in self.owned:
            places += o
        if self.monster >= 0:
            places.append(self.monster)
        if len(places) != tb.monsters or len(set(places)) != len(places):
            errors.append(f"monsters not conserved: {len(places)} placed of {tb.monsters}")
        spells = len(self.sdeck) + sum(len(h) for h in self.hands) + self.spit
        if spells != len(tb.spells):
            errors.append(f"spells not conserved: {spells} of {len(tb.spells)}")
        ev = self.events
        if not tb.coop and ev[E_KILLED] != sum(len(o) for o in self.owned) + len(self.gone):
            errors.append("kills differ from owned + sacrificed monsters")
        if tb.coop:
            killed = self.pit[:-1] if self.won == 0 else self.pit
            if sum(self.coop_levels) != sum(g.m_level[m] for m in killed):
                errors.append("co-op levels differ from the kills in the Pit")
        if sum(self.sips) != ev[E_SIPS]:
            errors.append("sips per seat differ from the sips_drunk event")
        if any(self.sips[s] for s in range(tb.seats) if not tb.drinking[s]):
            errors.append("a non-drinking seat drank")
        if self.phase == PH_END and self.deck and self.won != 0:
            errors.append("ended with monsters left in the deck")
        if any(self.mark[m] > 1 for m in self.gone):
            errors.append("a sacrificed monster kept its mark")
        return errors
