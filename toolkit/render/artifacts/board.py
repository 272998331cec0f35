"""board.pdf (board-<id>.pdf with several boards): each board tiled over the paper with
overlap and alignment marks, or whole on one large page (`--board-page`)."""

from __future__ import annotations

from typing import Any

from toolkit.render.artifacts import Artifact, BuildOptions, Files, Setting, register

BOARD_PAGE = Setting("board_page", "Whole board on one page: a3, a2, a1.", ("a3", "a2", "a1"))


def files(game: Any, lang: str, opts: BuildOptions) -> Files:
    boards = game.valid(game.boards)
    if not boards:
        return []
    from reportlab.lib.units import mm

    from toolkit.render.boards import render_board
    from toolkit.render.sheets import BLEED_MM

    bleed = BLEED_MM * mm if opts.press else 0.0
    out: Files = []
    for board in boards:
        name = "board.pdf" if len(boards) == 1 else f"board-{board.id}.pdf"
        page = opts.setting(BOARD_PAGE.name)
        out.append((name, render_board(game, board, lang, opts.paper, page, bleed)))
    return out


BOARD = register(
    Artifact(
        "board",
        "`board.pdf` (`board-<id>.pdf` per board): tiled over the paper, or on one large page.",
        files,
        (BOARD_PAGE,),
        order=30,
    )
)
