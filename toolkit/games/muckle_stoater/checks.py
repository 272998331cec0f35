"""G checks of Muckle Stoater content: the validator invariants of spec §4 (1–10), each
reported at the YAML node to fix. They run after the schema checks passed, on valid models.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolkit.content.checked import CheckedGame
from toolkit.content.game import Game, ValidFile
from toolkit.content.plugin import guarded_check
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.games.muckle_stoater.models import MuckleRules

G_PACKS = rule(
    "G301",
    "packs-by-players",
    "packs_by_players needs an entry of at least 1 pack for every player count.",
)
G_MASHIES = rule(
    "G302",
    "mashies-by-players",
    "Mashies for P players must be at least P, a multiple of P, and no more than in the box.",
)
G_TRACK = rule(
    "G303",
    "track-geometry",
    "Start and entrance offsets must be distinct holes of one Mashie (track = Mashies x holes).",
)
G_HOLES = rule(
    "G304",
    "dock-castle-laddies",
    "Dock holes and Castle holes must both equal laddies_per_player.",
)
G_EFFECTS = rule(
    "G305",
    "rank-effects",
    "Every rank of the pack (and JOKER when jokers > 0) needs exactly one card with effects.",
)
G_SPLIT = rule(
    "G306",
    "split-total",
    "A split_steps total must equal the move_steps of the same rank, in 2 parts.",
)
G_LEAVE = rule("G307", "leave-dock-rank", "At least one rank must have a leave_dock effect.")
G_HAND = rule(
    "G308",
    "hand-size",
    "hand_size x players must stay below the number of cards, or the draw pile starts empty.",
)
G_SEATS = rule(
    "G309",
    "seat-geometry",
    "Every seat needs its own Mashie and at least one hole from start to entrance.",
)
G_TEAMS = rule(
    "G310",
    "team-counts",
    "Team play needs an even player count within the game's players, partners opposite.",
)
G_ROUNDS = rule("G311", "max-rounds", "max_rounds must be at least 1 (the simulation cap).")
G_COPIES = rule(
    "G312",
    "pack-copies",
    "A rank's copies per pack should equal pack.suits (jokers: pack.jokers).",
    Severity.WARNING,
)

JOKER = "JOKER"
Path = tuple[str | int, ...]


class _Where(CheckedGame[MuckleRules]):
    """The game's three files, and diagnostics at paths inside them."""

    def __init__(self, game: Game) -> None:
        from toolkit.content.models.board import TrackBoard  # board models load on first use

        super().__init__(game, MuckleRules)
        # deck models are built per plugin at run time (GamePlugin.deck_models): no static type
        self.deck: ValidFile[Any] | None = next(
            (
                ValidFile(f.rel, f.doc, f.model)
                for f in game.decks
                if getattr(f.model, "kind", "") == "pack"
            ),
            None,
        )
        boards = (ValidFile.of(f, TrackBoard) for f in game.boards)
        self.board = next((b for b in boards if b is not None), None)


def _counts(where: _Where) -> range:
    players = where.manifest.model.players
    return range(players.min, players.max + 1)


def check_packs(game: Game) -> Iterator[Diagnostic]:
    """Invariant 1: a pack count of at least 1 for every player count."""
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


def check_track(game: Game) -> Iterator[Diagnostic]:
    """Invariant 3: offsets inside one Mashie and distinct (the track length is derived as
    Mashies x holes_per_segment, so it always matches)."""
    where = _Where(game)
    if where.board is None:
        yield where.at(G_TRACK, where.manifest, ("files", "boards"), "no board of kind 'track'")
        return
    board = where.board.model
    holes = board.holes_per_segment
    for name in ("start_offset", "entrance_offset"):
        value = getattr(board, name)
        if value >= holes:
            yield where.at(
                G_TRACK, where.board, (name,), f"{name} {value} is past the {holes} holes"
            )
    if board.start_offset == board.entrance_offset:
        yield where.at(
            G_TRACK,
            where.board,
            ("entrance_offset",),
            "the Castle entrance is the start hole; they must differ",
        )


def check_holes(game: Game) -> Iterator[Diagnostic]:
    """Invariant 4: Dock = Castle = Laddies, so "all home" means "Castle full"."""
    where = _Where(game)
    if where.board is None:
        return
    laddies = where.rules.laddies_per_player
    for name, label in (("pen_holes", "Dock"), ("home_holes", "Castle")):
        value = getattr(where.board.model, name)
        if value != laddies:
            yield where.at(
                G_HOLES,
                where.board,
                (name,),
                f"{label} has {value} holes but each player has {laddies} Laddies",
            )


def _ranks(where: _Where) -> list[str]:
    pack = where.rules.pack
    return list(pack.ranks) + ([JOKER] if pack.jokers > 0 else [])


def check_effects(game: Game) -> Iterator[Diagnostic]:
    """Invariant 5a: every rank has one card with effects; step counts are positive."""
    where = _Where(game)
    if where.deck is None:
        yield where.at(G_EFFECTS, where.manifest, ("files", "decks"), "no deck of kind 'pack'")
        return
    cards = where.deck.model.cards
    wanted = _ranks(where)
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        if card.rank not in wanted:
            yield where.at(
                G_EFFECTS,
                where.deck,
                ("cards", i, "rank"),
                f"rank {card.rank!r} is not in the pack (ranks: {', '.join(wanted)})",
            )
        elif card.rank in seen:
            yield where.at(
                G_EFFECTS, where.deck, ("cards", i, "rank"), f"rank {card.rank!r} appears twice"
            )
        seen.setdefault(card.rank, i)
        for j, eff in enumerate(card.effects):
            for field in ("steps", "total"):
                value = getattr(eff, field, None)
                if value is not None and value < 1:
                    yield where.at(
                        G_EFFECTS,
                        where.deck,
                        ("cards", i, "effects", j, field),
                        f"{field} must be a positive number, not {value}",
                    )
    ranks = where.rules.pack.ranks
    for i, rank in enumerate(ranks):
        if rank not in seen:
            yield where.at(
                G_EFFECTS,
                where.manifest,
                ("rules", "pack", "ranks", i),
                f"rank {rank!r} has no card (and so no effect) in the pack deck",
            )
    if JOKER in wanted and JOKER not in seen:
        yield where.at(
            G_EFFECTS,
            where.manifest,
            ("rules", "pack", "jokers"),
            f"the pack has jokers but the pack deck has no {JOKER} card",
        )


def check_split(game: Game) -> Iterator[Diagnostic]:
    """Invariant 5b: a split uses exactly the rank's own move, in two parts."""
    where = _Where(game)
    if where.deck is None:
        return
    for i, card in enumerate(where.deck.model.cards):
        moves = [e.steps for e in card.effects if e.kind == "move_steps"]
        for j, eff in enumerate(card.effects):
            if eff.kind != "split_steps":
                continue
            if eff.parts != 2:
                yield where.at(
                    G_SPLIT, where.deck, ("cards", i, "effects", j, "parts"), "parts must be 2"
                )
            if not moves:
                yield where.at(
                    G_SPLIT,
                    where.deck,
                    ("cards", i, "effects", j),
                    f"rank {card.rank!r} splits but has no move_steps to split",
                )
            elif eff.total not in moves:
                yield where.at(
                    G_SPLIT,
                    where.deck,
                    ("cards", i, "effects", j, "total"),
                    f"split total {eff.total} differs from the rank's move of {moves[0]}",
                )


def check_leave(game: Game) -> Iterator[Diagnostic]:
    """Invariant 6: someone must be able to leave the Dock."""
    where = _Where(game)
    if where.deck is None:
        return
    if not any(e.kind == "leave_dock" for c in where.deck.model.cards for e in c.effects):
        yield where.at(
            G_LEAVE,
            where.deck,
            ("cards",),
            "no rank has leave_dock: no Laddie can ever start",
            key=True,
        )


def _total_cards(where: _Where, deck: Any, players: int) -> int:
    packs = where.rules.packs_by_players.get(players, 0)
    return packs * sum(card.copies for card in deck.cards)


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


def check_seats(game: Game) -> Iterator[Diagnostic]:
    """Invariant 8: distinct seat Mashies, and start → entrance at least one hole."""
    where = _Where(game)
    if where.board is None:
        return
    board = where.board.model
    holes = board.holes_per_segment
    if board.start_offset == board.entrance_offset:
        return  # G303 reports it
    for p in _counts(where):
        m = board.segments_by_players.get(p)
        if m is None or m < p or m % p:
            continue  # G302 reports it
        mashies = [i * (m // p) for i in range(p)]
        length = m * holes
        if len(set(mashies)) != p:
            yield where.at(
                G_SEATS, where.board, ("segments_by_players", p), f"seats share a Mashie ({p}p)"
            )
        for seat, mashie in enumerate(mashies):
            start = mashie * holes + board.start_offset
            gate = mashie * holes + board.entrance_offset
            if (gate - start) % length < 1:
                yield where.at(
                    G_SEATS,
                    where.board,
                    ("entrance_offset",),
                    f"seat {seat} ({p} players): no hole between start and Castle entrance",
                )
                break


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


def check_rounds(game: Game) -> Iterator[Diagnostic]:
    """Invariant 10: a positive simulation cap (the engine's declared maximum length)."""
    where = _Where(game)
    if where.rules.max_rounds < 1:
        yield where.at(G_ROUNDS, where.manifest, ("rules", "max_rounds"), "must be at least 1")


def check_copies(game: Game) -> Iterator[Diagnostic]:
    """Copies per pack agree with the pack's suits and jokers (the engine uses copies)."""
    where = _Where(game)
    if where.deck is None:
        return
    pack = where.rules.pack
    for i, card in enumerate(where.deck.model.cards):
        want = pack.jokers if card.rank == JOKER else pack.suits
        if card.copies != want:
            what = "jokers" if card.rank == JOKER else "suits"
            yield where.at(
                G_COPIES,
                where.deck,
                ("cards", i, "copies"),
                f"{card.copies} copies per pack, but pack.{what} is {want}",
            )


_guarded = guarded_check  # valid content only; no manifest, no findings


CHECKS = tuple(
    _guarded(c)
    for c in (
        check_packs,
        check_mashies,
        check_track,
        check_holes,
        check_effects,
        check_split,
        check_leave,
        check_hand,
        check_seats,
        check_teams,
        check_rounds,
        check_copies,
    )
)
