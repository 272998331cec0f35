"""What a document's text in the game's own fonts costs a rasteriser (probes 62-2, 62-5,
62-6), in the export's unit (`raster_weight`: one image pixel drawn and encoded, ~11 ns).

PDFium rasterises each distinct (glyph, size) once a document, walking the glyph's outline,
so a font of heavy glyphs costs by the glyphs and sizes each language's PDF prints, which no
per-font bound sees; and a font whose glyphs advance nothing prints any number of letters on
one another. A face's glyphs are worked out before it is drawn (`Element.glyphs_drawn`), a
board's or rulebook's as its PDF is made (`glyph_tally`). The toolkit's own fonts are light
and are not counted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit.render.raster_weight import FaceLoad

GLYPH_POINT = 2.0
"""An outline point of a game font's glyph drawn at one size in one document, in image
pixels, whatever the dpi: ~16 ns (7,650 (glyph, size) pairs of a 3,990-point glyph of 8 em:
0.5 s more than a 12-point glyph)."""

GLYPH_OUTLINE = 110.0
"""Each em of its outline, whatever the dpi: ~0.9 µs; and `GLYPH_EM` more for each pixel of
the size it is drawn at: ~27 ns. Measured on 7,650 (glyph, size) pairs of 87 em (400
points) at 20 to 36 points: 2.76 s more than a light glyph at 300 dpi, 1.71 s at 150."""

GLYPH_EM = 3.3
"""Each pixel of size a glyph is drawn at, for each em of its outline (see `GLYPH_OUTLINE`)."""

OVERPRINT_ADVANCE = 0.2
"""The least a letter advances along its line, in em: a line of a real font's letters
advances a quarter of an em a letter or more. Letters past what a line's width holds at
that are overprinted: a font whose glyphs advance nothing fits any text on one line, and
prints them all on one another (probe 62-6)."""

OVERPRINT_LETTER = 900.0
"""An overprinted letter, in image pixels, whatever its size: ~7.4 µs (312,000 letters of
12 points on 80 full-card boxes, 2.3 s more than the same boxes filled honestly)."""

GLYPH_INK = 0.25
"""A pixel of a glyph's box past `game_fonts.INK_ALLOWED`, for each letter drawn, in image
pixels: ~2.1 ns; and `GLYPH_INK_EM` for each square em of it, whatever the dpi: ~0.26 µs.
240,000 letters of 6 points in 8.8-em squares (under P009's reach; 76 em² each past the
allowance) took `export png --lang en` 28.5 s more than in a light font at 300 dpi, 5.7 s at
60 (probe 63-1); a third more."""

GLYPH_INK_EM = 32.0
"""See `GLYPH_INK`."""

OVERPRINT_INK = 0.033
"""And for each pixel of its em square at the dpi drawn: ~0.27 ns (the same at 96 points,
16 s)."""


class Glyphs:
    """The game fonts' characters a document draws, by font and size, and its letters drawn
    past what their lines hold (`glyph_load`)."""

    def __init__(self) -> None:
        self.drawn: dict[tuple[str, float], set[str]] = {}
        self.files: Mapping[str, str] = {}  # each game font's file, as the findings name it
        self.overprint = 0
        self.overprint_ink = 0.0
        self.ink = 0.0  # square points of glyph boxes past `game_fonts.INK_ALLOWED` a letter
        self.ink_em = 0.0  # the same in square em

    def load(self) -> FaceLoad:
        """Their outline points and em × size (`game_fonts.outline_sums`), as a FaceLoad."""
        from toolkit.render.game_fonts import outline_sums

        points, outline, em = 0, 0.0, 0.0
        for (font, size), characters in self.drawn.items():
            more, length = outline_sums(font, characters)
            points, outline, em = points + more, outline + length, em + length * size
        return FaceLoad(
            glyph_points=points,
            glyph_outline=outline,
            glyph_em=em,
            overprint=self.overprint,
            overprint_ink=self.overprint_ink,
            glyph_ink=self.ink,
            glyph_ink_em=self.ink_em,
        )

    def problem(self) -> str | None:
        """Why a game font cannot draw the characters drawn in it (`game_fonts.reach_problem`,
        P009's bounds on a glyph), with its file: `validate` judges the characters a game
        writes, and a layout's template may print others (probe 62-5)."""
        from toolkit.render.game_fonts import reach_problem

        fonts: dict[str, set[str]] = {}
        for (font, _), characters in self.drawn.items():
            fonts.setdefault(font, set()).update(characters)
        for font, characters in sorted(fonts.items()):
            why = reach_problem(font, characters)
            if why is not None:
                return f"{self.files.get(font, font)}: {why} (P009)"
        return None


class GlyphsRefused(ValueError):
    """A face draws a glyph of a game font past P009's bounds (`Glyphs.problem`)."""


def glyph_load(items: list[Any], job: Any, glyphs: Glyphs) -> None:
    """Add to `glyphs` the characters one resolved face draws in the game's own fonts
    (`Element.glyphs_drawn`): a rasteriser walks a glyph's outline for each size a document
    prints it at, so 450 distinct glyphs of 87 em at 17 sizes in 10 languages took `export
    png` of a 70 kB game 26 s more than a light font (probe 62-2). The toolkit's own fonts
    are light (under 30 em a glyph) and are not counted."""
    from toolkit.render.printjob import game_fonts

    own = game_fonts(job.game).files
    if not own:
        return
    glyphs.files = own
    for item in items:
        for font, size, text in item.element.glyphs_drawn(item, job):
            if font not in own:
                continue
            glyphs.drawn.setdefault((font, round(size, 3)), set()).update(text)
            overprinted(glyphs, font, size, text)


def overprinted(glyphs: Glyphs, font: str, size: float, text: str) -> None:
    """Add to `glyphs` the letters of a line of `text` drawn past what its width holds at
    `OVERPRINT_ADVANCE` an em a letter, and the ink its glyphs paint past a real font's
    (`game_fonts.excess_ink`)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from toolkit.render.game_fonts import excess_ink

    if size <= 0:
        return
    excess = excess_ink(font, text)
    glyphs.ink += excess * size * size
    glyphs.ink_em += excess
    holds = stringWidth(text, font, size) / (OVERPRINT_ADVANCE * size) + 1
    letters = len(text) - text.count(" ")
    if letters > holds:
        glyphs.overprint += int(letters - holds)
        glyphs.overprint_ink += (letters - holds) * size * size
