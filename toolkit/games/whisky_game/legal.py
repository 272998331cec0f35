"""The legal actions of each phase of a turn (the moves a seat may choose)."""

from __future__ import annotations

from toolkit.games.whisky_game import specials as sp
from toolkit.games.whisky_game.base import WhiskyBase
from toolkit.games.whisky_game.constants import (
    C_NEWQ,
    C_RESCUE,
    C_SPILL,
    C_WILD,
    END_NOW,
    H_FAIL,
    H_FIFTY,
    H_NEWQ,
    H_RESCUE,
    H_WRITER,
    K_AIR,
    K_DIST,
    K_LOST,
    K_PORT,
    K_PUB,
    MASK,
    OP_BOOK,
    OP_BUY,
    OP_CARD,
    OP_CHOOSE,
    OP_DIFF,
    OP_FERRY,
    OP_HELP,
    OP_HERE,
    OP_JUMP,
    OP_PASS,
    OP_PATH,
    OP_PUB,
    OP_SPILL,
    PH_ACT,
    PH_CHOICE,
    PH_END,
    PH_HELP,
    PH_JUMP,
    PH_PATH,
    PH_START,
    ROLL,
    S_CALL,
    S_FIFTY,
    S_FLIGHT,
    S_WRITER,
    SHIFT,
)
from toolkit.games.whisky_game.scoring import (
    LOST,
)


class LegalActions(WhiskyBase):
    """The legal actions of each phase of a turn (the moves a seat may choose)."""

    __slots__ = ()

    # ----- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PH_PATH:
            return [OP_PATH << SHIFT | i for i in range(len(self.paths))]
        if phase == PH_CHOICE:
            return [OP_CHOOSE << SHIFT | i for i in range(len(self.opts))]
        if phase == PH_START:
            return self._start_actions()
        if phase == PH_ACT:
            return self._act_actions()
        if phase == PH_HELP:
            return self._help_actions()
        if phase == PH_JUMP:
            return [OP_JUMP << SHIFT, OP_PASS << SHIFT | 1]
        if phase == PH_END:
            late = sp.playable_late(self, self.cur)
            return [OP_PASS << SHIFT | END_NOW, *(OP_CARD << SHIFT | t for t in late)]
        return []

    def _start_actions(self) -> list[int]:
        c, p = self.c, self.cur
        out = [ROLL]
        here = self.pos[p]
        kind = c.kind[here]
        banned = self._banned(p)
        if self.turn_start:
            if self.placed[p] and kind == K_DIST and not banned and self._diffs(p, here):
                out.append(OP_HERE << SHIFT)
            if kind == K_PORT:
                out.extend(OP_FERRY << SHIFT | i for i in range(len(c.ferries[here])))
            if kind == K_AIR:
                out.extend(self._book_actions(p))
        if self.hand[p]:
            out.extend(OP_CARD << SHIFT | t for t in sp.playable_now(self, p))
        if not self.spill_done:
            spill = self.char_arg(p, C_SPILL)
            if spill is not None:
                per = spill[0]
                for q in range(self.n):
                    if q != p and self.bottles[q] and self.spilled[p * self.n + q] < per:
                        out.append(OP_SPILL << SHIFT | q)
        return out

    def _book_actions(self, p: int) -> list[int]:
        c = self.c
        here = self.pos[p]
        out: list[int] = []
        seen = set()
        for t in self.hand[p]:
            if c.specials[t].kind == S_FLIGHT and t not in seen:
                seen.add(t)
                out.extend(OP_BOOK << SHIFT | (t << 4) | i for i, _ in enumerate(c.flights[here]))
        for i, code in enumerate(self.returns_to[p]):
            if (code & MASK) != here:
                out.append(OP_BOOK << SHIFT | (1 << 11) | i)
        return out

    def _act_actions(self) -> list[int]:
        c, p = self.c, self.cur
        here = self.pos[p]
        kind = c.kind[here]
        out: list[int] = []
        if kind == K_DIST:
            out = self._diff_actions(p, here)
        elif kind == K_LOST:
            if self._can_buy(p):
                out.append(OP_BUY << SHIFT)
        elif kind == K_PUB:
            out = self._pub_actions(p)
        elif kind == K_AIR:
            out = self._book_actions(p)
        if self.hand[p]:  # a held card on arrival, before acting (Coffey before buying)
            out.extend(OP_CARD << SHIFT | t for t in sp.playable_late(self, p))
        out.append(OP_PASS << SHIFT | 1)
        if self.moves_left > 1 and not self.traded:
            out.append(OP_PASS << SHIFT)
        return out

    def _diff_actions(self, p: int, here: int) -> list[int]:
        out = [OP_DIFF << SHIFT | v for v in self._diffs(p, here)]
        if any(self.c.specials[t].kind == S_CALL for t in self.hand[p]):
            out.extend(OP_DIFF << SHIFT | 8 | v for v in self._call_diffs(p, here))
        return out

    def _diffs(self, p: int, space: int) -> list[int]:
        """Open difficulties at a distillery (C19): its bottle is there, the player owns
        nothing from it, their latest question was elsewhere, and the pile has cards."""
        c = self.c
        d = c.space_dist[space]
        if d < 0 or self.last_q[p] == d or not self._may_own(p, d):
            return []
        per = c.bottles_per_distillery
        return [
            v for v in range(len(c.bottle_values)) if self.avail[d * per + v] and c.questions[v]
        ]

    def _call_diffs(self, p: int, space: int) -> list[int]:
        """Robbie MacPherson: a difficulty is open if any distillery the player may own
        holds that value (the question is still asked here)."""
        c = self.c
        d = c.space_dist[space]
        if d < 0 or self.last_q[p] == d:
            return []
        return [
            v for v in range(len(c.bottle_values)) if c.questions[v] and self._call_targets(p, v)
        ]

    def _call_targets(self, p: int, v: int) -> list[int]:
        per = self.c.bottles_per_distillery
        return [
            d * per + v
            for d in range(len(self.c.dist_space))
            if self.avail[d * per + v] and self._may_own(p, d)
        ]

    def _may_own(self, p: int, d: int) -> bool:
        per = self.c.bottles_per_distillery
        return all(b >= LOST or b // per != d for b in self.bottles[p])

    def _can_buy(self, p: int) -> bool:
        if not self.lost_pile:
            return False
        cost = self.c.lost_cost
        tok = self.tokens[3 * p : 3 * p + 3]
        if self.char_arg(p, C_WILD) is not None:
            return sum(tok) >= sum(cost)
        return all(tok[k] >= cost[k] for k in range(3))

    def _pub_actions(self, p: int) -> list[int]:
        c = self.c
        tok = self.tokens[3 * p : 3 * p + 3]
        if sum(tok) < c.pub_in:
            return []
        out = []
        for give in range(3):
            if not tok[give]:
                continue
            for get in range(3):
                if get != give and self.bag[get]:
                    out.append(OP_PUB << SHIFT | give * 3 + get)
        return out

    def _help_actions(self) -> list[int]:
        p = self.cur
        out = [OP_HELP << SHIFT | H_FAIL]
        if not self.helper_used:
            kinds = {self.c.specials[t].kind for t in self.hand[p]}
            if S_FIFTY in kinds:
                out.append(OP_HELP << SHIFT | H_FIFTY)
            if S_WRITER in kinds:
                out.append(OP_HELP << SHIFT | H_WRITER)
            if self.char_arg(p, C_RESCUE) is not None:
                out.append(OP_HELP << SHIFT | H_RESCUE)
        if self.newq_left > 0 and self.char_arg(p, C_NEWQ) is not None:
            out.append(OP_HELP << SHIFT | H_NEWQ)
        return out
