"""The track board: identical segments joined into a loop, a start and a home per seat."""

from __future__ import annotations

from typing import Any

from toolkit.content.models.board import BoardKind, TrackBoard, register_board_kind


def draw(board: TrackBoard, look: Any) -> list[Any]:
    from toolkit.render.boards import track

    return track.draw(board, look)


def summary(board: TrackBoard) -> str:
    return f"{board.segments_in_box}×{board.holes_per_segment} holes"


PHRASES: dict[str, tuple[str, ...]] = {
    "players": ("n", "m", "segment"),
    "seats": ("n", "segment", "list"),
    "title": ("board", "m", "segment", "players"),
    "count": ("n",),
    "or": (),
}
"""The track's phrases and the names each fills: a player count `n` (in `count`, the counts
joined by `or`), the loop's `m` segments, the `segment`'s name, the seated segments' `list`,
the `board`'s name and the filled `count` as `players`."""


MAX_HOLES = 40_000
"""Holes a track board draws over all its loops (each hole a few PDF operators, tiled over
every sheet it touches): 16 loops of 49 to 64 segments of 500 holes drew 461,040 in 140 s
(30 MB)."""


def drawn_holes(board: TrackBoard) -> int:
    """Holes drawn over every table arrangement (a loop of at least 3 sides each)."""
    per_segment = board.holes_per_segment + board.pen_holes + board.home_holes
    loops = set(board.segments_by_players.values())
    return sum(max(segments, 3) * per_segment for segments in loops)


def problems(board: TrackBoard) -> list[tuple[tuple[str | int, ...], str]]:
    """A player count seated at more segments than the box holds, or at fewer than a loop
    needs, at the count; more holes than a board draws in a few seconds, at the counts; pens
    and home lanes that do not fit their segment, at their counts (P016)."""
    found: list[tuple[tuple[str | int, ...], str]] = [
        (
            ("segments_by_players", players),
            f"{players} players use {segments} segments, but the box holds"
            f" {board.segments_in_box} (`segments_in_box`)",
        )
        for players, segments in board.segments_by_players.items()
        if segments > board.segments_in_box
    ]
    found.extend(
        (
            ("segments_by_players", players),
            f"{players} players use {segments} segment{'s' if segments > 1 else ''}, but a"
            " loop needs at least 3 (it would be drawn, and titled, with 3)",
        )
        for players, segments in board.segments_by_players.items()
        if segments < 3
    )
    holes = drawn_holes(board)
    if holes > MAX_HOLES:
        found.append(
            (
                ("segments_by_players",),
                f"the board's {len(set(board.segments_by_players.values()))} loops draw"
                f" {holes:,} holes, at most {MAX_HOLES:,}: fewer holes a segment, or fewer"
                " loops of different sizes",
            )
        )
        return found  # too many holes to lay the loops out for what follows
    from toolkit.render.boards.track_room import lane_problems

    found.extend(lane_problems(board))
    return found


def player_counts(board: TrackBoard) -> list[tuple[tuple[str | int, ...], int]]:
    """Each player count the board seats, at its key."""
    return [(("segments_by_players", players), players) for players in board.segments_by_players]


def drawn_problems(board: TrackBoard, look: Any, laid_out: bool) -> list[Any]:
    from toolkit.render.boards import track

    return track.problems(board, look, laid_out)


TRACK = register_board_kind(
    BoardKind(
        "track",
        TrackBoard,
        draw,
        summary,
        problems=problems,
        player_counts=player_counts,
        order=20,
        phrases=PHRASES,
        drawn_problems=drawn_problems,
    )
)
