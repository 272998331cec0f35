"""The monsters: as many of every (type, level), the §3.1 formulas for kill targets, tries
and sips, sip tables that fail where the die fails, and a kill within a roll (V3–V6)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

from toolkit.content.game import Game, LoadedFile
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.drinking_heroes.checks.base import _at, _decks, _key_at, _manifest, check

G_PAIRS = rule(
    "G204", "monster-pairs", "Monsters are not the same count for every (type, level) pair."
)
G_NUMBERS = rule(
    "G205", "monster-numbers", "A monster's kill target, tries or sips break the 3.1 formulas."
)
G_SIP_TABLE = rule(
    "G206",
    "sip-table",
    "A sip table misses a failing face, has a face that cannot fail, or rises with the face.",
)
G_UNKILLABLE = rule(
    "G207", "unkillable-by-roll", "No hero can reach the kill target without a natural kill."
)


# Design 3.1: kill_target = level + 1; max tries by level; sips[face] = ceil(level / 2) +
# max(0, 3 - face) for the failing faces.
KILL_OFFSET = 1
TRIES_BY_LEVEL = {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 1}
SIPS_LEVEL_STEP = 2
SIPS_FACE_PIVOT = 3


def expected_sips(level: int, face: int) -> int:
    return math.ceil(level / SIPS_LEVEL_STEP) + max(0, SIPS_FACE_PIVOT - face)


@check(G_PAIRS, G_NUMBERS, G_SIP_TABLE, G_UNKILLABLE)
def check_monsters(game: Game) -> Iterator[Diagnostic]:
    """V3–V6: pairs, formulas, sip tables, killable by a roll."""
    _, rules = _manifest(game)
    types = [t.id for t in rules.monster_types]
    sides, kill_face, fail_face = rules.die_sides, rules.always_kill_face, rules.always_fail_face
    failing = [f for f in range(1, sides + 1) if f != kill_face]
    best_face = max((f for f in failing if f != fail_face), default=0)
    best_bonus = {t: 0 for t in types}
    for _, deck in _decks(game, "heroes"):
        for h in deck.cards:
            for t, b in h.bonuses.items():
                best_bonus[t] = max(best_bonus.get(t, 0), b)
    monsters = [(f, i, m) for f, deck in _decks(game, "monsters") for i, m in enumerate(deck.cards)]
    if not monsters:
        return
    pairs: Counter[tuple[str, int]] = Counter()
    first: dict[tuple[str, int], tuple[LoadedFile, int]] = {}
    for f, i, m in monsters:
        pairs[(m.type, m.level)] += m.copies
        first.setdefault((m.type, m.level), (f, i))
    top = max(m.level for _, _, m in monsters)
    usual = Counter(pairs.values()).most_common(1)[0][0]
    deck_file = monsters[0][0]
    for t in types:
        for level in range(1, top + 1):
            count = pairs.get((t, level), 0)
            if count == usual:
                continue
            if count == 0:
                span = _key_at(deck_file, "cards")
            else:
                f, i = first[(t, level)]
                span = _at(f, "cards", i, "level")
            yield G_PAIRS.at(
                deck_file.rel if count == 0 else f.rel,
                span,
                f"{count} {t} monster(s) of level {level}; every (type, level) has {usual}",
            )
    for f, i, m in monsters:
        where = ("cards", i)
        if m.kill_target != m.level + KILL_OFFSET:
            yield G_NUMBERS.at(
                f.rel,
                _at(f, *where, "kill_target"),
                f"{m.id}: kill_target {m.kill_target}, the formula gives {m.level + KILL_OFFSET}",
            )
        tries = TRIES_BY_LEVEL.get(m.level)
        if tries is not None and m.max_tries != tries:
            yield G_NUMBERS.at(
                f.rel,
                _at(f, *where, "max_tries"),
                f"{m.id}: max_tries {m.max_tries}, level {m.level} gets {tries}",
            )
        yield from _sip_table(f, i, m, failing, sides)
        reach = best_face + best_bonus.get(m.type, 0)
        if m.kill_target > reach:
            yield G_UNKILLABLE.at(
                f.rel,
                _at(f, *where, "kill_target"),
                f"{m.id}: kill target {m.kill_target}, but the best roll reaches {reach}",
            )


def _sip_table(f: LoadedFile, i: int, m: Any, failing: list[int], sides: int):  # noqa: ANN202
    where = ("cards", i, "sips")
    for face in failing:
        value = m.sips.get(face)
        if value is None or value < 1:
            yield G_SIP_TABLE.at(
                f.rel, _at(f, *where), f"{m.id}: face {face} can fail but has no sips ≥ 1"
            )
        elif value != expected_sips(m.level, face):
            yield G_NUMBERS.at(
                f.rel,
                _at(f, *where, face),
                f"{m.id}: {value} sip(s) on face {face}, "
                f"the formula gives {expected_sips(m.level, face)}",
            )
    for face in m.sips:
        if face not in failing:
            yield G_SIP_TABLE.at(
                f.rel,
                _at(f, *where, face),
                f"{m.id}: face {face} never fails (natural kill or not on a {sides}-sided die)",
            )
    values = [m.sips[face] for face in failing if face in m.sips]
    if any(a < b for a, b in zip(values, values[1:], strict=False)):
        yield G_SIP_TABLE.at(f.rel, _at(f, *where), f"{m.id}: sips rise with the face")
