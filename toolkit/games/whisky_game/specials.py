"""Special cards: drawing (A15, C22), playing held cards, and the choices they open.

Each effect is a kind code compiled from the card's `effect`; its numbers are the card's
parameters. A card that needs a target hands a choice to the seat that makes it (the
player, or the victim of Broken Cork); `resolve_choice` finishes the effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.games.whisky_game.constants import (
    EV_DRAWN,
    EV_GAIN,
    EV_PLAYED,
    EV_RETURNED,
    EV_SRESHUF,
    EV_TLOST,
    R_START,
    S_BONUS,
    S_CARRIAGE,
    S_DISCARD,
    S_DOWNGRADE,
    S_FIXED,
    S_HANGOVER,
    S_LOSE,
    S_MOVEREGION,
    S_MULTTOKENS,
    S_PROHIBITION,
    S_RETURN,
    S_REVEAL,
    S_SKIP,
    S_TAKEBACK,
    S_TAKEREGION,
    S_TRUCK,
    S_UPGRADE,
)
from toolkit.games.whisky_game.scoring import LOST

if TYPE_CHECKING:
    from toolkit.games.whisky_game.base import WhiskyBase

(
    CH_START,
    CH_PLACE,
    CH_PROHIB,
    CH_RETURN_ANY,
    CH_REVEAL,
    CH_OFFERMAN,
    CH_ANGELS,
    CH_GM,
    CH_CORK_SEAT,
    CH_TAKE_REGION,
    CH_WAREHOUSE,
    CH_CALL,
) = range(12)

PLAYABLE = frozenset(
    (
        S_TAKEBACK,
        S_REVEAL,
        S_FIXED,
        S_SKIP,
        S_MULTTOKENS,
        S_DOWNGRADE,
        S_UPGRADE,
        S_DISCARD,
        S_TAKEREGION,
        S_LOSE,
    )
)


def note_play(s: WhiskyBase) -> None:
    s.events[EV_PLAYED] += 1


def note_return(s: WhiskyBase) -> None:
    s.events[EV_RETURNED] += 1


def _pair(seat: int, index: int) -> int:
    return seat << 8 | index


def bottles_of(s: WhiskyBase, seats: list[int]) -> list[int]:
    return [_pair(q, i) for q in seats for i in range(len(s.bottles[q]))]


def opponents(s: WhiskyBase, p: int) -> list[int]:
    return [q for q in range(s.n) if q != p]


# ----- drawing ---------------------------------------------------------------------------


def draw(s: WhiskyBase, p: int, resume: int) -> bool:
    """Draw a special card on an exact S landing; True if a choice took over the flow."""
    if not s.deck:
        if not s.discard:
            return False
        s.deck = s.discard
        s.discard = []
        s.rng.shuffle(s.deck)
        s.events[EV_SRESHUF] += 1
    t = s.deck.pop()
    s.events[EV_DRAWN] += 1
    s.stats[p][10] |= 1 << t
    card = s.c.specials[t]
    if card.hold:
        s.hand[p].append(t)
        if card.kind == S_BONUS:
            s.card_plays[p][t] += 1  # it scores while held
        return False
    s.card_plays[p][t] += 1
    kind = card.kind
    if kind in (S_HANGOVER, S_CARRIAGE, S_TRUCK):
        s.front[p].append(t)
        return False
    if kind == S_PROHIBITION:  # on the discard pile until placed before an opponent
        s.discard.append(t)
        s.ask_choice(CH_PROHIB, p, opponents(s, p), resume, t << 8)
        return True
    s.discard.append(t)
    if kind == S_MOVEREGION:
        s.ask_choice(CH_PLACE, p, list(s.c.region_spaces[card.a]), resume)
        return True
    if kind == S_LOSE:
        lose_tokens(s, p, card.a)
        return False
    if kind == S_SKIP:
        s.skips[p] += card.a
        if card.c >= 0:
            s.place(p, card.c)
        return False
    if kind == S_RETURN:  # Birthday (C17): your bottle, or with none an opponent's
        seats = [p] if s.bottles[p] else opponents(s, p)
        options = bottles_of(s, seats)
        if options:
            s.ask_choice(CH_RETURN_ANY, p, options, resume, t << 8 | card.a)
            return True
        return False
    if kind == S_DISCARD:  # The Pattison's Crash: discard your own
        options = bottles_of(s, [p])
        if options:
            s.ask_choice(CH_RETURN_ANY, p, options, resume, t << 8 | card.a)
            return True
        return False
    return False


def lose_tokens(s: WhiskyBase, q: int, amount: int) -> None:
    """Tokens removed blind (Leaking Barrel, Warehouse Collapse) go back into the bag."""
    base = 3 * q
    tok = s.tokens
    for _ in range(amount):
        total = tok[base] + tok[base + 1] + tok[base + 2]
        if total <= 0:
            return
        r = s.rng.randrange(total)
        k = 0 if r < tok[base] else 1 if r < tok[base] + tok[base + 1] else 2
        tok[base + k] -= 1
        s.bag[k] += 1
        s.events[EV_TLOST] += 1
        s.stats[q][8] += 1


# ----- held cards ------------------------------------------------------------------------


def _targets(s: WhiskyBase, p: int, t: int) -> list[int]:
    """Who or what a held card can be played on now (empty: not playable)."""
    c = s.c
    card = c.specials[t]
    kind = card.kind
    per = c.bottles_per_distillery
    if kind == S_TAKEBACK:
        return bottles_of(s, opponents(s, p))
    if kind == S_REVEAL:
        return [
            _pair(q, i)
            for q in opponents(s, p)
            for i, b in enumerate(s.bottles[q])
            if b >= LOST and b not in s.revealed
        ]
    if kind == S_FIXED:
        return [0]
    if kind == S_SKIP:
        return opponents(s, p) if card.b else [p]
    if kind == S_MULTTOKENS:
        tok = s.tokens[3 * p : 3 * p + 3]
        return [0] if any(tok[k] and s.bag[k] for k in range(3)) else []
    if kind == S_DOWNGRADE:
        to = [v for v, value in enumerate(c.bottle_values) if value == card.b]
        out = []
        for q in opponents(s, p):
            for i, b in enumerate(s.bottles[q]):
                if b < LOST and c.bottle_values[b % per] in card.values:
                    d = b // per
                    if any(s.avail[d * per + v] for v in to):
                        out.append(_pair(q, i))
        return out
    if kind == S_UPGRADE:
        out = []
        for i, b in enumerate(s.bottles[p]):
            if b < LOST and c.bottle_values[b % per] == card.a:
                d = b // per
                for v, value in enumerate(c.bottle_values):
                    if value in card.values and s.avail[d * per + v]:
                        out.append(i << 4 | v)
        return out
    if kind == S_DISCARD:
        return [q for q in opponents(s, p) if s.bottles[q]] if card.b else []
    if kind == S_TAKEREGION:
        return [
            d * per + v
            for d, r in enumerate(c.dist_region)
            if r == card.a and s._may_own(p, d)
            for v in range(len(c.bottle_values))
            if s.avail[d * per + v]
        ]
    if kind == S_LOSE:
        return [q for q in opponents(s, p) if sum(s.tokens[3 * q : 3 * q + 3])] if card.b else []
    return []


def playable_now(s: WhiskyBase, p: int) -> list[int]:
    """Card types in hand that can be played before a move."""
    specials = s.c.specials
    out = []
    for t in sorted(set(s.hand[p])):
        if specials[t].kind in PLAYABLE and _targets(s, p, t):
            out.append(t)
    return out


def playable_late(s: WhiskyBase, p: int) -> list[int]:
    """Held card types that can still be played once the turn's moves are done: all but
    Luck of the Irish, which is a move of its own."""
    specials = s.c.specials
    return [t for t in playable_now(s, p) if specials[t].kind != S_FIXED]


def play(s: WhiskyBase, p: int, t: int, resume: int) -> None:
    """Play held card `t` (its target is the next choice), then go on at `resume`: the
    move's start, or the end of the turn when played after the moves."""
    c = s.c
    card = c.specials[t]
    targets = _targets(s, p, t)
    s.hand[p].remove(t)
    s.card_plays[p][t] += 1
    note_play(s)
    kind = card.kind
    if kind == S_FIXED:  # Luck of the Irish: a plain move of its steps; then out of the game
        s.removed.append(t)
        s._move(card.a, modify=False)
        return
    s.discard.append(t)
    if kind == S_MULTTOKENS:  # Aeneas Coffey: the kinds you hold, as far as the bag allows
        base = 3 * p
        for k in range(3):
            got = min(s.tokens[base + k] * (card.a - 1), s.bag[k])
            s.tokens[base + k] += got
            s.bag[k] -= got
            s.events[EV_GAIN] += got
            s.stats[p][6] += got
        if resume == R_START:
            s._start_move()
        else:
            s.resume_after(resume)
        return
    choice = {
        S_TAKEBACK: CH_RETURN_ANY,
        S_REVEAL: CH_REVEAL,
        S_SKIP: CH_OFFERMAN,
        S_DOWNGRADE: CH_ANGELS,
        S_UPGRADE: CH_GM,
        S_DISCARD: CH_CORK_SEAT,
        S_TAKEREGION: CH_TAKE_REGION,
        S_LOSE: CH_WAREHOUSE,
    }[kind]
    count = card.a if kind == S_TAKEBACK else 1
    s.ask_choice(choice, p, targets, resume, t << 8 | count)


# ----- choices ---------------------------------------------------------------------------


def resolve_choice(s: WhiskyBase, kind: int, value: int) -> bool:
    """Finish the effect waiting on a choice; True if a further choice took over."""
    c = s.c
    p = s.cur
    t, count = s.choice_arg >> 8, s.choice_arg & 255
    card = c.specials[t]
    per = c.bottles_per_distillery
    if kind == CH_PLACE:
        s.place(p, value)
    elif kind == CH_PROHIB:
        s.discard.remove(t)
        s.front[value].append(t)
    elif kind == CH_RETURN_ANY:
        q, i = value >> 8, value & 255
        s.return_bottle(q, s.bottles[q][i])
        if count > 1:
            seats = [q]
            if card.kind == S_TAKEBACK:
                seats = opponents(s, p)
            options = bottles_of(s, seats)
            if options:
                s.ask_choice(CH_RETURN_ANY, s.choice_seat, options, s.resume, t << 8 | count - 1)
                return True
    elif kind == CH_REVEAL:
        q, i = value >> 8, value & 255
        s.revealed.append(s.bottles[q][i])
    elif kind == CH_OFFERMAN:
        s.skips[value] += card.a
        if card.c >= 0:
            s.place(value, card.c)
    elif kind == CH_ANGELS:
        q, i = value >> 8, value & 255
        code = s.bottles[q][i]
        d = code // per
        to = next(v for v, x in enumerate(c.bottle_values) if x == card.b and s.avail[d * per + v])
        s.return_bottle(q, code)
        s.take_bottle(q, d * per + to)
    elif kind == CH_GM:
        i, v = value >> 4, value & 15
        code = s.bottles[p][i]
        s.return_bottle(p, code)
        s.take_bottle(p, code // per * per + v)
    elif kind == CH_CORK_SEAT:  # the victim chooses which of their bottles goes
        s.ask_choice(CH_RETURN_ANY, value, bottles_of(s, [value]), s.resume, t << 8 | count)
        return True
    elif kind in (CH_TAKE_REGION, CH_CALL):
        s.take_bottle(p, value)
    elif kind == CH_WAREHOUSE:
        lose_tokens(s, value, card.a)
    return False
