"""Draw one target as PNG pages, through the very PDF code `build` uses.

A card face is the press profile's page (`draw_face_page`: trim + bleed); a board is its
poster PDF; a rulebook is `render_rulebook`'s PDF. Every PDF is rasterised by
`toolkit.render.raster` (pypdfium2), so the preview shows exactly what prints.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from toolkit.content.game import Game
from toolkit.render.deps import DeckSpec, Target, card_keys, deck_specs

if TYPE_CHECKING:
    from toolkit.preview.face_budget import FaceBudget

# The drawing libraries (reportlab, jinja2, pypdfium2) are imported by the first drawing,
# not with the preview: a warm start serves its first page from the image store alone.

BOARD_DPI = 60.0  # an A1 poster is about 1400 × 2000 px
RULEBOOK_DPI = 96.0
BOARD_PAGE = "a1"  # the board whole on one page, as `build --board-page a1` prints it
FAST = 1  # zlib level: the images live in memory and travel over localhost


_PDFIUM = threading.Lock()  # PDFium is not thread-safe: one rasterisation at a time


def _png(pdf: bytes, dpi: float, first: int = 0, last: int | None = None) -> list[bytes]:
    """The pages of `pdf` (from `first` to `last`, inclusive) as PNGs, holding PDFium one
    page at a time: a card drawn after a save waits for one rulebook page, not for the
    whole rulebook."""
    from toolkit.render.raster import png_pages

    pages = png_pages(pdf, dpi, first, last, compress_level=FAST)
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


class Refused(DrawError):
    """The face was not drawn: the revision's budgets were spent (it may be drawn in a
    later revision, whose budgets are new)."""


Result = list[bytes] | DrawError


def draw_targets(game: Game, targets: list[Target]) -> list[Result]:
    """Each target's PNG pages (or the DrawError that stopped it), in order. Card faces are
    drawn together into one PDF (a font is embedded once, not once per card): each is first
    resolved and fitted on its own, and a face that cannot be (a template error, a spent
    budget) says why while the others are still drawn together; if the PDF then fails, each
    is drawn alone so that only the faulty one loses its drawing."""
    faces = [t for t in targets if t.kind == "face"]
    together: dict[str, Result] = {}
    if len(faces) > 1:
        ready: list[tuple[str, Page]] = []
        for target in faces:
            try:
                ready.append((target.key, _page(game, target)))
            except DrawError as exc:
                together[target.key] = exc
        try:
            drawn = _draw_pages(game, [page for _, page in ready]) if ready else []
            together.update((key, [png]) for (key, _), png in zip(ready, drawn, strict=True))
        except DrawError:
            pass  # each face drawn alone below
    out: list[Result] = []
    for target in targets:
        if target.key in together:
            out.append(together[target.key])
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


Page = tuple[Any, Any, object]  # a face's print job, layout and card, ready to draw


def _faces(game: Game, targets: list[Target]) -> list[bytes]:
    """Card faces as the press profile prints them, one page each, one PDF for all."""
    return _draw_pages(game, [_page(game, target) for target in targets])


def _page(game: Game, target: Target) -> Page:
    """The face of `target` resolved and fitted, counted against the revision's budgets
    (raises DrawError with the reason)."""
    from toolkit.preview.face_budget import CARD_DPI, FitSpent
    from toolkit.render.glyph_weight import GlyphsRefused
    from toolkit.render.layout import load_layout
    from toolkit.render.sheets import PrintJob

    specs, cards = _decks(game)
    with _reasons():
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
        refused = font_refusal(game)
        if refused is not None:
            raise Refused(refused)
        budget = _budget(game)
        job = PrintJob(
            game,
            spec.deck,
            layout,
            None,
            target.lang,
            spec.card_mm,
            budget=budget,
            picture_dpi=CARD_DPI,  # pictures resampled once, not decoded whole each revision
        )
        try:
            budget.fit_face(job, layout, card)  # resolved and fitted (or refused) before a PDF
        except (FitSpent, GlyphsRefused) as exc:
            raise Refused(str(exc)) from exc
    return job, layout, card


def _decks(game: Game) -> tuple[dict[str, DeckSpec], dict[str, dict[str, object]]]:
    """The game's decks by id, and their cards by key as they are asked for: once per
    revision, not once per face (a deck of 1,000 cards drawn face by face went through
    its cards 1,000 times)."""
    key = ("preview decks",)
    kept = game.print_memo.get(key)
    if kept is None:
        kept = game.print_memo[key] = ({spec.id: spec for spec in deck_specs(game)}, {})
    return kept


def _draw_pages(game: Game, pages: list[Page]) -> list[bytes]:
    """The faces `_page` made ready, one page each of one PDF, as PNGs."""
    from toolkit.preview.face_budget import CARD_DPI
    from toolkit.render.pdf import pdf_canvas
    from toolkit.render.picture_objects import rasterised
    from toolkit.render.picture_scaled import page_side
    from toolkit.render.sheets import draw_face_page

    with _reasons(), pdf_canvas((100, 100), game.id) as (canvas, buffer):
        sides = [page_side(job.card_mm, job.bleed_mm, CARD_DPI) for job, _, _ in pages]
        rasterised(canvas, max(sides, default=1))  # an icon's pictures drawn from copies
        for job, layout, card in pages:
            draw_face_page(canvas, job, layout, card)
        canvas.save()
        pdf = buffer.getvalue()
    return _png(pdf, CARD_DPI)


def font_refusal(game: Game) -> str | None:
    """Why no picture of this revision is drawn: a font of the game that validate refuses
    for the glyphs it would print (P009), once a revision. `build` and the exports refuse the
    whole game then; the preview drew with it, 12 s for one page of a 40 kB game."""
    key = ("preview font refusal",)
    if key not in game.print_memo:
        from toolkit.checks.fonts import reach_problems

        first = next(reach_problems(game), None)
        game.print_memo[key] = (
            None
            if first is None
            else f"{first[0]}: {first[1]} (P009: nothing is drawn in the game's fonts until"
            " it is fixed)"
        )
    return game.print_memo[key]


def _budget(game: Game) -> FaceBudget:
    """The budgets the preview's faces of this revision of the game share
    (toolkit.preview.face_budget)."""
    from toolkit.preview.face_budget import FaceBudget

    key = ("preview face budget",)
    kept = game.print_memo.get(key)
    if not isinstance(kept, FaceBudget):
        kept = game.print_memo[key] = FaceBudget()
    return kept


DOCUMENT_DPI = {"board": BOARD_DPI, "rulebook": RULEBOOK_DPI}
MM_PER_POINT = 25.4 / 72.0


def document_pdf(game: Game, target: Target) -> bytes:
    """The PDF of a board or rulebook `target` (raises DrawError with the reason); its
    pages are rasterised one by one as the page asks for them (`document_pages`): the PDF
    of a rulebook of 267 pages is ~1 s, its pages ~5.7 s more (probe 46 M3)."""
    from toolkit.render.boards import render_board
    from toolkit.render.rulebook import render_rulebook

    with _reasons():
        if target.kind == "rulebook":
            return render_rulebook(game, target.lang, "a4", picture_dpi=RULEBOOK_DPI)
        if target.kind == "board":
            board = next((b for b in game.valid(game.boards) if b.id == target.board), None)
            if board is None:
                raise DrawError(f"no board {target.board!r}")
            return render_board(game, board, target.lang, "a4", BOARD_PAGE)
    raise DrawError(f"unknown document kind {target.kind!r}")


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's width and height in mm (the page sizes its images before they load)."""
    import pypdfium2 as pdfium

    with _PDFIUM:
        document = pdfium.PdfDocument(pdf)
        try:
            sizes = []
            for index in range(len(document)):
                width, height = document.get_page_size(index)
                sizes.append((round(width * MM_PER_POINT, 1), round(height * MM_PER_POINT, 1)))
            return sizes
        finally:
            document.close()


def document_pages(pdf: bytes, kind: str, indexes: list[int]) -> dict[int, bytes]:
    """The pages at `indexes` (0-based) of a document's PDF as PNGs, by index: each run of
    consecutive pages rasterised in one go, PDFium held one page at a time."""
    out: dict[int, bytes] = {}
    wanted = sorted(set(indexes))
    runs: list[list[int]] = []
    for index in wanted:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        pages = _png(pdf, DOCUMENT_DPI[kind], run[0], run[-1])
        out.update(zip(run, pages, strict=False))
    return out


def _board(game: Game, target: Target) -> list[bytes]:
    from toolkit.render.boards import render_board

    board = next((b for b in game.valid(game.boards) if b.id == target.board), None)
    if board is None:
        raise DrawError(f"no board {target.board!r}")
    pdf = render_board(game, board, target.lang, "a4", BOARD_PAGE)
    return _png(pdf, BOARD_DPI)


def _rulebook(game: Game, target: Target) -> list[bytes]:
    from toolkit.render.rulebook import render_rulebook

    pdf = render_rulebook(game, target.lang, "a4", picture_dpi=RULEBOOK_DPI)
    return _png(pdf, RULEBOOK_DPI)
