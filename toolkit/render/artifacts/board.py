"""board.pdf (board-<id>.pdf with several boards): each board tiled over the paper with
overlap and alignment marks, or whole on one large page (`--board-page`)."""

from __future__ import annotations

from typing import Any

from toolkit.render.artifacts import (
    Artifact,
    BuildError,
    BuildOptions,
    Part,
    Parts,
    Setting,
    Shows,
    drawn,
    register,
)

BOARD_PAGE = Setting("board_page", "Whole board on one page: a3, a2, a1.", ("a3", "a2", "a1"))


def parts(game: Any, lang: str, opts: BuildOptions) -> Parts:
    boards = game.valid(game.boards)
    if not boards:
        return []

    def part(name: str, board: Any) -> Part:
        return Part(
            name,
            lambda: _board_pdf(game, board, lang, opts),
            Shows(board=board),
        )

    return [
        part("board.pdf" if len(boards) == 1 else f"board-{board.id}.pdf", board)
        for board in boards
    ]


def _board_pdf(game: Any, board: Any, lang: str, opts: BuildOptions) -> bytes:
    from reportlab.lib.units import mm

    from toolkit.render.boards import render_board
    from toolkit.render.sheets import BLEED_MM

    bleed = BLEED_MM * mm if opts.press else 0.0
    page = opts.setting(BOARD_PAGE.name)
    try:
        return render_board(game, board, lang, opts.paper, page, bleed)
    except ValueError as exc:  # a drawer refusing its data (a phrase past its bound)
        raise BuildError(
            f"{_board_file(game, board)} ({lang}): {exc} (run `playset validate`)"
        ) from exc


def _board_file(game: Any, board: Any) -> str:
    """The board file `board` was read from, as findings name it."""
    for loaded in game.boards:
        if loaded.model is board:
            return str(loaded.rel)
    return f"board {getattr(board, 'id', '?')!r}"


BOARD = register(
    Artifact(
        "board",
        "`board.pdf` (`board-<id>.pdf` per board): tiled over the paper, or on one large page.",
        drawn(parts),
        (BOARD_PAGE,),
        order=30,
        parts=parts,
    )
)
