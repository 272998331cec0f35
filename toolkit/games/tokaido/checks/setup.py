"""The rules constants and player counts of the published game (V12, V13)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.tokaido.checks.base import _Where, check
from toolkit.games.tokaido.checks.published import PUBLISHED

G_CONSTANTS = rule(
    "G412",
    "rules-constants",
    "Farm, temple, encounter and meal-draw numbers equal the published rules (V12).",
)

G_PLAYERS = rule(
    "G413",
    "player-counts",
    "2-5 players; 2 players add the neutral traveller; enough tiles to deal; second slots from "
    "4 players, as on the board (V13).",
)


@check(G_CONSTANTS)
def check_constants(game: Game) -> Iterator[Diagnostic]:
    """V12: farm, temple, village, meal draw and encounter numbers."""
    where = _Where(game)
    rules = where.rules
    for name, want in PUBLISHED["rules"].items():
        value = getattr(rules, name)
        if value != want:
            yield where.at(
                G_CONSTANTS, where.manifest, ("rules", name), f"{name} is {want} in the rules"
            )
    if rules.temple_min > rules.temple_max:
        yield where.at(
            G_CONSTANTS,
            where.manifest,
            ("rules", "temple_min"),
            f"temple_min {rules.temple_min} is above temple_max {rules.temple_max}",
        )
    deck = where.deck("encounters")
    if deck is None:
        return
    for i, card in enumerate(deck.model.cards):
        eff = card.effect
        want = PUBLISHED["effects"].get(eff.kind, {})
        if eff.kind == "temple_coin":
            want = PUBLISHED["miko"]
        for field, value in want.items():
            if getattr(eff, field) != value:
                yield where.at(
                    G_CONSTANTS,
                    deck,
                    ("cards", i, "effect", field),
                    f"{card.id}'s {field} is {value} in the rules",
                )


@check(G_PLAYERS)
def check_players(game: Game) -> Iterator[Diagnostic]:
    """V13: player counts, the neutral traveller, tiles to deal, second slots."""
    where = _Where(game)
    manifest = where.manifest.model
    rules = where.rules
    low, high = PUBLISHED["players"]
    if (manifest.players.min, manifest.players.max) != (low, high):
        yield where.at(
            G_PLAYERS, where.manifest, ("players",), f"Tokaido plays with {low}-{high}", key=True
        )
    if sorted(rules.neutral_traveller_players) != PUBLISHED["neutral_players"]:
        yield where.at(
            G_PLAYERS,
            where.manifest,
            ("rules", "neutral_traveller_players"),
            "the neutral traveller joins 2-player games, and only those",
        )
    if rules.double_spaces_from != PUBLISHED["doubles_from"]:
        yield where.at(
            G_PLAYERS,
            where.manifest,
            ("rules", "double_spaces_from"),
            f"second slots open at {PUBLISHED['doubles_from']} players",
        )
    deck = where.deck("travellers")
    if deck is not None:
        tiles = sum(c.copies for c in deck.model.cards)
        if rules.travellers_dealt * manifest.players.max > tiles:
            yield where.at(
                G_PLAYERS,
                where.manifest,
                ("rules", "travellers_dealt"),
                f"{rules.travellers_dealt} tiles each for {manifest.players.max} players, "
                f"but there are {tiles}",
            )
