"""Board PDFs: draw a board from its data, then tile it over sheets or put it on one page.

Each board kind (graph, track, road, score track: `toolkit.boards`, and any a package
registers) has its own drawer; this module finds it in the registry, gives it the board's look
in the chosen language (`look.py`) and hands the drawings to the tiler.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from toolkit.content.game import Game
from toolkit.content.models.board import BOARD_KINDS, board_kinds
from toolkit.registry import same_folder
from toolkit.render.boards.look import Look, look_for, one_drawing
from toolkit.render.tiling import Drawing, poster_pdf, tiled_pdf

Drawer = Callable[[Any, Look], list[Drawing]]


def board_look(game: Game, board: Any, lang: str) -> Look:
    """The look `board` is drawn with in `lang`."""
    entry = board_kinds().get(board.kind)
    kinds = entry.space_kinds(board) if entry else []
    return look_for(game, board, lang, kinds, entry.phrases if entry else None)


def build_drawings(game: Game, board: Any, lang: str) -> list[Drawing]:
    """The board's drawings in their own coordinates, at poster size: one for most boards,
    one per table arrangement for a track of segments."""
    entry = board_kinds().get(getattr(board, "kind", ""))
    if entry is None:
        raise TypeError(f"not a registered board kind: {getattr(board, 'kind', board)!r}")
    look = board_look(game, board, lang)
    if BOARD_KINDS.is_builtin(entry.kind):
        return [replace(d, draw=_bounded(d.draw)) for d in entry.draw(board, look)]
    with same_folder():  # a plugin's kind: its os.chdir does not move the build
        drawings = entry.draw(board, look)
    return [replace(d, draw=_bounded(_in_same_folder(d.draw))) for d in drawings]


def _in_same_folder(draw: Callable[[Any], None]) -> Callable[[Any], None]:
    """A plugin's drawing callback, run in the working folder it was called in."""

    def run(canvas: Any) -> None:
        with same_folder():
            draw(canvas)

    return run


def _bounded(draw: Callable[[Any], None]) -> Callable[[Any], None]:
    """A drawing callback whose icons, each time it draws, weigh at most
    `look.MAX_DRAWING_ICON_WEIGHT` together (past it, a space is drawn without its icon)."""

    def run(canvas: Any) -> None:
        with one_drawing(canvas):
            draw(canvas)

    return run


def render_board(
    game: Game,
    board: Any,
    lang: str,
    paper: str = "a4",
    board_page: str | None = None,
    bleed: float = 0.0,
) -> bytes:
    """A board's PDF: tiled over `paper` with an assembly page per drawing, or each drawing
    whole on a page of `board_page`. With `bleed` (points, the press profile) the board goes
    whole on `board_page` (A2 by default) with bleed, TrimBox and BleedBox."""
    drawings = build_drawings(game, board, lang)
    look = board_look(game, board, lang)
    faces = (look.face("regular"), look.face("bold"))
    name = board.name.get(lang, "") or drawings[0].title
    game_title = game.manifest.title.get(lang, "") if game.manifest else ""
    doc_title = f"{game_title} — {name}" if game_title else name
    if bleed:
        from toolkit.render.tiling import POSTER

        return poster_pdf(drawings, board_page or POSTER, doc_title, bleed, faces[0])
    if board_page:
        return poster_pdf(drawings, board_page, doc_title, face=faces[0])
    return tiled_pdf(drawings, paper, lang, doc_title, faces)
