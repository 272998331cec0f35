"""The score track: numbered squares around the edge of a page."""

from __future__ import annotations

from typing import Any

from toolkit.content.models.board import BoardKind, register_board_kind
from toolkit.content.models.score_track import ScoreTrackBoard


def draw(board: ScoreTrackBoard, look: Any) -> list[Any]:
    from toolkit.render.boards import score_track

    return score_track.draw(board, look)


def phrase(board: ScoreTrackBoard, lang: str) -> str:
    from toolkit.render.boards import score_track

    return score_track.phrase(board, lang)


def problems(board: ScoreTrackBoard) -> list[tuple[tuple[str | int, ...], str]]:
    from toolkit.render.boards import score_track

    return score_track.problems(board)


def icon_uses(board: ScoreTrackBoard, look: Any) -> list[Any]:
    """Each numbered square's icon, drawn once at its square's size."""
    from toolkit.render.boards import score_track

    return score_track.icon_uses(board, look)


SCORE_TRACK = register_board_kind(
    BoardKind(
        "score_track",
        ScoreTrackBoard,
        draw,
        lambda b: f"{b.count} squares, {b.start}–{b.last}",
        lambda b: ["square", "fifth"],
        phrase,
        problems,
        order=40,
        icon_uses=icon_uses,
    )
)
