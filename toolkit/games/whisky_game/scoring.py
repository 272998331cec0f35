"""Points, regions and the goal (A16, C1, C4, C6, C25), read from the compiled content.

A bottle is an int: `d * B + v` for value index v of distillery d (B bottles per
distillery), or `LOST + i` for card i of the lost pile. Lost bottles and bonus cards give
points but no region; character bonuses apply to the bottles held when scored.
"""

from __future__ import annotations

from toolkit.games.whisky_game.constants import C_ADD, C_MULT, S_BONUS, Content

LOST = 1 << 16


def bottle_points(content: Content, code: int, char_effects: tuple, triple: bool) -> int:
    """Points of one bottle for its holder's character (C25); `triple` reads Alan
    Winchester's bonus as the Spanish text's ×3, the simulation what-if of ruling B1."""
    if code >= LOST:
        return content.lost_values[code - LOST]
    per = content.bottles_per_distillery
    d, v = divmod(code, per)
    value = content.bottle_values[v] if v < len(content.bottle_values) else 0
    space = content.dist_space[d]
    for kind, where, amount in char_effects:
        if where != space:
            continue
        if kind == C_MULT:
            value *= amount
        elif kind == C_ADD:
            value = value * 3 if triple else value + amount
    return value


def printed_value(content: Content, code: int) -> int:
    """The value printed on a bottle (for the tie-break on top bottles)."""
    if code >= LOST:
        return content.lost_values[code - LOST]
    v = code % content.bottles_per_distillery
    return content.bottle_values[v] if v < len(content.bottle_values) else 0


def bonus_points(content: Content, hand: list[int]) -> int:
    specials = content.specials
    return sum(specials[t].a for t in hand if specials[t].kind == S_BONUS)


def regions_mask(content: Content, bottles: list[int]) -> int:
    per = content.bottles_per_distillery
    regions = content.dist_region
    mask = 0
    for code in bottles:
        if code < LOST:
            mask |= 1 << regions[code // per]
    return mask
