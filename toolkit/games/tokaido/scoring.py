"""Tokaido's scoring rules as small pure functions over ints: the temple ranking with dense
ranks (spec §9.1), end achievements shared on ties (§7.6) and the winner with its
tie-breaks (§9.3). The state calls them; tests call them too. (Souvenir sets are scored by
the state as each card is bought.)"""

from __future__ import annotations

from collections.abc import Sequence


def temple_bonuses(coins: Sequence[int], bonus: Sequence[int]) -> list[int]:
    """End bonus per temple zone: dense ranks over the distinct positive totals (two tied
    first both take bonus[0], the next total bonus[1]); every rank past the table takes the
    last entry; an empty zone scores nothing."""
    totals = sorted({c for c in coins if c > 0}, reverse=True)
    rank = {total: i for i, total in enumerate(totals)}
    last = len(bonus) - 1
    return [bonus[min(rank[c], last)] if c > 0 else 0 for c in coins]


def end_winners(values: Sequence[int]) -> list[int]:
    """Seats that take an end achievement: every seat tied on the best total, none if the
    best total is 0."""
    best = max(values, default=0)
    if best <= 0:
        return []
    return [s for s, v in enumerate(values) if v == best]


def winners(scores: Sequence[int], achievements: Sequence[int]) -> list[int]:
    """Highest score wins; a tie goes to the most achievement cards; still tied: shared."""
    key = [(scores[s], achievements[s]) for s in range(len(scores))]
    best = max(key)
    return [s for s, k in enumerate(key) if k == best]
