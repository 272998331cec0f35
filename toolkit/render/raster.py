"""PDF pages as PNG images, for per-card images, virtual-table sheets and the live preview.

Images are rasterised from the very pages `build` draws (pypdfium2, PDFium's renderer), so
what a designer sees on screen or in Tabletop Simulator is what prints: one drawing path.
"""

from __future__ import annotations

import io
import os
from collections.abc import Generator, Iterable, Iterator
from typing import Any
from zlib import Z_RLE


def png_pages(
    pdf: bytes,
    dpi: float = 150.0,
    first: int = 0,
    last: int | None = None,
    compress_level: int | None = None,
) -> Generator[bytes, None, None]:
    """Each page of `pdf` (from `first` to `last`, inclusive, 0-based) as PNG bytes at `dpi`.

    Same PDF and dpi give byte-identical PNGs: PDFium renders deterministically and the PNG
    is written without timestamps or text chunks. `compress_level` (zlib, 0-9; default
    zlib's own) trades size for time: the live preview, which never writes its images,
    asks for 1."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        end = len(document) - 1 if last is None else min(last, len(document) - 1)
        for index in range(first, end + 1):
            page = document[index]
            try:
                bitmap = page.render(scale=dpi / 72.0, draw_annots=False)
                image = bitmap.to_pil()
                out = io.BytesIO()
                level = {} if compress_level is None else {"compress_level": compress_level}
                image.save(out, format="PNG", optimize=False, **level)
                yield out.getvalue()
            finally:
                page.close()
    finally:
        document.close()


def pixels(points: float, dpi: float) -> int:
    """The pixels a length of `points` takes at `dpi`: round(mm / 25.4 × dpi), as print
    services and image editors compute a size (a 63 mm card at 300 dpi is 744 px)."""
    return max(1, round(points / 72.0 * dpi))


def images_each(
    pdf: bytes | Any, indexes: list[int], dpi: float = 150.0, trim: bool = False
) -> Iterator[Any]:
    """The pages at `indexes` (0-based, in that order) as PIL images at `dpi`, one at a time
    (a deck's bitmaps held together were gigabytes): the whole page (a press card with its
    bleed), or with `trim` only its TrimBox (the card without its bleed). Each is `pixels()`
    of its box on each side, the box drawn exactly onto it, and carries `dpi` (written as
    the PNG's pHYs by `png_bytes`). `pdf` is the PDF's bytes, or a `pypdfium2.PdfDocument`
    its caller holds open (and closes): opening a PDF of 2,000 pages took 11 ms."""
    import pypdfium2 as pdfium

    owned = isinstance(pdf, (bytes, bytearray))
    document: Any = pdfium.PdfDocument(pdf) if owned else pdf
    try:
        for index in indexes:
            page = document[index]
            try:
                image = _render_box(page, page.get_trimbox() if trim else page.get_cropbox(), dpi)
            finally:
                page.close()
            image.info["dpi"] = (dpi, dpi)
            yield image
    finally:
        if owned:
            document.close()


def images_selected(
    pdf: bytes | Any, indexes: list[int], dpi: float = 150.0, trim: bool = False
) -> list:
    """`images_each` as a list (a few pages: a sheet's, a preview's)."""
    return list(images_each(pdf, indexes, dpi, trim))


def _render_box(page, box: tuple[float, float, float, float], dpi: float):
    """`box` (left, bottom, right, top in PDF units) of `page` onto a bitmap of exactly
    `pixels()` of its width and height (PDFium's own render rounds each crop edge up, a
    pixel short of the size asked for)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    left, bottom, right, top = box
    view_left, _, _, view_top = page.get_cropbox()  # PDFium draws the crop box at (0, 0)
    width, height = pixels(right - left, dpi), pixels(top - bottom, dpi)
    sx, sy = width / (right - left), height / (top - bottom)
    bitmap = pdfium.PdfBitmap.new_native(
        width, height, format=pdfium_c.FPDFBitmap_BGR, rev_byteorder=True
    )
    bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
    matrix = pdfium_c.FS_MATRIX(sx, 0, 0, sy, -(left - view_left) * sx, -(view_top - top) * sy)
    clip = pdfium_c.FS_RECTF(0, 0, width, height)
    flags = pdfium_c.FPDF_REVERSE_BYTE_ORDER
    pdfium_c.FPDF_RenderPageBitmapWithMatrix(
        bitmap, page, ctypes.byref(matrix), ctypes.byref(clip), flags
    )
    return bitmap.to_pil()


def png_bytes(image) -> bytes:
    """A PIL image as PNG bytes, without timestamps or text chunks (deterministic), with a
    pHYs chunk at the image's `dpi` if it has one (print services and editors read 72 dpi
    without it).

    zlib level 1 with run-length matching (Z_RLE): a card image is a third larger than at the
    default level 6 but encodes in half the time, and encoding is most of the cost of
    hundreds of 300 dpi cards; RLE is a tenth faster again and smaller (flat areas)."""
    buffer = io.BytesIO()
    dpi = image.info.get("dpi")
    extra = {"dpi": dpi} if dpi else {}
    image.save(buffer, format="PNG", optimize=False, compress_level=1, compress_type=Z_RLE, **extra)
    return buffer.getvalue()


def png_each(images: Iterable[Any]) -> Iterator[bytes]:
    """`png_bytes` of each image, in order, as they come. Encoding is most of an export's
    time and Pillow lets go of the GIL while it compresses, so a few threads share it (the
    same bytes, in the same order). The bitmaps waiting for them are bounded in number
    (twice the threads) and in pixels (`PENDING_PIXELS`): the next image is drawn only
    once those waiting are under it, so a deck of any size, or of cards of any size, holds
    a few bitmaps at a time (four 150 M pixel cards waiting were 2.3 GB)."""
    workers = min(ENCODERS, os.cpu_count() or 1)
    if workers < 2:
        yield from (png_bytes(image) for image in images)
        return
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    pending: deque[tuple[Future[bytes], int]] = deque()
    waiting = 0  # pixels of the bitmaps in `pending`
    with ThreadPoolExecutor(workers, thread_name_prefix="png") as pool:
        for image in images:
            size = image.width * image.height
            pending.append((pool.submit(png_bytes, image), size))
            waiting += size
            del image  # the pool holds it while it waits, not this loop
            while pending and (len(pending) >= 2 * workers or waiting >= PENDING_PIXELS):
                done, size = pending.popleft()
                waiting -= size
                yield done.result()
        while pending:
            yield pending.popleft()[0].result()


PENDING_PIXELS = 40_000_000
"""Pixels of the bitmaps waiting to be encoded at once (about 120 MB): a card of more is
encoded before the next is drawn."""


ENCODERS = 4  # threads encoding PNGs at most (fewer on a machine with fewer cores)


def png_selected(
    pdf: bytes, indexes: list[int], dpi: float = 150.0, trim: bool = False
) -> list[bytes]:
    """The pages at `indexes` as PNG bytes (see `png_bytes`), a few bitmaps held at a time."""
    return list(png_each(images_each(pdf, indexes, dpi, trim)))
