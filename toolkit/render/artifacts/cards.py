"""cards.pdf: every deck, fronts then mirrored backs on sheets with crop marks, or one card
per page (the press profile) in one file per trim size."""

from __future__ import annotations

from typing import Any

from toolkit.render.artifacts import (
    Artifact,
    BuildError,
    BuildOptions,
    Part,
    Parts,
    Shows,
    drawn,
    register,
)


def layout(name: str, game: Any) -> Any:
    """The layout `name` (game folder first, then the toolkit's), or a BuildError."""
    from toolkit.render.layout import load_layout

    found, diags = load_layout(name, game.root)
    if found is None:
        detail = "; ".join(f"{d.file}:{d.line}:{d.col} {d.message}" for d in diags)
        raise BuildError(f"layout {name!r} is unusable: {detail or 'not found'}")
    return found


def cards_pdf(
    game: Any,
    decks: list[Any],
    lang: str,
    opts: BuildOptions,
    each_once: bool = False,
    keys: list[str] | None = None,
    picture_dpis: list[float] | None = None,
) -> bytes:
    """One PDF of `decks` in `lang`: sheets (or one card per page with `opts.per_card`, each
    card once with `each_once`: see draw_deck_per_card). Each deck says its size, layouts
    and whether each card has a back of its own (a question bank's answers). `keys`, if
    given, gets a key per page: pages with equal keys draw the same (`pdf.record_pages`).
    `picture_dpis`, if given, is the dpi each deck's pages will be rasterised at (an
    export's PDF, never printed: `PrintJob.picture_dpi`)."""
    from toolkit.content.models.deck import size_mm
    from toolkit.render.layout import DEFAULT_BACK, DEFAULT_FRONT
    from toolkit.render.pdf import PAPERS, pdf_canvas, record_pages
    from toolkit.render.sheets import PrintJob, draw_deck, draw_deck_per_card

    page = PAPERS[opts.paper]
    title = f"{game.manifest.title.get(lang, game.id)}"
    from toolkit.render.printjob import game_fonts

    with pdf_canvas(page, title, game_fonts(game).face(None)) as (canvas, buffer):
        if keys is not None:
            record_pages(canvas, keys)
        dpis: list[float | None] = [*picture_dpis] if picture_dpis else [None] * len(decks)
        if picture_dpis:  # an icon's pictures drawn from copies (svg_icons.Picture)
            from toolkit.render.picture_objects import rasterised
            from toolkit.render.picture_scaled import page_side
            from toolkit.render.sheets import BLEED_MM

            pairs = zip(decks, picture_dpis, strict=True)
            rasterised(canvas, max(page_side(size_mm(d.size), BLEED_MM, at) for d, at in pairs))
        for deck, dpi in zip(decks, dpis, strict=True):
            front = layout(deck.layout or DEFAULT_FRONT, game)
            back = layout(deck.back or DEFAULT_BACK, game)
            card_mm = size_mm(deck.size)
            own_backs = deck.back_per_card
            job = PrintJob(
                game,
                deck,
                front,
                back,
                lang,
                card_mm,
                page,
                title,
                own_backs,
                opts.back_offset,
                picture_dpi=dpi,
            )
            if opts.per_card:
                draw_deck_per_card(canvas, job, each_once)
            else:
                draw_deck(canvas, job)
        canvas.save()
        return buffer.getvalue()


def card_files(decks: list[Any], per_card: bool) -> list[tuple[str, list[Any]]]:
    """Which decks go in which cards file: all in cards.pdf, except one card per page (the
    press profile) with several card sizes, where print services want one trim size a file:
    cards-44x63.pdf, cards-70x120.pdf (sizes in mm, first-seen order)."""
    from toolkit.content.models.deck import size_mm

    if not decks:
        return []
    groups: dict[tuple[float, float], list[Any]] = {}
    for deck in decks:
        groups.setdefault(size_mm(deck.size), []).append(deck)
    if not per_card or len(groups) == 1:
        return [("cards.pdf", list(decks))]
    return [(f"cards-{w:g}x{h:g}.pdf", group) for (w, h), group in groups.items()]


def deck_parts(
    game: Any, files: list[tuple[str, list[Any]]], lang: str, opts: BuildOptions
) -> Parts:
    """Each cards file of `files` (name, decks) as a part: what it prints, how to draw it."""

    def part(name: str, group: list[Any]) -> Part:
        return Part(name, lambda: cards_pdf(game, group, lang, opts), Shows(tuple(group)))

    return [part(name, group) for name, group in files]


def parts(game: Any, lang: str, opts: BuildOptions) -> Parts:
    return deck_parts(game, card_files(game.valid(game.decks), opts.per_card), lang, opts)


CARDS = register(
    Artifact(
        "cards",
        "`cards.pdf`: every deck, fronts then mirrored backs (press: one card per page, "
        "`cards-WxH.pdf` per trim size).",
        drawn(parts),
        order=10,
        parts=parts,
    )
)
