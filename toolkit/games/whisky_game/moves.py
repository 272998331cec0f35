"""Where a die move can end (rules A4–A6, C7, C8, C14), cached per (space, steps, ban).

A move walks a simple path (never entering a space twice), may stop early only on a
destination, ends on a dead end when no step remains, collects a token per resource space
entered and draws a special card only on an exact landing on an S space. Under Prohibition
it may not enter a distillery, lost distillery or pub at all (the rules texts: "il ne doit
PAS entrer", "NO puede entrar"), so a path that would is cut there, as at a dead end. Each
outcome is `(end space, tokens collected, draws)`; identical outcomes are merged, so the
choice a player faces is only between results that differ.
"""

from __future__ import annotations

from toolkit.games.whisky_game.constants import (
    DESTINATIONS,
    K_DIST,
    K_LOST,
    K_PUB,
    K_RES,
    K_SPEC,
    Content,
)

Outcome = tuple[int, int, int]
BANNED = frozenset((K_DIST, K_LOST, K_PUB))


def outcomes(
    content: Content,
    cache: dict[int, tuple[Outcome, ...]],
    start: int,
    steps: int,
    banned: bool,
) -> tuple[Outcome, ...]:
    """Every distinct way a move of `steps` from `start` can end (sorted, never empty)."""
    key = (start * 1024 + steps) * 2 + banned
    found = cache.get(key)
    if found is not None:
        return found
    kind, adj = content.kind, content.adj
    results: set[Outcome] = set()
    visited = [False] * len(kind)
    visited[start] = True

    def stoppable(space: int) -> bool:
        k = kind[space]
        return k in DESTINATIONS and not (banned and k in BANNED)

    def walk(space: int, left: int, tokens: int) -> None:
        if left == 0:
            results.add((space, tokens, int(kind[space] == K_SPEC)))
            return
        moved = False
        for nxt in adj[space]:
            if visited[nxt] or (banned and kind[nxt] in BANNED):
                continue
            moved = True
            visited[nxt] = True
            got = tokens + (kind[nxt] == K_RES)
            if left > 1 and stoppable(nxt):
                results.add((nxt, got, 0))
            walk(nxt, left - 1, got)
            visited[nxt] = False
        if not moved:  # a dead end: the move ends here, an S space so reached draws nothing
            results.add((space, tokens, 0))

    if steps <= 0:
        results.add((start, 0, 0))
    else:
        walk(start, steps, 0)
    ordered = sorted(results)
    if banned:
        allowed = [o for o in ordered if kind[o[0]] not in BANNED]
        ordered = allowed or ordered
    found = tuple(ordered)
    cache[key] = found
    return found
