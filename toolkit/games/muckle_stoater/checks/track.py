"""The track's geometry: offsets inside one Mashie, Dock and Castle holes for every Laddie,
and a Mashie of its own for every seat (invariants 3, 4, 8)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.muckle_stoater.checks.base import _counts, _Where, check

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
G_SEATS = rule(
    "G309",
    "seat-geometry",
    "Every seat needs its own Mashie and at least one hole from start to entrance.",
)


@check(G_TRACK)
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


@check(G_HOLES)
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


@check(G_SEATS)
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
