"""The graph board: named spaces joined by links, drawn as a map."""

from __future__ import annotations

from typing import Any

from toolkit.content.models.board import BoardKind, GraphBoard, register_board_kind


def printed_names(board: Any, look: Any) -> Any:
    from toolkit.render.boards import graph

    return graph.printed_names(board, look)


def draw(board: GraphBoard, look: Any) -> list[Any]:
    from toolkit.render.boards import graph

    return graph.draw(board, look)


def icon_uses(board: GraphBoard, look: Any) -> list[Any]:
    from toolkit.render.boards import graph

    return graph.icon_uses(board, look)


def drawn_problems(board: GraphBoard, look: Any, laid_out: bool) -> list[Any]:
    from toolkit.render.boards import graph

    return list(graph.problems(board, look, laid_out))


GRAPH = register_board_kind(
    BoardKind(
        "graph",
        GraphBoard,
        draw,
        lambda b: f"{len(b.spaces)} spaces",
        lambda b: list(dict.fromkeys(s.kind for s in b.spaces)),
        printed_names=printed_names,
        order=10,
        drawn_problems=drawn_problems,
        icon_uses=icon_uses,
    )
)
