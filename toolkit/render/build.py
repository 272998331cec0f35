"""`playset build`: every PDF of a game in each language, written atomically under --out.

cards.pdf (all decks: fronts then mirrored backs, or one card per page for print services),
questions.pdf (trivia), board.pdf and rulebook.pdf where the game has them. Nothing is written
outside `out`; a failure leaves the previous files of that language in place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from reportlab.lib.units import mm

from toolkit.content.game import Game
from toolkit.content.models.deck import size_mm
from toolkit.fileio import output_folder, write_many
from toolkit.render.layout import (
    DEFAULT_BACK,
    DEFAULT_FRONT,
    QUESTION_BACK,
    QUESTION_FRONT,
    Layout,
    load_layout,
)
from toolkit.render.pdf import PAPERS, pdf_canvas
from toolkit.render.sheets import BLEED_MM, PrintJob, draw_deck, draw_deck_per_card


class BuildError(Exception):
    """Something the user must fix (a layout, a paper name); exit 1 with this message."""


@dataclass
class BuildOptions:
    langs: list[str]
    paper: str = "a4"
    per_card: bool = False
    board_page: str | None = None
    press: bool = False  # boards and rulebooks with bleed, TrimBox and BleedBox too
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, right and up on every backs page


@dataclass
class Written:
    path: Path


def _layout(name: str, game: Game) -> Layout:
    layout, diags = load_layout(name, game.root)
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
                front, back = _layout(QUESTION_FRONT, game), _layout(QUESTION_BACK, game)
                card_mm = (63.0, 88.0)
            else:
                front = _layout(deck.layout or DEFAULT_FRONT, game)
                back = _layout(deck.back or DEFAULT_BACK, game)
                card_mm = size_mm(deck.size)
            job = PrintJob(
                game, deck, front, back, lang, card_mm, page, title, trivia, opts.back_offset
            )
            if opts.per_card:
                draw_deck_per_card(canvas, job)
            else:
                draw_deck(canvas, job)
        canvas.save()
        return buffer.getvalue()


def card_files(decks: list[Any], per_card: bool) -> list[tuple[str, list[Any]]]:
    """Which decks go in which cards file: all in cards.pdf, except one card per page (the
    press profile) with several card sizes, where print services want one trim size a file:
    cards-44x63.pdf, cards-70x120.pdf (sizes in mm, first-seen order)."""
    if not decks:
        return []
    groups: dict[tuple[float, float], list[Any]] = {}
    for deck in decks:
        groups.setdefault(size_mm(deck.size), []).append(deck)
    if not per_card or len(groups) == 1:
        return [("cards.pdf", list(decks))]
    return [(f"cards-{w:g}x{h:g}.pdf", group) for (w, h), group in groups.items()]


def build_game(
    game: Game, out: Path, opts: BuildOptions, report: Callable[[Written], None] | None = None
) -> list[Written]:
    """Write every PDF of `game` for each language under out/<game>/<lang>/."""
    if opts.paper not in ("a4", "letter"):
        raise BuildError(f"paper must be a4 or letter, not {opts.paper!r}")
    if opts.board_page and opts.board_page not in PAPERS:
        raise BuildError(f"board page must be one of {', '.join(PAPERS)}")
    written: list[Written] = []
    for lang in opts.langs:
        folder = out / game.id / lang
        pending: list[tuple[Path, bytes]] = []
        emit = _collect(pending)
        decks = game.valid(game.decks)
        for name, group in card_files(decks, opts.per_card):
            emit(folder / name, _cards_pdf(game, group, lang, opts, trivia=False))
        questions = _question_decks(game)
        if questions:
            emit(folder / "questions.pdf", _cards_pdf(game, questions, lang, opts, trivia=True))
        boards = game.valid(game.boards)
        if boards:
            from toolkit.render.boards import render_board

            for board in boards:
                name = "board.pdf" if len(boards) == 1 else f"board-{board.id}.pdf"
                bleed = BLEED_MM * mm if opts.press else 0.0
                data = render_board(game, board, lang, opts.paper, opts.board_page, bleed)
                emit(folder / name, data)
        if lang in game.rulebook:
            from toolkit.content.game import display_path
            from toolkit.render.rulebook import render_rulebook
            from toolkit.render.rulebook_source import RulebookError

            try:
                data = render_rulebook(game, lang, opts.paper, BLEED_MM * mm if opts.press else 0)
            except RulebookError as exc:
                where = f"{display_path(game.rulebook[lang])}:{exc.line}"
                raise BuildError(f"{where}: {exc} (run `playset validate`)") from exc
            emit(folder / "rulebook.pdf", data)
        # one language's files are replaced together, once all of them rendered
        write_many([(output_folder(out, game.id, lang) / p.name, d) for p, d in pending])
        for path, _ in pending:
            item = Written(path)
            written.append(item)
            if report:
                report(item)
    return written


def _collect(pending: list[tuple[Path, bytes]]) -> Callable[[Path, bytes], None]:
    return lambda path, data: pending.append((path, data))
