"""Reading geometry back out of PDFs (pypdfium2): object bounds and text in a rectangle."""

from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

MM = 72 / 25.4


def objects(pdf: bytes, index: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(type, bounds) of every top-level object on page `index`, in drawing order."""
    document = pdfium.PdfDocument(pdf)
    page = document[index]
    return [(obj.type, tuple(obj.get_bounds())) for obj in page.get_objects(max_depth=0)]


def page_count(pdf: bytes) -> int:
    return len(pdfium.PdfDocument(pdf))


def page_text(pdf: bytes, index: int) -> str:
    return pdfium.PdfDocument(pdf)[index].get_textpage().get_text_range()


def text_in(pdf: bytes, index: int, box: tuple[float, float, float, float]) -> str:
    """The text whose characters lie in `box` (left, bottom, right, top; points)."""
    page = pdfium.PdfDocument(pdf)[index]
    return page.get_textpage().get_text_bounded(*box).strip()


def paths(pdf: bytes, index: int) -> list[tuple[float, float, float, float]]:
    return [b for t, b in objects(pdf, index) if t == pdfium_c.FPDF_PAGEOBJ_PATH]


def words(pdf: bytes, index: int) -> list[tuple[str, tuple[float, float]]]:
    """Each run of text between line breaks or spaces, with the centre of its box."""
    page = pdfium.PdfDocument(pdf)[index]
    text = page.get_textpage()
    out: list[tuple[str, tuple[float, float]]] = []
    chars: list[tuple[str, tuple[float, float, float, float]]] = []

    def flush() -> None:
        if chars:
            word = "".join(c for c, _ in chars)
            left = min(b[0] for _, b in chars)
            right = max(b[2] for _, b in chars)
            bottom = min(b[1] for _, b in chars)
            top = max(b[3] for _, b in chars)
            out.append((word, ((left + right) / 2, (bottom + top) / 2)))
            chars.clear()

    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        if char.isspace():
            flush()
        else:
            chars.append((char, text.get_charbox(i)))
    flush()
    return out
