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

TRACK = register_board_kind(
    BoardKind("track", TrackBoard, draw, summary, order=20, phrases=PHRASES)
)
