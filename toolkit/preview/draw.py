"""Draw one target as PNG pages, through the very PDF code `build` uses.

A card face is the press profile's page (`draw_face_page`: trim + bleed); a board is its
poster PDF; a rulebook is `render_rulebook`'s PDF. Every PDF is rasterised by
`toolkit.render.raster` (pypdfium2), so the preview shows exactly what prints.
"""

from __future__ import annotations

from toolkit.content.game import Game
from toolkit.preview.deps import Target, card_keys, deck_specs
from toolkit.render.context import card_context
from toolkit.render.layout import load_layout
from toolkit.render.pdf import pdf_canvas
from toolkit.render.raster import png_pages
from toolkit.render.sheets import draw_face_page

CARD_DPI = 150.0  # a poker card is 407 × 555 px: sharp beside an editor, quick to draw
BOARD_DPI = 60.0  # an A1 poster is about 1400 × 2000 px
RULEBOOK_DPI = 96.0
BOARD_PAGE = "a1"  # the board whole on one page, as `build --board-page a1` prints it


class DrawError(Exception):
    """The target cannot be drawn from this content (the old image stays on the page)."""


def draw_target(game: Game, target: Target) -> list[bytes]:
    """The PNG pages of `target` drawn from `game` (raises DrawError with the reason)."""
    from toolkit.render.layout import LayoutError
    from toolkit.render.rulebook_source import RulebookError
    from toolkit.render.sheets import SheetError

    try:
        if target.kind == "face":
            return [_face(game, target)]
        if target.kind == "board":
            return _board(game, target)
        if target.kind == "rulebook":
            return _rulebook(game, target)
    except (LayoutError, SheetError, RulebookError, ValueError, TypeError, KeyError) as exc:
        raise DrawError(str(exc) or type(exc).__name__) from exc
    raise DrawError(f"unknown target kind {target.kind!r}")


def _face(game: Game, target: Target) -> bytes:
    spec = next((s for s in deck_specs(game) if s.id == target.deck), None)
    if spec is None:
        raise DrawError(f"no deck {target.deck!r}")
    cards = dict(card_keys(spec.deck.cards))
    card = cards.get(target.card) if target.card else spec.deck.cards[0]
    if card is None:
        raise DrawError(f"no card {target.card!r} in deck {spec.id!r}")
    name = spec.front if target.side == "front" else spec.back
    layout, diags = load_layout(name)
    if layout is None:
        where = "; ".join(f"{d.file}:{d.line}:{d.col} {d.message}" for d in diags)
        raise DrawError(f"layout {name!r} is unusable: {where or 'not found'}")
    context = card_context(game, spec.deck, card, target.lang)
    with pdf_canvas((100, 100), spec.id) as (canvas, buffer):
        draw_face_page(canvas, game, layout, context, card, target.lang, spec.card_mm)
        canvas.save()
        pdf = buffer.getvalue()
    return next(png_pages(pdf, CARD_DPI))


def _board(game: Game, target: Target) -> list[bytes]:
    from toolkit.render.boards import render_board

    board = next((b for b in game.valid(game.boards) if b.id == target.board), None)
    if board is None:
        raise DrawError(f"no board {target.board!r}")
    pdf = render_board(game, board, target.lang, "a4", BOARD_PAGE)
    return list(png_pages(pdf, BOARD_DPI))


def _rulebook(game: Game, target: Target) -> list[bytes]:
    from toolkit.render.rulebook import render_rulebook

    return list(png_pages(render_rulebook(game, target.lang, "a4"), RULEBOOK_DPI))
