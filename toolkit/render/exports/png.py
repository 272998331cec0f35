"""`export png`: one image per card face and back, the board and each rulebook page.

Files go to <out>/<game>/<lang>/png/: `<deck>/<card>-front.png` and `<card>-back.png` (one per
card, copies once; a shared back is repeated so each card has its pair, as card-upload
services want), `board.png` (or `board-<n>.png` per drawing, `board-<id>…` per board: A2,
upright) and `rulebook/page-01.png`…. Card and rulebook images are pages of the PDFs
`build --profile press` draws, rasterised by pypdfium2: trimmed, or with their 3 mm bleed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm

from toolkit.fileio import HeldFolder
from toolkit.journal import JournaledSet
from toolkit.render.artifacts.rulebook import rulebook_pdf
from toolkit.render.exports import (
    Export,
    ExportOptions,
    Progress,
    Report,
    check_dpi,
    once,
    option,
    prune,
    register,
)
from toolkit.render.exports.faces import (
    card_pngs,
    check_export_cost,
    check_export_pixels,
    deck_load,
    face_images,
    face_paint,
    face_pixels,
    language_pages,
    printed_decks,
)
from toolkit.render.exports.pages import BoardPdf, board_pdfs, priced_pages
from toolkit.render.raster import png_selected
from toolkit.render.raster_weight import load_price
from toolkit.render.sheets import BLEED_MM


def board_pngs(
    game: Any, lang: str, dpi: float, bleed: bool, boards: list[BoardPdf] | None = None
) -> list[tuple[str, str, bytes]]:
    """(file stem, board name in `lang`, PNG) per board drawing, from the whole-board PDF
    `build --board-page a2` draws (`boards`, made before: `pages.priced_pages`; else
    made now): each drawing upright on its own page (the press file turns some a quarter
    to keep one trim size). Boards have white margins, so no bleed to keep."""
    from toolkit.render.boards import build_drawings

    out: list[tuple[str, str, bytes]] = []
    for made in board_pdfs(game, lang) if boards is None else boards:
        stem, name, pdf = made.stem, made.name, made.pdf
        within_pixels(pdf, dpi, f"board {name}")
        images = png_selected(pdf, list(range(_page_count(pdf))), dpi)
        if len(images) == 1:
            out.append((stem, name, images[0]))
        else:
            titles = [drawing.title for drawing in build_drawings(game, made.board, lang)]
            if len(titles) != len(images):
                titles = [f"{name} ({i})" for i in range(1, len(images) + 1)]
            pairs = enumerate(zip(titles, images, strict=True), 1)
            out += [(f"{stem}-{i}", title, image) for i, (title, image) in pairs]
    return out


def rulebook_document(game: Any, lang: str, dpi: float | None = None) -> bytes | None:
    """The press rulebook's PDF (A4 with bleed) in `lang`, or None without one; to be
    rasterised at `dpi` (its cover's picture resampled once, not decoded whole in each
    language's: `render_rulebook`)."""
    if lang not in game.rulebook:
        return None
    return rulebook_pdf(game, lang, "a4", BLEED_MM * mm, dpi)


def rulebook_pngs(
    game: Any, lang: str, dpi: float, bleed: bool, pdf: bytes | None = None
) -> list[bytes]:
    """Each page of the press rulebook (A4 with bleed) in `lang` (`pdf`, made before;
    else made now), or none without one."""
    pdf = rulebook_document(game, lang, dpi) if pdf is None else pdf
    if pdf is None:
        return []
    within_pixels(pdf, dpi, "the rulebook")
    return png_selected(pdf, list(range(_page_count(pdf))), dpi, trim=not bleed)


MAX_PAGE_PIXELS = 64_000_000
"""Pixels of one card, board or rulebook image. Drawing and encoding one takes about 12
bytes a pixel at its peak, so this is some 770 MB: a 150 M pixel card (300 × 420 mm at
--dpi 861) peaked at 1.7 GB alone, and an A2 board at 1200 dpi (557 M) was 3.9 GB and a
MemoryError. An A2 board at 400 dpi is 62 M, a poker card at 1200 dpi 6 M."""


def within_pixels(
    pdf: bytes | Any,
    dpi: float,
    what: str,
    option: str = "--page-dpi",
    pages: list[int] | None = None,
) -> None:
    """Refuse, before drawing any, pages that would be too many pixels at `dpi` (the
    value of `option`): `pages` of `pdf` (bytes, or a `pypdfium2.PdfDocument` held open),
    or all of them."""
    import pypdfium2 as pdfium

    from toolkit.render.artifacts import BuildError

    owned = isinstance(pdf, (bytes, bytearray))
    document: Any = pdfium.PdfDocument(pdf) if owned else pdf
    try:
        indexes = range(len(document)) if pages is None else pages
        sizes = [document.get_page_size(i) for i in indexes]
    finally:
        if owned:
            document.close()
    for width, height in sizes:
        px_w, px_h = round(width / 72 * dpi), round(height / 72 * dpi)
        if px_w * px_h > MAX_PAGE_PIXELS:
            most = int((MAX_PAGE_PIXELS / (width * height)) ** 0.5 * 72)
            raise BuildError(
                f"{what} at {option} {dpi:g} would be {px_w} × {px_h} pixels "
                f"({px_w * px_h / 1e6:.0f} M, at most {MAX_PAGE_PIXELS / 1e6:.0f} M); "
                f"use {option} {most} or less"
            )


def _page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def steps(game: Any, langs: list[str]) -> int:
    per_lang = len(printed_decks(game)) + 2  # decks, then the boards, then the rulebook
    return per_lang * len(langs)


@dataclass(frozen=True)
class PngOptions(ExportOptions):
    dpi: float = option(300.0, "Card images' resolution.")
    page_dpi: float = option(150.0, "Board and rulebook pages' resolution.")
    # (an A2 board at 300 dpi is 35 Mpx)
    bleed: bool = option(False, "Keep the 3 mm bleed around each card.", flag="--bleed/--no-bleed")

    def __post_init__(self) -> None:
        check_dpi("dpi", self.dpi)
        check_dpi("page_dpi", self.page_dpi)


def run(
    game: Any, out: Path | HeldFolder, opts: PngOptions, report: Report, progress: Progress
) -> list[Path]:
    written: list[Path] = []
    seen: set[Path] = set()  # the same files, for `once`
    total, done = steps(game, opts.langs), 0
    decks = printed_decks(game)

    def drawn(dpi: float) -> int:
        return sum(face_pixels(deck, dpi, opts.bleed) * face_images(deck) for deck in decks)

    loads = [deck_load(game, deck, opts.langs) for deck in decks]  # resolved once

    def painted(dpi: float) -> int:
        faces = sum(face_paint(deck, dpi, game.root, opts.bleed) for deck in decks)
        return faces + sum(load_price(load, dpi) for load in loads)

    check_export_pixels(drawn, opts.dpi, opts.langs)  # before any language is drawn
    check_export_cost(drawn, painted, opts.dpi, opts.langs)

    # every language's boards and rulebook, made and priced before any page is drawn
    def press_rulebook(game: Any, lang: str) -> bytes | None:
        return rulebook_document(game, lang, opts.page_dpi)

    documents = priced_pages(
        game, opts.langs, opts.page_dpi, "--page-dpi", press_rulebook, within_pixels
    )

    def emit(path: Path, data: bytes) -> None:
        once(seen, path)
        staged.add(path, data)  # the language's JournaledSet, making folders inside --out only
        written.append(path)
        seen.add(path)
        report(path)

    def step() -> None:
        nonlocal done
        done += 1
        progress(done, total)

    for lang, made in zip(opts.langs, documents, strict=True):
        folder = out / game.id / lang / "png"
        # all of a language's images or none: a run that fails half-way (a full disk, a
        # page over the pixel limit, Ctrl-C) leaves the old set, not new decks beside old
        with JournaledSet(out, folder) as staged:
            dpis = [opts.dpi] * len(decks)
            with language_pages(game, decks, lang, dpis, opts.bleed) as every:
                for printed, pages in zip(decks, every, strict=True):
                    what, drawn_pages = f"deck {printed.name(lang)}", pages.fronts + pages.backs
                    within_pixels(pages.pdf, opts.dpi, what, "--dpi", drawn_pages)
                    for card, front, back in card_pngs(printed, pages):  # staged as drawn
                        emit(folder / printed.id / f"{card.id}-front.png", front)
                        emit(folder / printed.id / f"{card.id}-back.png", back)
                    step()
            boards = board_pngs(game, lang, opts.page_dpi, opts.bleed, made.boards)
            for stem, _, image in boards:
                emit(folder / f"{stem}.png", image)
            step()
            rulebook = rulebook_pngs(game, lang, opts.page_dpi, opts.bleed, made.rulebook)
            for number, image in enumerate(rulebook, 1):
                emit(folder / "rulebook" / f"page-{number:02d}.png", image)
        prune(folder, written, out)
        step()
    return written


PNG = register(
    Export(
        "png",
        "One PNG per card face and back, the board and each rulebook page.",
        run,
        PngOptions,
        "One PNG per card face and back (<deck>/<card>-front.png), the board, each rulebook "
        "page: rasterised from the pages `build --profile press` draws.",
    )
)
