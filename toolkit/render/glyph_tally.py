"""What a PDF being drawn writes in the game's own fonts: each (font, size)'s characters and
the letters printed on one another, tallied as reportlab formats each piece of text.

The card faces' price works out what each face draws before any is drawn
(`Element.glyphs_drawn`); a board's or a rulebook's pages are laid out by platypus and the
board code, so their PDFs are made first and priced after (`exports.pages`), from this
tally: a rulebook in a font of 100-em glyphs printed at its ten sizes in 20 languages would
cost a rasteriser some 16 s that the pages' pixels do not count."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from toolkit.render.glyph_weight import Glyphs, overprinted
from toolkit.render.tallies import tallying

_TALLY: ContextVar[Glyphs | None] = ContextVar("glyph tally", default=None)
_INSTALLED: list[bool] = []


@contextmanager
def glyphs_tallied(game: Any) -> Iterator[Glyphs]:
    """A tally of what the PDFs drawn inside the block (in this thread or task) write in
    `game`'s own fonts; nothing for a game without any."""
    from toolkit.render.printjob import game_fonts

    glyphs = Glyphs()
    glyphs.files = game_fonts(game).files
    if not glyphs.files:
        yield glyphs
        return
    _install()
    with tallying(_TALLY, glyphs):
        yield glyphs


def _install() -> None:
    """Wrap reportlab's text formatting once a process: every piece of text a PDF writes
    (a canvas's strings, a paragraph's words) passes through it, with its font and size."""
    if _INSTALLED:
        return
    from reportlab.pdfgen.textobject import PDFTextObject

    formatted = PDFTextObject._formatText  # type: ignore[attr-defined]  # reportlab's own

    def tallied(self: Any, text: Any) -> Any:
        glyphs = _TALLY.get()
        if glyphs is not None and self._fontname in glyphs.files and text:
            font, size = self._fontname, float(self._fontsize)
            plain = str(text)
            glyphs.drawn.setdefault((font, round(size, 3)), set()).update(plain)
            overprinted(glyphs, font, size, plain)
        return formatted(self, text)

    PDFTextObject._formatText = tallied  # type: ignore[attr-defined]
    _INSTALLED.append(True)
