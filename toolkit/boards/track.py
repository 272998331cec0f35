"""The track board: identical segments joined into a loop, a start and a home per seat."""

from __future__ import annotations

from typing import Any

from toolkit.content.models.board import BoardKind, TrackBoard, register_board_kind


def draw(board: TrackBoard, look: Any) -> list[Any]:
    from toolkit.render.boards import track

    return track.draw(board, look)


def summary(board: TrackBoard) -> str:
    return f"{board.segments_in_box}×{board.holes_per_segment} holes"


TRACK = register_board_kind(BoardKind("track", TrackBoard, draw, summary, order=20))
