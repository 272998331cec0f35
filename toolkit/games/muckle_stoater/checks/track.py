"""The track's geometry: start and entrance distinct, Dock and Castle holes for every Laddie
(invariants 3, 4). Offsets inside one Mashie, hence a Mashie of its own and a hole from start
to entrance for every seat (invariant 8, G309 before), are any track's P016 now."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.muckle_stoater.checks.base import _Where, check

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


@check(G_TRACK)
def check_track(game: Game) -> Iterator[Diagnostic]:
    """Invariant 3: offsets inside one Mashie and distinct (the track length is derived as
    Mashies x holes_per_segment, so it always matches)."""
    where = _Where(game)
    if where.board is None:
        yield where.at(G_TRACK, where.manifest, ("files", "boards"), "no board of kind 'track'")
        return
    board = where.board.model
    # an offset past its segment is P016 of any track (track_room.lane_problems)
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
