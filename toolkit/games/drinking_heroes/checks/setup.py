"""The seating: every player count seats alone or in legal teams, one hero per seat (V10)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.drinking_heroes.checks.base import _at, _decks, _manifest, check
from toolkit.games.drinking_heroes.tables import split_teams

G_SETUP = rule("G211", "seat-setup", "A player count cannot be seated (teams, heroes).")


@check(G_SETUP)
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
