"""The Whisky Game's own figures (spec §F), read once from a finished state.

Tuples hold one value per seat (or per holder), so the report's summary pools them over
games: the mean of `holder_win.<card>` is the holders' win rate, beside `others_win.<card>`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.games.whisky_game.constants import S_BONUS
from toolkit.games.whisky_game.scoring import LOST, bonus_points, bottle_points

if TYPE_CHECKING:
    from toolkit.games.whisky_game.base import WhiskyBase


def figures(s: WhiskyBase) -> dict[str, float | tuple[float, ...]]:
    c = s.c
    n = s.n
    result = s.returns()
    out: dict[str, float | tuple[float, ...]] = {}
    out["turns_per_player"] = s.turns / n
    per = c.bottles_per_distillery
    for r, name in enumerate(c.region_names):
        out[f"bottles_at_end.{name}"] = tuple(
            float(sum(1 for b in s.bottles[q] if b < LOST and c.dist_region[b // per] == r))
            for q in range(n)
        )
    for v, name in enumerate(c.diff_names):
        out[f"difficulty_picks.{name}"] = float(sum(st[v] for st in s.stats))
        out[f"difficulty_right.{name}"] = float(sum(st[3 + v] for st in s.stats))
    out["tokens_gained"] = tuple(float(st[6]) for st in s.stats)
    out["tokens_spent"] = tuple(float(st[7]) for st in s.stats)
    out["tokens_lost"] = tuple(float(st[8]) for st in s.stats)
    out["lost_bottles_bought"] = tuple(float(st[9]) for st in s.stats)
    out["turns_lost.hangover"] = tuple(float(st[11]) for st in s.stats)
    out["turns_lost.prohibition"] = tuple(float(st[12]) for st in s.stats)
    out["turns_lost.skipped"] = tuple(float(st[13]) for st in s.stats)
    for space in c.starts:
        wins = tuple(result[q] for q in range(n) if s.start_space[q] == space)
        if wins:
            out[f"start_win.{c.space_names[space]}"] = wins
    if s.winners:
        w = s.winners[0]
        points = s.points(w)
        others = [s.points(q) for q in range(n) if q != w]
        out["winner_points"] = float(points)
        out["winner_margin"] = float(points - max(others, default=0))
        lost = sum(c.lost_values[b - LOST] for b in s.bottles[w] if b >= LOST)
        plain = sum(bottle_points(c, b, (), False) for b in s.bottles[w])
        charged = sum(bottle_points(c, b, s.char_effects(w), s.triple) for b in s.bottles[w])
        out["winner_share.lost_bottles"] = lost / points if points else 0.0
        out["winner_share.bonus_cards"] = bonus_points(c, s.hand[w]) / points if points else 0.0
        out["winner_share.character"] = (charged - plain) / points if points else 0.0
    questions, emptied, crossings = s.tally[n], s.tally[n + 1], s.tally[n + 2]
    for d, space in enumerate(c.dist_space):
        name = c.space_names[space]
        out[f"questions_at.{name}"] = float(questions[d])
        out[f"emptied.{name}"] = float(emptied[d])
    for port, routes in enumerate(c.ferries):
        for sea, far, _ in routes:
            if port < far:
                out[f"crossings.{c.space_names[sea]}"] = float(crossings[sea])
    if s.winners:
        times = s.tally[s.winners[0]]
        last = max(range(len(times)), key=lambda r: times[r])
        for r, name in enumerate(c.region_names):
            out[f"last_region_completed.{name}"] = float(r == last)
    if s.timeout:  # C3: the fallback ranking by regions, then points, reported apart
        key = [(s.regions(q).bit_count(), s.points(q)) for q in range(n)]
        best = max(key)
        leaders = [q for q in range(n) if key[q] == best]
        for q in range(n):
            out[f"timeout_fallback_win.seat_{q}"] = 1.0 / len(leaders) if q in leaders else 0.0
    for t, card in enumerate(c.specials):
        if card.extended and not s.ext:
            continue
        held = tuple(result[q] for q in range(n) if s.stats[q][10] >> t & 1)
        rest = tuple(result[q] for q in range(n) if not s.stats[q][10] >> t & 1)
        if held:
            out[f"holder_win.{card.name}"] = held
        if rest:
            out[f"others_win.{card.name}"] = rest
    dead = sum(len(h) - sum(1 for t in h if c.specials[t].kind == S_BONUS) for h in s.hand)
    out["specials_dead_in_hand"] = float(dead)
    return out
