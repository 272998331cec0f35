"""The heroes: equal bonus totals, the same bonuses for every monster type, and a hero for
every seat (V1, V2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.drinking_heroes.checks.base import _at, _decks, _key_at, _manifest, check

G_HERO_TOTAL = rule("G201", "hero-bonus-total", "Heroes' bonuses do not all sum to the same total.")
G_TYPE_BALANCE = rule(
    "G202", "type-bonus-balance", "A monster type gets other hero bonuses than the rest."
)
G_HEROES = rule("G203", "too-few-heroes", "Fewer heroes than the most seats a game can have.")


@check(G_HERO_TOTAL, G_TYPE_BALANCE, G_HEROES)
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
