"""G checks of Drinking Heroes: the design invariants V1–V11 the schema cannot express.

Each check reads the validated models and reports at the offending value's position. Counts
are derived from the content where the design allows it (equal bonus totals, equal pairs,
seats from the rules); the §3.1 monster formulas are the design's own and are stated here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from toolkit.content.game import Game, LoadedFile
from toolkit.content.models.manifest import ManifestBase
from toolkit.content.plugin import rules_of
from toolkit.content.templating import placeholders
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.drinking_heroes.models import SPELL_TARGETS, DrinkingRules
from toolkit.games.drinking_heroes.tables import split_teams

G_HERO_TOTAL = rule("G201", "hero-bonus-total", "Heroes' bonuses do not all sum to the same total.")
G_TYPE_BALANCE = rule(
    "G202", "type-bonus-balance", "A monster type gets other hero bonuses than the rest."
)
G_HEROES = rule("G203", "too-few-heroes", "Fewer heroes than the most seats a game can have.")
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
G_TARGET = rule("G208", "spell-target", "A spell's target does not match its kind.")
G_FLAGS = rule("G209", "spell-flags", "A spell's gold/gives_sips/steals/competitive flags are off.")
G_MODE_DECK = rule(
    "G210", "mode-deck-size", "A mode's filtered spell deck cannot deal every seat's hand."
)
G_SETUP = rule("G211", "seat-setup", "A player count cannot be seated (teams, heroes).")
G_HIDDEN_PARAM = rule(
    "G212", "param-not-shown", "A spell's numeric parameter is missing from its text."
)

# Design 3.1: kill_target = level + 1; max tries by level; sips[face] = ceil(level / 2) +
# max(0, 3 - face) for the failing faces.
KILL_OFFSET = 1
TRIES_BY_LEVEL = {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 1}
SIPS_LEVEL_STEP = 2
SIPS_FACE_PIVOT = 3

GIVES = {"give_sips", "give_sips_all"}
STEALS = {"steal_monster", "steal_spell"}
COMPETITIVE_ONLY_KINDS = {"double_points", "curse"}


def expected_sips(level: int, face: int) -> int:
    return math.ceil(level / SIPS_LEVEL_STEP) + max(0, SIPS_FACE_PIVOT - face)


def _manifest(game: Game) -> tuple[ManifestBase, DrinkingRules]:
    """The valid manifest and its typed rules (`run` calls the checks on a valid one only)."""
    manifest = game.manifest
    if manifest is None:
        raise ValueError(f"{game.id}: no valid manifest")
    return manifest, rules_of(manifest, DrinkingRules)


def _decks(game: Game, kind: str) -> Iterator[tuple[LoadedFile, Any]]:
    for loaded in game.decks:
        if loaded.model is not None and loaded.doc is not None and loaded.model.kind == kind:
            yield loaded, loaded.model


def _at(loaded: LoadedFile, *path: Any):  # noqa: ANN202 - a Span
    assert loaded.doc is not None
    return loaded.doc.span(tuple(path))


def _key_at(loaded: LoadedFile, *path: Any):  # noqa: ANN202 - a Span
    assert loaded.doc is not None
    return loaded.doc.key_span(tuple(path))


def check_heroes(game: Game) -> Iterator[Diagnostic]:
    """V1, V2: equal bonus totals, the same bonus multiset per type, enough heroes."""
    meta, rules = _manifest(game)
    types = [t.id for t in rules.monster_types]
    heroes = [(f, i, h) for f, deck in _decks(game, "heroes") for i, h in enumerate(deck.cards)]
    if not heroes:
        return
    totals = Counter(sum(h.bonuses.values()) for _, _, h in heroes)
    usual = totals.most_common(1)[0][0]
    for f, i, h in heroes:
        total = sum(h.bonuses.values())
        if total != usual:
            yield G_HERO_TOTAL.at(
                f.rel,
                _at(f, "cards", i, "bonuses"),
                f"{h.id}'s bonuses sum to {total}; the other heroes' sum to {usual}",
            )
    shapes = {t: sorted(h.bonuses.get(t, 0) for _, _, h in heroes) for t in types}
    common = Counter(tuple(v) for v in shapes.values()).most_common(1)[0][0]
    manifest = game.manifest_file
    for index, t in enumerate(types):
        if tuple(shapes[t]) != common and manifest is not None:
            yield G_TYPE_BALANCE.at(
                manifest.rel,
                _at(manifest, "rules", "monster_types", index, "id"),
                f"type {t!r} gets hero bonuses {shapes[t]}, the others {list(common)}",
            )
    seats = min(meta.players.max, max(rules.solo_max_players, rules.max_teams))
    if len(heroes) < seats:
        f = heroes[0][0]
        yield G_HEROES.at(
            f.rel, _key_at(f, "cards"), f"{len(heroes)} heroes for up to {seats} seats (R14)"
        )


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


def check_spells(game: Game) -> Iterator[Diagnostic]:
    """V7–V9: targets match kinds, flags match kinds, every mode deals full hands."""
    meta, rules = _manifest(game)
    spells = [(f, i, s) for f, deck in _decks(game, "spells") for i, s in enumerate(deck.cards)]
    if not spells:
        return
    for f, i, s in spells:
        kind = s.effect.kind
        where = ("cards", i)
        if SPELL_TARGETS[kind] != s.target:
            yield G_TARGET.at(
                f.rel,
                _at(f, *where, "target"),
                f"{s.id}: a {kind} spell targets {SPELL_TARGETS[kind]}, not {s.target}",
            )
        wanted = {
            "gives_sips": kind in GIVES,
            "steals": kind in STEALS,
            "gold": kind in GIVES or kind in STEALS,
        }
        for flag, value in wanted.items():
            if getattr(s, flag) != value:
                yield G_FLAGS.at(
                    f.rel,
                    _at(f, *where, flag)
                    if f.doc and (*where, flag) in f.doc.spans
                    else _at(f, *where),
                    f"{s.id}: {flag} should be {str(value).lower()} for a {kind} spell",
                )
        if s.competitive_only and kind not in COMPETITIVE_ONLY_KINDS:
            yield G_FLAGS.at(
                f.rel,
                _at(f, *where, "competitive_only"),
                f"{s.id}: only {', '.join(sorted(COMPETITIVE_ONLY_KINDS))} are competitive_only",
            )
    seats = min(meta.players.max, max(rules.solo_max_players, rules.max_teams))
    need = rules.spells_per_seat * seats
    modes: dict[str, Callable[[Any], bool]] = {
        "cooperative": lambda s: not s.gold and not s.competitive_only,
        "no_drinking": lambda s: not s.gives_sips,
        "competitive": lambda s: True,
    }
    f = spells[0][0]
    for mode, keep in modes.items():
        count = sum(s.copies for _, _, s in spells if keep(s))
        if count < need:
            yield G_MODE_DECK.at(
                f.rel,
                _key_at(f, "cards"),
                f"{mode}: {count} spells left, {seats} seats × {rules.spells_per_seat} need {need}",
            )


def check_setup(game: Game) -> Iterator[Diagnostic]:
    """V10: every player count seats alone or in legal teams, one hero per seat."""
    manifest, rules = _manifest(game)
    heroes = sum(len(deck.cards) for _, deck in _decks(game, "heroes"))
    mf = game.manifest_file
    assert mf is not None
    for players in range(manifest.players.min, manifest.players.max + 1):
        try:
            seats = split_teams(
                players, rules.solo_max_players, tuple(rules.team_sizes), rules.max_teams
            )
        except ValueError as exc:
            yield G_SETUP.at(mf.rel, _at(mf, "players", "max"), str(exc))
            continue
        if heroes and len(seats) > heroes:
            yield G_SETUP.at(
                mf.rel, _at(mf, "players"), f"{players} players make {len(seats)} seats"
            )
    for index, size in enumerate(rules.team_sizes):
        if size < 2:
            yield G_SETUP.at(
                mf.rel, _at(mf, "rules", "team_sizes", index), f"a team of {size} is no team"
            )


def check_texts(game: Game) -> Iterator[Diagnostic]:
    """V11: every numeric spell parameter shows in its text, in every language (hand-written
    numbers are the generic T007's job)."""
    for loaded in game.decks:
        deck = loaded.model
        if deck is None or loaded.doc is None or deck.kind != "spells":
            continue
        for i, card in enumerate(deck.cards):
            if card.text:
                params = [
                    name
                    for name, value in card.effect.model_dump().items()
                    if isinstance(value, int) and not isinstance(value, bool)
                ]
                for lang, value in card.text.items():
                    shown = {name.rsplit(".", 1)[-1] for name in placeholders(value)}
                    for name in params:
                        if name not in shown:
                            yield G_HIDDEN_PARAM.at(
                                loaded.rel,
                                _at(loaded, "cards", i, "text", lang),
                                f"{card.id}: the {lang} text does not show {{{name}}}",
                            )


def run(game: Game) -> Iterable[Diagnostic]:
    """Every G check, when the manifest is valid."""
    if game.manifest is None:
        return []
    out: list[Diagnostic] = []
    for check in (check_heroes, check_monsters, check_spells, check_setup, check_texts):
        out.extend(check(game))
    return out


CHECKS = (run,)
