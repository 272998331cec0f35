"""What each player count needs: packs, Mashies, a hand that leaves a draw pile, partners
for team play, the simulation's round cap (invariants 1, 2, 7, 9, 10), and cards enough to
bring every Laddie home."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.muckle_stoater.checks.base import _counts, _Where, check
from toolkit.games.muckle_stoater.constants import MAX_PACKS

G_PACKS = rule(
    "G301",
    "packs-by-players",
    f"packs_by_players needs an entry of 1 to {MAX_PACKS} packs for every player count.",
)
G_MASHIES = rule(
    "G302",
    "mashies-by-players",
    "Mashies for P players must be at least P, a multiple of P, and no more than in the box.",
)
G_HAND = rule(
    "G308",
    "hand-size",
    "hand_size x players must stay below the number of cards, or the draw pile starts empty.",
)
G_TEAMS = rule(
    "G310",
    "team-counts",
    "Team play needs an even player count within the game's players, partners opposite.",
)
G_ROUNDS = rule("G311", "max-rounds", "max_rounds must be at least 1 (the simulation cap).")
G_ENDLESS = rule(
    "G313",
    "game-can-end",
    "With draw_per_turn 0, hand_size must hold the cards a player needs to bring every Laddie"
    " home, or no game can end.",
)


@check(G_PACKS)
def check_packs(game: Game) -> Iterator[Diagnostic]:
    """Invariant 1: a pack count of at least 1 for every player count, and no entry over
    MAX_PACKS (the engine's setup builds the shuffled deck of every pack)."""
    where = _Where(game)
    packs = where.rules.packs_by_players
    for p in _counts(where):
        if p not in packs:
            yield where.at(
                G_PACKS,
                where.manifest,
                ("rules", "packs_by_players"),
                f"no entry for {p} players",
                key=True,
            )
        elif packs[p] < 1:
            yield where.at(
                G_PACKS,
                where.manifest,
                ("rules", "packs_by_players", p),
                f"{p} players get {packs[p]} packs; at least 1 is needed",
            )
    for p, n in packs.items():
        if n > MAX_PACKS:
            yield where.at(
                G_PACKS,
                where.manifest,
                ("rules", "packs_by_players", p),
                f"{p} players get {n} packs; at most {MAX_PACKS} (the box plays with 2 or 3)",
            )


@check(G_MASHIES)
def check_mashies(game: Game) -> Iterator[Diagnostic]:
    """Invariant 2: Mashies per player count fit the seats and the box."""
    where = _Where(game)
    if where.board is None:
        return
    board = where.board.model
    for p in _counts(where):
        m = board.segments_by_players.get(p)
        if m is None:
            yield where.at(
                G_MASHIES,
                where.board,
                ("segments_by_players",),
                f"no entry for {p} players",
                key=True,
            )
            continue
        path = ("segments_by_players", p)
        if m < p or m % p:
            yield where.at(
                G_MASHIES,
                where.board,
                path,
                f"{m} Mashies cannot seat {p} players evenly (need a multiple of {p})",
            )
        if m > board.segments_in_box:
            yield where.at(
                G_MASHIES,
                where.board,
                path,
                f"{m} Mashies for {p} players, but the box holds {board.segments_in_box}",
            )


def _total_cards(where: _Where, deck: Any, players: int) -> int:
    packs = where.rules.packs_by_players.get(players, 0)
    return packs * sum(card.copies for card in deck.cards)


@check(G_HAND)
def check_hand(game: Game) -> Iterator[Diagnostic]:
    """Invariant 7: the deal leaves a draw pile for every player count."""
    where = _Where(game)
    if where.deck is None:
        return
    hand = where.rules.hand_size
    for p in _counts(where):
        total = _total_cards(where, where.deck.model, p)
        if total and hand * p >= total:
            yield where.at(
                G_HAND,
                where.manifest,
                ("rules", "hand_size"),
                f"{p} players x {hand} cards = {hand * p}, but the game has only {total} cards",
            )


@check(G_TEAMS)
def check_teams(game: Game) -> Iterator[Diagnostic]:
    """Invariant 9: team counts are even and playable (partners at i and i + P/2)."""
    where = _Where(game)
    rules = where.rules
    low, high = where.manifest.model.players.min, where.manifest.model.players.max

    def bad(p: int) -> str | None:
        if p % 2:
            return f"{p} players cannot pair into partners sitting opposite"
        if not low <= p <= high:
            return f"{p} players is outside the game's {low}-{high}"
        return None

    for i, p in enumerate(rules.team_players):
        problem = bad(p)
        if problem:
            yield where.at(G_TEAMS, where.manifest, ("rules", "team_players", i), problem)
    for vi, variant in enumerate(where.manifest.model.variants):
        if variant.id != "teams":
            continue
        for j, p in enumerate(variant.players):
            problem = bad(p) or (
                None if p in rules.team_players else f"{p} is not in rules.team_players"
            )
            if problem:
                yield where.at(G_TEAMS, where.manifest, ("variants", vi, "players", j), problem)


@check(G_ROUNDS)
def check_rounds(game: Game) -> Iterator[Diagnostic]:
    """Invariant 10: a positive simulation cap (the engine's declared maximum length)."""
    where = _Where(game)
    if where.rules.max_rounds < 1:
        yield where.at(G_ROUNDS, where.manifest, ("rules", "max_rounds"), "must be at least 1")


def cards_to_finish(laddies: int) -> int:
    """The fewest cards that bring `laddies` Laddies from the Dock into the Castle: one each
    to leave the Dock (a Laddie leaves onto the track, a Bonnie Fechter too), and one move for
    every two to enter the Castle (a 7 split moves two). Nothing else puts a Laddie there:
    a capture sends it to its Dock, a partner's landing to its entrance (R7, R9, R15)."""
    return laddies + (laddies + 1) // 2


@check(G_ENDLESS)
def check_can_end(game: Game) -> Iterator[Diagnostic]:
    """With no draw a player plays at most the cards dealt, so a hand smaller than
    `cards_to_finish` can never bring a player home (nor a team: two hands for twice the
    Laddies), and every game runs to the round cap. A draw of 1 or more recycles the
    discards (R13): cards never run out."""
    where = _Where(game)
    rules = where.rules
    need = cards_to_finish(rules.laddies_per_player)
    if rules.draw_per_turn == 0 and rules.hand_size < need:
        yield where.at(
            G_ENDLESS,
            where.manifest,
            ("rules", "draw_per_turn"),
            f"with no card drawn a player plays only the {rules.hand_size} cards dealt, but"
            f" bringing {rules.laddies_per_player} Laddies home takes at least {need}"
            " (one each to leave the Dock, one for every two to enter the Castle): no game"
            " can end; draw at least 1 a turn",
        )
