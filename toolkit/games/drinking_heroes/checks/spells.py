"""The spells: targets and flags that match each kind, and a deck that deals every seat's
hand in every mode (V7–V9)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.drinking_heroes.checks.base import _at, _decks, _key_at, _manifest, check
from toolkit.games.drinking_heroes.models import SPELL_TARGETS

G_TARGET = rule("G208", "spell-target", "A spell's target does not match its kind.")
G_FLAGS = rule("G209", "spell-flags", "A spell's gold/gives_sips/steals/competitive flags are off.")
G_MODE_DECK = rule(
    "G210", "mode-deck-size", "A mode's filtered spell deck cannot deal every seat's hand."
)


GIVES = {"give_sips", "give_sips_all"}
STEALS = {"steal_monster", "steal_spell"}
COMPETITIVE_ONLY_KINDS = {"double_points", "curse"}


@check(G_TARGET, G_FLAGS, G_MODE_DECK)
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
