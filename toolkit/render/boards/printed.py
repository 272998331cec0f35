"""What a board prints, as its drawer prints it: each string with the face it is set in.

The checks of printed letters (P002 on boards) ask the drawer itself rather than guess from
the data: a phrase filled, a label capitalised (`'ŉ'.upper()` is two letters), a stop's
number and the legend are all strings the drawer sets, none of them written as such in the
board's file. The board is drawn on a canvas that records its text and writes nothing.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from toolkit.content.templating import substitute
from toolkit.render.boards.look import Look
from toolkit.render.fonts import font_name

STYLES = ("regular", "bold", "italic", "bolditalic")
ASSEMBLY = {"n": "12", "ov": "10", "cols": "4", "rows": "3", "paper": "A4", "pc": "50"}
"""Numbers of the kind the assembly page prints in its words (toolkit.render.tiling)."""


class _Recording(PDFTextObject):
    def _formatText(self, text: str) -> Any:  # noqa: N802 (reportlab's name)
        self._canvas.printed.append((text, self._fontname))  # type: ignore[attr-defined]
        return super()._formatText(text)  # type: ignore[misc]


class _Canvas(Canvas):
    """A canvas that keeps every string set in text (drawString and text objects alike)."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO())
        self.printed: list[tuple[str, str]] = []

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:  # noqa: N802
        return _Recording(self, x, y, direction=direction)


def printed_strings(drawings: list[Any], look: Look) -> list[tuple[str, str]]:
    """(text, face) of every string the drawings set in one of the board's faces, then the
    words of the tiled PDF's assembly page and tile footers (regular face) with numbers of
    the kind they print; a string in another font (a plugin's glyph) is left out."""
    from toolkit.render.tiling import TEXT

    faces = {font_name(look.face(style)): look.face(style) for style in STYLES}
    canvas = _Canvas()
    for drawing in drawings:
        drawing.draw(canvas)
    found = [(text, faces[font]) for text, font in canvas.printed if font in faces]
    regular = look.face("regular")
    words = TEXT.get(look.lang, TEXT["en"]).values()
    found += [(substitute(text, ASSEMBLY), regular) for text in words]
    found += [(f"{drawing.title}  ·  1/10", regular) for drawing in drawings]
    return found
