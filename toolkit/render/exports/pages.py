"""The board and rulebook pages an export rasterises, priced before any is (probe 54-3,
54-5): every language's board and rulebook PDFs are made first, each page weighed as its
pixels at the page dpi, each board's icons and styled lines (their length, width and dashes),
and each document's glyphs of the game's own fonts, as the faces' are
(`raster_weight.load_price`, from what its drawings drew: `look.icons_tallied`,
`line_tally.lines_tallied`, `glyph_tally.glyphs_tallied`), and an export past
`MAX_EXPORT_PAGE_COST` together is refused before it draws a page of any language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolkit.render.exports import MIN_DPI
from toolkit.render.exports.faces import _mega
from toolkit.render.raster_weight import FaceLoad, load_price

MAX_EXPORT_PAGE_COST = 700_000_000
"""What the board and rulebook images one export draws may cost together, every language,
in the card images' unit (`faces.MAX_EXPORT_PIXELS`: one image pixel drawn and encoded,
~11 ns): each page's pixels at the page dpi (`PAGE_PIXEL` each), and each board's icons
priced as a face's are (`raster_weight.load_price`: 810 a shape's use at 150 dpi, measured
~6.5 µs: 10 maps each at one drawing's icon bound, 637,000 shapes, took `export png --lang
en` 6.6 s of CPU, 2.4 s without their icons, probe 54-3). 358 rulebook pages a language
(40 kB of code lines, under the rulebook's bounds) were 29.5 s for three languages (probe
54-5). The bundled games at the default --page-dpi, all their languages: 270 M for the
largest (12 A2 board pages, 20 rulebook pages); a rulebook of 32 pages and four boards in
three languages are 585 M. At the bound: some 7.7 s of CPU for board pages, 6.2 s for
rulebook pages. A board's styled lines are priced from what its drawings stroked
(`line_tally`): 2,000 links 20 points wide dashed `[0.5, 0.5]` cost `export png` 22.6 s of
CPU for three languages, unpriced (probe 62-8); they now weigh 1,033 M a language at 150 dpi
and are refused, where the bundled games' maps weigh 0.4 M at most for theirs."""

PAGE_PIXEL = 1.8
"""A pixel of a board or rulebook page, rasterised and PNG-encoded, in image pixels (~11
ns, a card's): measured (user CPU, 150 dpi, A2 and A4) ~18 to 20 ns on the maps and tracks
of the probes and the bundled games (encoding is most of it), ~16 on the bundled
rulebooks' pages, ~12 on pages of code lines. Priced at the costliest."""


@dataclass(frozen=True)
class BoardPdf:
    """A board as one language's export draws it: its file stem, its name in the language,
    its PDF (each drawing upright on its own page) and what its drawings drew of icons."""

    board: Any
    stem: str
    name: str
    pdf: bytes
    icons: FaceLoad


@dataclass(frozen=True)
class LanguagePages:
    """One language's boards and rulebook PDF (None without one), made before any page of
    any language is rasterised."""

    lang: str
    boards: list[BoardPdf]
    rulebook: bytes | None


def board_pdfs(game: Any, lang: str) -> list[BoardPdf]:
    """Each board of the game in `lang` as the whole-board PDF `build --board-page a2`
    draws, with the icons, game fonts' glyphs and styled lines its drawings drew."""
    from toolkit.render.boards import render_board
    from toolkit.render.boards.look import icons_tallied
    from toolkit.render.glyph_tally import glyphs_tallied
    from toolkit.render.line_tally import lines_tallied
    from toolkit.render.tiling import POSTER

    boards = game.valid(game.boards)
    out: list[BoardPdf] = []
    for board in boards:
        stem = "board" if len(boards) == 1 else f"board-{board.id}"
        name = board.name.get(lang, "") or str(board.id)
        with icons_tallied() as tally, glyphs_tallied(game) as glyphs, lines_tallied() as lines:
            pdf = render_board(game, board, lang, "a4", POSTER)
        _drawable(glyphs, f"board {name} in {lang}")
        load = tally.load() + glyphs.load() + lines.load()
        out.append(BoardPdf(board, stem, name, pdf, load))
    return out


def _drawable(glyphs: Any, what: str) -> None:
    """Refuse (BuildError) a document whose text a game font cannot draw in reasonable time
    (`Glyphs.problem`: P009's bounds on each glyph drawn)."""
    why = glyphs.problem()
    if why is not None:
        from toolkit.render.artifacts import BuildError

        raise BuildError(
            f"the {what} prints characters a game font cannot draw in reasonable time: {why}"
        )


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's width and height, in points."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return [document.get_page_size(i) for i in range(len(document))]
    finally:
        document.close()


def pages_cost(sizes: list[tuple[float, float]], icons: FaceLoad, dpi: float) -> int:
    """What rasterising and encoding pages of those sizes (points) at `dpi` costs, in
    image pixels: their pixels (`PAGE_PIXEL` each), and the icons drawn on them
    (`load_price`)."""
    from toolkit.render.raster import pixels

    drawn = sum(pixels(width, dpi) * pixels(height, dpi) for width, height in sizes)
    return int(drawn * PAGE_PIXEL) + load_price(icons, dpi)


@dataclass
class _Priced:
    """The documents made so far: each one's kind ("board" or "rulebook"), page sizes and
    icons drawn, to price at any dpi."""

    documents: list[tuple[str, list[tuple[float, float]], FaceLoad]] = field(default_factory=list)
    langs: int = 0

    def cost(self, dpi: float, kind: str | None = None, icons: bool = True) -> int:
        """What they (those of `kind`) cost at `dpi`: their pixels, and with `icons` the
        icons drawn on them."""
        return sum(
            pages_cost(sizes, load if icons else FaceLoad(), dpi)
            for of, sizes, load in self.documents
            if kind in (None, of)
        )

    def pages(self, kind: str) -> int:
        return sum(len(sizes) for of, sizes, _ in self.documents if of == kind)


def priced_pages(
    game: Any,
    langs: list[str],
    dpi: float,
    option: str | None,
    rulebook: Callable[[Any, str], bytes | None] | None,
    within: Callable[[bytes, float, str], None],
) -> list[LanguagePages]:
    """Every language's boards (and, with `rulebook`, its rulebook PDF: `rulebook(game,
    lang)`), each document's pages checked by `within(pdf, dpi, what)` (a page's pixel
    bound) and priced together at `dpi` (the value of `option`; None: not a choice), before
    any page is rasterised: past `MAX_EXPORT_PAGE_COST` a BuildError says what costs what.
    Made a language at a time: the first language that takes them past the bound stops
    the export (the others are not made, and taken to cost as much)."""
    priced = _Priced()
    out: list[LanguagePages] = []
    for lang in langs:
        boards = board_pdfs(game, lang)
        for board in boards:
            within(board.pdf, dpi, f"board {board.name}")
            priced.documents.append(("board", page_sizes(board.pdf), board.icons))
        from toolkit.render.glyph_tally import glyphs_tallied

        with glyphs_tallied(game) as glyphs:
            pdf = rulebook(game, lang) if rulebook is not None else None
        if pdf is not None:
            _drawable(glyphs, f"rulebook in {lang}")
            within(pdf, dpi, "the rulebook")
            priced.documents.append(("rulebook", page_sizes(pdf), glyphs.load()))
        priced.langs += 1
        _check(priced, dpi, option, langs)
        out.append(LanguagePages(lang, boards, pdf))
    return out


def _check(priced: _Priced, dpi: float, option: str | None, langs: list[str]) -> None:
    """Refuse (BuildError) once what is priced passes `MAX_EXPORT_PAGE_COST`."""
    total = priced.cost(dpi)
    if total <= MAX_EXPORT_PAGE_COST:
        return
    from toolkit.render.artifacts import BuildError

    share = len(langs) / priced.langs  # the languages not made cost as the others

    def cost(at: float) -> float:
        return priced.cost(at) * share

    most = int(dpi * (MAX_EXPORT_PAGE_COST / cost(dpi)) ** 0.5)  # pixels: its square
    while most >= MIN_DPI and cost(most) > MAX_EXPORT_PAGE_COST:
        most -= 1
    lower = f"use {option} {most} or less, " if option and most >= MIN_DPI else ""
    if option and most < MIN_DPI:  # what costs as much at any dpi is past the bound
        lower = (
            f"no {option} brings them under it (at {MIN_DPI} still {_mega(int(cost(MIN_DPI)))}"
            " M: each point of an SVG icon's outlines costs as much at any dpi), "
        )
    at = f"{option} {dpi:g}" if option else f"{dpi:g} dpi"
    parts = []
    if priced.pages("board"):
        pixels = priced.cost(dpi, "board", icons=False)
        boards = f"{priced.pages('board')} board page(s), {_mega(pixels)} M"
        icons = priced.cost(dpi, "board") - pixels
        if icons:
            boards += (
                f" and {_mega(icons)} M more for the icons and game fonts' glyphs drawn"
                " and the lines stroked"
            )
        parts.append(boards)
    if priced.pages("rulebook"):
        pixels = priced.cost(dpi, "rulebook")
        parts.append(f"{priced.pages('rulebook')} rulebook page(s), {_mega(pixels)} M")
    if priced.langs == len(langs):
        counted = f"in {len(langs)} language(s)"
    else:
        counted = (
            f"in the first {priced.langs} of {len(langs)} languages, about"
            f" {_mega(int(cost(dpi)))} M for all"
        )
    raise BuildError(
        f"the board and rulebook images at {at} would cost as much to draw as"
        f" {_mega(total)} M pixels {counted} ({'; '.join(parts)}), more than the"
        f" {MAX_EXPORT_PAGE_COST / 1e6:,.0f} M one export may draw of them: {lower}export"
        " fewer languages with --lang, draw fewer or simpler icons (fewer points) and fewer"
        " dashes on the boards, or shorten the rulebook"
    )
