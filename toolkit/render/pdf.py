"""Deterministic PDF canvases: same input, byte-identical output.

reportlab's `invariant=1` fixes the creation date and document id; we also set fixed
metadata, so PDFs can be compared byte for byte and cached.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from toolkit.render.fonts import font_name

_UNMAPPED = re.compile(r"[\x18-\x1f]")
"""The ASCII codes reportlab's PDFDocEncoding codec does not write as themselves (it refuses
them: PDFDocEncoding puts accents there)."""


_T = TypeVar("_T")


def _pdfdoc_encoded(x: str | _T) -> bytes | _T:
    """reportlab's `pdfdocEnc`, through which every string of a PDF file goes as it is
    written (a page's whole content stream too), giving the same bytes sooner: its codec
    maps each character through a table, ~3 ms per 100-card file of ASCII it writes
    unchanged. A string of ASCII that the codec writes as itself is encoded as ASCII; any
    other goes to the codec, as in reportlab."""
    if isinstance(x, str):
        if x.isascii() and _UNMAPPED.search(x) is None:
            return x.encode("ascii")
        return x.encode("extpdfdoc")
    return x


pdfdoc.pdfdocEnc = _pdfdoc_encoded  # pdfdoc's own functions look it up when they run

PAPERS: dict[str, tuple[float, float]] = {
    "a4": A4,
    "letter": letter,
    "a3": (297 * mm, 420 * mm),
    "a2": (420 * mm, 594 * mm),
    "a1": (594 * mm, 841 * mm),
}


@contextmanager
def pdf_canvas(
    pagesize: tuple[float, float], title: str, face: str = "regular"
) -> Iterator[tuple[Canvas, io.BytesIO]]:
    """A canvas writing into memory; the caller saves it and takes the bytes. `face`
    (toolkit.render.fonts) is its initial font: the game's, so no other font is embedded."""
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=pagesize,
        invariant=1,
        pageCompression=1,
        initialFontName=font_name(face),  # type: ignore[arg-type]  # a str, not a float
        initialFontSize=9,
    )
    canvas.setTitle(title)
    canvas.setAuthor("Playset")
    canvas.setCreator("Playset")
    canvas.setProducer("Playset (reportlab)")
    yield canvas, buffer


def record_pages(canvas: Canvas, keys: list[str]) -> None:
    """Append to `keys`, as each page of `canvas` is finished, a digest of what it draws:
    its operators, size and boxes. Two pages of one PDF with the same key draw the same
    pixels, for the fonts, pictures and forms their operators name are the document's, one
    object a name (a picture's name is its data's digest): drawn once, imaged once. The page
    is read from reportlab's own objects, which are not its public interface: where they are
    not as expected, each page keys itself (nothing merged, every page drawn)."""
    held: Any = canvas  # reportlab's page objects are not in its public interface

    def finished(number: int) -> None:
        try:
            page = held._doc.Pages.pages[-1]
            shape = (page.pagewidth, page.pageheight, page.Rotate)
            stream = str(page.stream)
        except AttributeError:  # a reportlab that keeps its pages otherwise: each its own
            keys.append(f"page {number}")
            return
        boxes = [getattr(held, f"_{box}Box", None) for box in ("crop", "art", "bleed", "trim")]
        digest = hashlib.sha256(repr((*shape, boxes)).encode())
        digest.update(stream.encode("utf-8", "surrogatepass"))
        keys.append(digest.hexdigest())

    canvas.setPageCallBack(finished)
