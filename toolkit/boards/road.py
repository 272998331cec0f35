"""The road board: a one-way road of stops, some of them stages that end a leg."""

from __future__ import annotations

from typing import Any

from toolkit.content.models.board import BoardKind, RoadBoard, register_board_kind


def printed_names(board: Any, look: Any) -> Any:
    from toolkit.render.boards import road

    return road.printed_names(board, look)


def draw(board: RoadBoard, look: Any) -> list[Any]:
    from toolkit.render.boards import road

    return road.draw(board, look)


def drawn_problems(board: RoadBoard, look: Any, laid_out: bool) -> list[Any]:
    from toolkit.render.boards import road

    return road.problems(board, look, laid_out)


PHRASES: dict[str, tuple[str, ...]] = {"leg": ("n",), "double": ("n",)}
"""The road's phrases and the names each fills: the leg's number, the player count from which
second slots open."""

ROAD = register_board_kind(
    BoardKind(
        "road",
        RoadBoard,
        draw,
        lambda b: f"{len(b.stops)} stops",
        lambda b: list(dict.fromkeys(s.kind for s in b.stops)),
        printed_names=printed_names,
        order=30,
        phrases=PHRASES,
        drawn_problems=drawn_problems,
    )
)
