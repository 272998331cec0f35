"""PDF pages as PNG images, for per-card images, virtual-table sheets and the live preview.

Images are rasterised from the very pages `build` draws (pypdfium2, PDFium's renderer), so
what a designer sees on screen or in Tabletop Simulator is what prints: one drawing path.
"""

from __future__ import annotations

import io
from collections.abc import Generator


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


def images_selected(pdf: bytes, indexes: list[int], dpi: float = 150.0, trim: bool = False) -> list:
    """The pages at `indexes` (0-based, in that order) as PIL images at `dpi`; with `trim`,
    only each page's TrimBox (a card without its bleed)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    out = []
    try:
        for index in indexes:
            page = document[index]
            try:
                crop = (0.0, 0.0, 0.0, 0.0)
                if trim:
                    left, bottom, right, top = page.get_trimbox()
                    mleft, mbottom, mright, mtop = page.get_mediabox()
                    crop = (left - mleft, bottom - mbottom, mright - right, mtop - top)
                bitmap = page.render(scale=dpi / 72.0, crop=crop, draw_annots=False)
                out.append(bitmap.to_pil())
            finally:
                page.close()
    finally:
        document.close()
    return out


def png_bytes(image) -> bytes:
    """A PIL image as PNG bytes, without timestamps or text chunks (deterministic).

    zlib level 1: a card image is a third larger than at the default level 6 but encodes in
    half the time, and encoding is most of the cost of hundreds of 300 dpi cards."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=1)
    return buffer.getvalue()


def png_selected(
    pdf: bytes, indexes: list[int], dpi: float = 150.0, trim: bool = False
) -> list[bytes]:
    """`images_selected` as PNG bytes (see `png_bytes`)."""
    return [png_bytes(image) for image in images_selected(pdf, indexes, dpi, trim)]
