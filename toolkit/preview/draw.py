"""Draw one target as PNG pages, through the very PDF code `build` uses.

A card face is the press profile's page (`draw_face_page`: trim + bleed); a board is its
poster PDF; a rulebook is `render_rulebook`'s PDF. Every PDF is rasterised by
`toolkit.render.raster` (pypdfium2), so the preview shows exactly what prints.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from toolkit.content.game import Game
from toolkit.render.deps import Target, card_keys, deck_specs

# The drawing libraries (reportlab, jinja2, pypdfium2) are imported by the first drawing,
# not with the preview: a warm start serves its first page from the image store alone.

CARD_DPI = 150.0  # a poker card is 407 × 555 px: sharp beside an editor, quick to draw
BOARD_DPI = 60.0  # an A1 poster is about 1400 × 2000 px
RULEBOOK_DPI = 96.0
BOARD_PAGE = "a1"  # the board whole on one page, as `build --board-page a1` prints it
FAST = 1  # zlib level: the images live in memory and travel over localhost


_PDFIUM = threading.Lock()  # PDFium is not thread-safe: one rasterisation at a time


def _png(pdf: bytes, dpi: float) -> list[bytes]:
    """The pages of `pdf` as PNGs, holding PDFium one page at a time: a card drawn after a
    save waits for one rulebook page, not for the whole rulebook."""
    from toolkit.render.raster import png_pages

    pages = png_pages(pdf, dpi, compress_level=FAST)
    out: list[bytes] = []
    try:
        while True:
            with _PDFIUM:
                page = next(pages, None)
            if page is None:
                return out
            out.append(page)
    finally:
        with _PDFIUM:
            pages.close()


class DrawError(Exception):
    """The target cannot be drawn from this content (the old image stays on the page)."""


Result = list[bytes] | DrawError


def draw_targets(game: Game, targets: list[Target]) -> list[Result]:
    """Each target's PNG pages (or the DrawError that stopped it), in order. Card faces are
    drawn together into one PDF (a font is embedded once, not once per card); if one fails,
    each is drawn alone so that only the faulty one loses its drawing."""
    faces = [t for t in targets if t.kind == "face"]
    together: dict[str, bytes] = {}
    if len(faces) > 1:
        try:
            together = dict(zip((t.key for t in faces), _faces(game, faces), strict=True))
        except DrawError:
            together = {}
    out: list[Result] = []
    for target in targets:
        if target.key in together:
            out.append([together[target.key]])
            continue
        try:
            out.append(draw_target(game, target))
        except DrawError as exc:
            out.append(exc)
    return out


def draw_target(game: Game, target: Target) -> list[bytes]:
    """The PNG pages of `target` drawn from `game` (raises DrawError with the reason)."""
    if target.kind == "face":
        return _faces(game, [target])
    with _reasons():
        if target.kind == "board":
            return _board(game, target)
        if target.kind == "rulebook":
            return _rulebook(game, target)
    raise DrawError(f"unknown target kind {target.kind!r}")


@contextmanager
def _reasons() -> Iterator[None]:
    """What content can make a drawing fail becomes a DrawError saying why."""
    from toolkit.render.layout import LayoutError
    from toolkit.render.rulebook_source import RulebookError
    from toolkit.render.sheets import SheetError

    try:
        yield
    except (LayoutError, SheetError, RulebookError, ValueError, TypeError, KeyError) as exc:
        raise DrawError(str(exc) or type(exc).__name__) from exc


def _faces(game: Game, targets: list[Target]) -> list[bytes]:
    """Card faces as the press profile prints them, one page each, one PDF for all."""
    from toolkit.render.layout import load_layout
    from toolkit.render.pdf import pdf_canvas
    from toolkit.render.sheets import PrintJob, draw_face_page

    specs = {spec.id: spec for spec in deck_specs(game)}
    cards: dict[str, dict[str, object]] = {}
    pages: list[tuple[PrintJob, Any, object]] = []
    with _reasons():
        for target in targets:
            spec = specs.get(target.deck or "")
            if spec is None:
                raise DrawError(f"no deck {target.deck!r}")
            if spec.id not in cards:
                cards[spec.id] = dict(card_keys(spec.deck.cards))
            card = cards[spec.id].get(target.card) if target.card else spec.deck.cards[0]
            if card is None:
                raise DrawError(f"no card {target.card!r} in deck {spec.id!r}")
            name = spec.front if target.side == "front" else spec.back
            layout, diags = load_layout(name, game.root)
            if layout is None:
                where = "; ".join(f"{d.file}:{d.line}:{d.col} {d.message}" for d in diags)
                raise DrawError(f"layout {name!r} is unusable: {where or 'not found'}")
            job = PrintJob(
                game, spec.deck, layout, None, target.lang, spec.card_mm, budget=_budget(game)
            )
            job.resolved(layout, card)  # resolved (or refused) before a PDF is begun
            pages.append((job, layout, card))
        with pdf_canvas((100, 100), game.id) as (canvas, buffer):
            for job, layout, card in pages:
                draw_face_page(canvas, job, layout, card)
            canvas.save()
            pdf = buffer.getvalue()
    return _png(pdf, CARD_DPI)


def _budget(game: Game) -> Any:
    """The layout budget the preview's faces of this revision of the game share, as a
    check's faces do (toolkit.render.layout_budget): `validate` stops at it and the game is
    not built, but the preview drew every face past it, ~41 s at start and again at each
    save (probe 40 H2). Past it, a face is not drawn and says why; a face drawn already is
    drawn again for nothing (a group of faces that fails is drawn again face by face). Its
    texts are all fitted (no letters' budget), and a failing template's message searches
    no 'did you mean' (the check's finding has it)."""
    import sys

    from toolkit.render.layout_budget import LayoutBudget
    from toolkit.render.textfit import FitBudget
    from toolkit.render.undefined import NameTips

    key = ("preview layout budget",)
    kept = game.print_memo.get(key)
    if kept is None:
        kept = game.print_memo[key] = FitBudget(limit=sys.maxsize)
        kept.layouts = LayoutBudget(once=True)
        kept.names = NameTips(limit=0)
    return kept


def _board(game: Game, target: Target) -> list[bytes]:
    from toolkit.render.boards import render_board

    board = next((b for b in game.valid(game.boards) if b.id == target.board), None)
    if board is None:
        raise DrawError(f"no board {target.board!r}")
    pdf = render_board(game, board, target.lang, "a4", BOARD_PAGE)
    return _png(pdf, BOARD_DPI)


def _rulebook(game: Game, target: Target) -> list[bytes]:
    from toolkit.render.rulebook import render_rulebook

    pdf = render_rulebook(game, target.lang, "a4")
    return _png(pdf, RULEBOOK_DPI)
