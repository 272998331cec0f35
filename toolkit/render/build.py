"""`playset build`: every PDF of a game in each language, written atomically under --out.

cards.pdf (all decks: fronts then mirrored backs, or one card per page for print services),
questions.pdf (trivia), board.pdf and rulebook.pdf where the game has them. Nothing is written
outside `out`; a failure leaves the previous files in place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from toolkit.content.game import Game
from toolkit.content.models.deck import size_mm
from toolkit.fileio import atomic_write_bytes
from toolkit.render.layout import (
    DEFAULT_BACK,
    DEFAULT_FRONT,
    QUESTION_BACK,
    QUESTION_FRONT,
    Layout,
    load_layout,
)
from toolkit.render.pdf import PAPERS, pdf_canvas
from toolkit.render.sheets import draw_deck, draw_deck_per_card


class BuildError(Exception):
    """Something the user must fix (a layout, a paper name); exit 1 with this message."""


@dataclass
class BuildOptions:
    langs: list[str]
    paper: str = "a4"
    per_card: bool = False
    board_page: str | None = None


@dataclass
class Written:
    path: Path


def _layout(name: str) -> Layout:
    layout, diags = load_layout(name)
    if layout is None:
        detail = "; ".join(f"{d.file}:{d.line}:{d.col} {d.message}" for d in diags)
        raise BuildError(f"layout {name!r} is unusable: {detail or 'not found'}")
    return layout


def question_deck(bank: Any) -> Any:
    """A question bank as a deck of trivia cards (poker size, question on the front, answer
    on the back): what questions.pdf prints and the live preview shows."""
    return SimpleNamespace(
        id=bank.id,
        kind="questions",
        name=bank.name,
        size="poker",
        layout=None,
        back=None,
        cards=bank.questions,
    )


def _question_decks(game: Game) -> list[Any]:
    return [question_deck(bank) for bank in game.valid(game.questions)]


def _cards_pdf(game: Game, decks: list[Any], lang: str, opts: BuildOptions, trivia: bool) -> bytes:
    page = PAPERS[opts.paper]
    title = f"{game.manifest.title.get(lang, game.id)}"
    with pdf_canvas(page, title) as (canvas, buffer):
        for deck in decks:
            if trivia:
                front, back = _layout(QUESTION_FRONT), _layout(QUESTION_BACK)
                card_mm = (63.0, 88.0)
            else:
                front = _layout(deck.layout or DEFAULT_FRONT)
                back = _layout(deck.back or DEFAULT_BACK)
                card_mm = size_mm(deck.size)
            if opts.per_card:
                draw_deck_per_card(canvas, game, deck, front, back, lang, card_mm, trivia)
            else:
                draw_deck(canvas, game, deck, front, back, lang, page, card_mm, title, trivia)
        canvas.save()
        return buffer.getvalue()


def build_game(
    game: Game, out: Path, opts: BuildOptions, report: Callable[[Written], None] | None = None
) -> list[Written]:
    """Write every PDF of `game` for each language under out/<game>/<lang>/."""
    if opts.paper not in ("a4", "letter"):
        raise BuildError(f"paper must be a4 or letter, not {opts.paper!r}")
    if opts.board_page and opts.board_page not in PAPERS:
        raise BuildError(f"board page must be one of {', '.join(PAPERS)}")
    written: list[Written] = []

    def emit(path: Path, data: bytes) -> None:
        atomic_write_bytes(path, data)
        item = Written(path)
        written.append(item)
        if report:
            report(item)

    for lang in opts.langs:
        folder = out / game.id / lang
        decks = game.valid(game.decks)
        if decks:
            emit(folder / "cards.pdf", _cards_pdf(game, decks, lang, opts, trivia=False))
        questions = _question_decks(game)
        if questions:
            emit(folder / "questions.pdf", _cards_pdf(game, questions, lang, opts, trivia=True))
        boards = game.valid(game.boards)
        if boards:
            from toolkit.render.boards import render_board

            for board in boards:
                name = "board.pdf" if len(boards) == 1 else f"board-{board.id}.pdf"
                emit(folder / name, render_board(game, board, lang, opts.paper, opts.board_page))
        if lang in game.rulebook:
            from toolkit.content.game import display_path
            from toolkit.render.rulebook import render_rulebook
            from toolkit.render.rulebook_source import RulebookError

            try:
                data = render_rulebook(game, lang, opts.paper)
            except RulebookError as exc:
                where = f"{display_path(game.rulebook[lang])}:{exc.line}"
                raise BuildError(f"{where}: {exc} (run `playset validate`)") from exc
            emit(folder / "rulebook.pdf", data)
    return written
