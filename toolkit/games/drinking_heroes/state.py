"""One game of Drinking Heroes in progress: turns, spells, combats, sips and scores.

Phases (each a decision of `cur`): SPELL (play one spell or none, R8), DECIDE (fight or
refuse, F10), GO (after a failed try: continue or give up, F13), SIPS (drink, or refuse by
sacrificing a monster, F14/R6), CHOOSE (co-op: which hero fights, R15). Phases with a single
possible action are resolved on the spot, so every decision a bot sees is a real one.
Dice are rolled inside `apply`, from the state's own RNG.
"""

from __future__ import annotations

import random

from toolkit.api import TERMINAL, State
from toolkit.games.drinking_heroes.constants import (
    E_BANISHED,
    E_COOP_ATTEMPTS,
    E_COOP_LOST,
    E_COOP_WON,
    E_DOUBLE_SCORED,
    E_FAILED_MAX,
    E_FIGHTS,
    E_GIVEN_UP,
    E_KILLED,
    E_LEVELS,
    E_REFUSED,
    E_REROLLS,
    E_SACRIFICED,
    E_SACRIFICED_LEVELS,
    E_SEAT_TURNS,
    E_SHARED_WINS,
    E_SIPS,
    E_SIPS_PEOPLE,
    E_SIPS_REFUSED,
    E_SIPS_SHIELDED,
    E_SIPS_SPELLS,
    E_SIPS_TRIES,
    E_SPELLS_DRAWN,
    E_SPELLS_PLAYED,
    E_STEALS,
    E_STOLEN_LEVELS,
    E_TIE_BREAKS,
    E_TRIES,
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
    Table,
)
from toolkit.games.drinking_heroes.tables import DrinkingTables

PH_SPELL, PH_DECIDE, PH_GO, PH_SIPS, PH_CHOOSE, PH_END = range(6)
A_NONE, A_FIGHT, A_REFUSE, A_CONTINUE, A_GIVE_UP, A_DRINK = range(6)
# Where play resumes once pending sips are settled.
AFTER_SPELL, AFTER_TRY = 0, 1
SRC_TRY, SRC_SPELL = 0, 1


class DrinkingState(State):
    __slots__ = (
        "g",
        "tb",
        "rng",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "hero",
        "hands",
        "owned",
        "mark",
        "deck",
        "sdeck",
        "pit",
        "gone",
        "spit",
        "active",
        "cur",
        "phase",
        "monster",
        "fighter",
        "eff_type",
        "need",
        "lower",
        "tries_max",
        "tries_used",
        "rerolls",
        "shields",
        "dbl",
        "rb_amt",
        "rb_type",
        "queue",
        "resume",
        "curse",
        "failed",
        "last_fighter",
        "coop_levels",
        "sips",
        "won",
        "legal",
    )

    g: DrinkingTables
    tb: Table
    hero: list[int]  # hero index per seat
    hands: list[list[int]]  # spell cards per seat
    owned: list[list[int]]  # monsters defeated per seat
    mark: list[int]
    deck: list[int]  # monsters
    sdeck: list[int]  # spells
    pit: list[int]
    gone: list[int]
    spit: int
    active: int
    cur: int
    phase: int
    monster: int
    fighter: int
    eff_type: int
    need: int
    lower: int
    tries_max: int
    tries_used: int
    rerolls: int
    shields: int
    dbl: int
    rb_amt: int
    rb_type: int
    queue: list[tuple[int, int, int]]  # pending sips: (seat, amount, source)
    resume: int
    curse: list[int]
    failed: int
    last_fighter: int
    coop_levels: list[int]
    sips: list[int]
    won: int
    legal: list[int] | None  # cached legal actions of a choice phase

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

    # --- turn flow -----------------------------------------------------------------------

    def _start_turn(self) -> None:
        """Draw the next monster (F8); competitive: the active seat's spell phase."""
        m = self.deck.pop()
        self.monster = m
        self.events[E_SEAT_TURNS] += 1
        if self.tb.coop:
            self.failed = 0
            self._choose_or_start()
        else:
            self._start_combat(self.active)

    def _choose_or_start(self) -> None:
        free = self.eligible()
        if len(free) == 1:
            self._start_combat(free[0])
        else:
            self.phase = PH_CHOOSE
            self.cur = (self.last_fighter + 1) % self.tb.seats

    def _start_combat(self, seat: int) -> None:
        """Fresh combat numbers for `seat` against the current monster, then its spell phase."""
        g, tb, m = self.g, self.tb, self.monster
        self.fighter = self.cur = seat
        self.eff_type = g.m_type[m]
        self.lower = self.rerolls = self.shields = self.rb_amt = self.tries_used = 0
        self.rb_type = -1
        self.dbl = 1
        tries = g.m_tries[m]
        if not tb.drinking[seat]:
            tries = min(tries, g.nd_cap)  # R18: the cap, before the extras
        self.tries_max = tries + tb.coop_extra
        if tb.coop:
            self.last_fighter = seat
            self.events[E_COOP_ATTEMPTS] += 1
        self._set_need()
        playable = self.spell_actions(seat) if self.hands[seat] else None
        if playable:
            self.phase = PH_SPELL
            self.legal = [A_NONE, *playable]  # apply() reset the cache before this point
        else:
            self._after_spell_phase()

    def _set_need(self) -> None:
        """The smallest face that kills now (R2): target minus every modifier."""
        g, f = self.g, self.fighter
        t = self.eff_type
        need = g.m_kill[self.monster] - self.lower - g.bonus[self.hero[f]][t] - self.curse[f]
        if self.rb_type == t:
            need -= self.rb_amt
        self.need = need

    def _after_spell_phase(self) -> None:
        if self.tb.coop:
            self.events[E_FIGHTS] += 1
            self._try()
        else:
            self.phase = PH_DECIDE
            self.cur = self.active

    def _refuse(self) -> None:
        m = self.monster
        self.events[E_REFUSED] += 1
        self.events[E_LEVELS + 3 * self.g.level_index[self.g.m_level[m]] + 1] += 1
        self.pit.append(m)
        self._end_turn()

    def _try(self) -> None:
        """One roll (R5): kill, or sips for the natural face, settled before continuing."""
        g = self.g
        rng = self.rng
        self.tries_used += 1
        self.events[E_TRIES] += 1
        sides, need, kf, ff = g.sides, self.need, g.kill_face, g.fail_face
        face = int(rng.random() * sides) + 1
        if face != kf and (face == ff or face < need) and self.rerolls > 0:
            self.rerolls -= 1
            self.events[E_REROLLS] += 1
            face = int(rng.random() * sides) + 1
        if face == kf or (face != ff and face >= need):
            self._kill()
            return
        seat = self.fighter
        amount = g.m_sips[self.monster][face]
        if amount and self.tb.drinking[seat]:
            if self.shields > 0:
                self.shields -= 1
                self.events[E_SIPS_SHIELDED] += amount
            elif self._can_sacrifice(seat):
                self.queue.append((seat, amount, SRC_TRY))
                self.resume = AFTER_TRY
                self._next_pending()
                return
            else:
                self._drink(seat, amount, SRC_TRY)
        self._after_try()

    def _after_try(self) -> None:
        if self.tries_used < self.tries_max:
            self.phase = PH_GO
            self.cur = self.fighter
        else:
            self.events[E_FAILED_MAX] += 1
            self._combat_lost()

    def _kill(self) -> None:
        g, m, seat = self.g, self.monster, self.fighter
        level = g.m_level[m]
        self.events[E_KILLED] += 1
        self.events[E_LEVELS + 3 * g.level_index[level]] += 1
        if self.tb.coop:
            self.pit.append(m)  # F16: shared kills go to the Pit
            self.coop_levels[seat] += level
        else:
            self.owned[seat].append(m)
            if self.dbl > 1:
                self.mark[m] = self.dbl
        for _ in range(g.spells_per_kill):  # F12, R10
            if self.sdeck:
                self.hands[seat].append(self.sdeck.pop())
                self.events[E_SPELLS_DRAWN] += 1
        self._end_turn()

    def _combat_lost(self) -> None:
        """Gave up or failed every try (F13); co-op: another hero may try (F16)."""
        m = self.monster
        if self.tb.coop:
            self.failed |= 1 << self.fighter
            if self.eligible():
                self._choose_or_start()
                return
            self.events[E_LEVELS + 3 * self.g.level_index[self.g.m_level[m]] + 2] += 1
            self.events[E_COOP_LOST] += 1
            self.pit.append(m)
            self.monster = -1
            self.won = 0
            self.phase = PH_END
            return
        self.pit.append(m)
        self._end_turn()

    def _end_turn(self) -> None:
        """R11: the game ends once the turn that drew the last monster is over."""
        self.curse[self.active] = 0  # a curse lasts until the end of its target's next turn
        self.monster = self.fighter = -1
        n = self.tb.seats
        if not self.deck:
            self.phase = PH_END
            self.rounds = self.events[E_SEAT_TURNS] // n
            self._finish()
            return
        self.active = (self.active + 1) % n
        if self.active == 0:
            self.rounds += 1
        self._start_turn()

    def _finish(self) -> None:
        if self.tb.coop:
            self.won = 1
            self.events[E_COOP_WON] += 1
            return
        n = self.tb.seats
        for s in range(n):
            for m in self.owned[s]:
                if self.mark[m] > 1:
                    self.events[E_DOUBLE_SCORED] += 1
        scores = [self.score(s) for s in range(n)]
        top = max(scores)
        keys = [self._rank_key(s) for s in range(n) if scores[s] == top]
        if len(keys) > 1:
            if keys.count(max(keys)) > 1:
                self.events[E_SHARED_WINS] += 1
            else:
                self.events[E_TIE_BREAKS] += 1

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

    # --- sips (F14, R6, R7) --------------------------------------------------------------

    def _can_sacrifice(self, seat: int) -> bool:
        return not self.tb.coop and bool(self.owned[seat])

    def _drink(self, seat: int, amount: int, src: int) -> None:
        self.sips[seat] += amount
        ev = self.events
        ev[E_SIPS] += amount
        ev[E_SIPS_PEOPLE] += amount * self.tb.drinkers[seat]
        ev[E_SIPS_TRIES if src == SRC_TRY else E_SIPS_SPELLS] += amount

    def _next_pending(self) -> None:
        """Settle queued sips in order; stop at the first seat that has a choice."""
        while self.queue:
            seat, amount, src = self.queue[0]
            if self._can_sacrifice(seat):
                self.phase = PH_SIPS
                self.cur = seat
                return
            self.queue.pop(0)
            self._drink(seat, amount, src)
        if self.resume == AFTER_TRY:
            self._after_try()
        else:
            self._after_spell_phase()

    def _settle(self, action: int) -> None:
        seat, amount, src = self.queue.pop(0)
        if action == A_DRINK:
            self._drink(seat, amount, src)
        else:
            m = action - self.g.a_sacrifice
            if m not in self.owned[seat]:
                raise ValueError(f"illegal action {action}")
            self.owned[seat].remove(m)
            self.mark[m] = 1  # R7: out of the game, its mark lost
            self.gone.append(m)
            ev = self.events
            ev[E_SACRIFICED] += 1
            ev[E_SACRIFICED_LEVELS] += self.g.m_level[m]
            ev[E_SIPS_REFUSED] += amount
        self._next_pending()

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
