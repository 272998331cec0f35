"""A001 beyond card faces: the rulebook's accent colour (white bold table heads on it, its
headings on the paper) and a board's space kinds (the letter or icon drawn on a space's fill,
the names printed on the paper)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.checks.framed import framed
from toolkit.checks.legibility.colours import contrast, rgb
from toolkit.checks.legibility.rules import A_CONTRAST
from toolkit.checks.legibility.settings import legibility, required
from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic

WHITE = (1.0, 1.0, 1.0)
RULEBOOK_TEXT_PT = 10.0  # toolkit.render.markdown_flow's body size
TABLE_HEAD_PT = RULEBOOK_TEXT_PT * 0.9  # white, bold, on the accent
HEADING_PT = RULEBOOK_TEXT_PT * 1.6  # bold, in the accent, on the paper
SPACE_MARK_PT = 14.0  # a space's letter or icon: large, bold (WCAG's large text)


def check(game: Game) -> Iterator[Diagnostic]:
    # reads no deck nor question bank: kept whole while no other file changes
    yield from framed("legibility-printed", _printed, game)


def _printed(game: Game) -> Iterator[Diagnostic]:
    yield from _rulebook(game)
    yield from _boards(game)


def _rulebook(game: Game) -> Iterator[Diagnostic]:
    """The accent a game picks for its rulebook (the toolkit's own accents all pass)."""
    loaded, manifest = game.manifest_file, game.manifest
    if loaded is None or loaded.doc is None or manifest is None:
        return
    if manifest.style.accent is None or not game.rulebook:
        return
    doc = loaded.doc
    settings = legibility(game)
    accent = rgb(manifest.style.accent)
    if accent is None:
        return
    span = doc.span(("style", "accent"))
    for what, size, ratio in (
        ("white table heads on it", TABLE_HEAD_PT, contrast(WHITE, accent)),
        ("headings in it on white paper", HEADING_PT, contrast(accent, WHITE)),
    ):
        needed = required(settings, size, True)
        if ratio < needed:
            yield A_CONTRAST.at(
                loaded.rel,
                span,
                f"the rulebook's accent {manifest.style.accent} gives {what} a contrast of "
                f"{ratio:.2f}:1, under the {needed:g}:1 a {size:g} pt bold text needs (WCAG 2.2)",
            )


def _boards(game: Game) -> Iterator[Diagnostic]:
    """What a board prints on a space's fill and beside it, for the kinds its style sets."""
    if game.manifest is None or not game.boards:
        return  # without a board, no import of the board renderer and its style schemas
    from toolkit.render.boards import board_look

    settings = legibility(game)
    for loaded in game.boards:
        board, doc = loaded.model, loaded.doc
        style = getattr(board, "style", None)
        if board is None or doc is None or style is None:
            continue
        look = board_look(game, board, game.manifest.languages[0])
        for kind in look.kinds:
            if kind not in style.spaces:
                continue  # the toolkit's palette and its chosen ink
            space = look.space(kind)
            pairs = [
                ("text_colour", space.text_colour, space.colour, SPACE_MARK_PT, True, "on its fill")
            ]
            if space.named and space.name_colour:
                bold = space.font in ("bold", "bolditalic")
                pairs.append(
                    (
                        "name_colour",
                        space.name_colour,
                        "#ffffff",
                        space.font_size,
                        bold,
                        "names on the paper",
                    )
                )
            for field, ink, under, size, bold, what in pairs:
                a, b = rgb(ink), rgb(under)
                if a is None or b is None:
                    continue
                ratio, needed = contrast(a, b), required(settings, size, bold)
                if ratio < needed:
                    path = ("style", "spaces", kind, field)
                    where = path if path in doc.spans else ("style", "spaces", kind)
                    yield A_CONTRAST.at(
                        loaded.rel,
                        doc.span(where),
                        f"space kind {kind!r}: {ink} {what} ({under}) has contrast "
                        f"{ratio:.2f}:1, under the {needed:g}:1 it needs (WCAG 2.2)",
                    )
