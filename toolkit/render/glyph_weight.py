"""What a document's text in the game's own fonts costs a rasteriser (probes 62-2, 62-5,
62-6), in the export's unit (`raster_weight`: one image pixel drawn and encoded, ~11 ns).

PDFium rasterises each distinct (glyph, size) once a document, walking the glyph's outline,
so a font of heavy glyphs costs by the glyphs and sizes each language's PDF prints, which no
per-font bound sees; and a font whose glyphs advance nothing prints any number of letters on
one another. A face's glyphs are worked out before it is drawn (`Element.glyphs_drawn`), a
board's or rulebook's as its PDF is made (`glyph_tally`); their prices are
`raster_weight`'s (`GLYPH_POINT` to `OVERPRINT_INK`). The toolkit's own fonts are light and are
not counted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit.render.raster_weight import OVERPRINT_ADVANCE, FaceLoad, face_load


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


def face_load_with_glyphs(items: list[Any], job: Any, glyphs: Glyphs | None = None) -> FaceLoad:
    """`raster_weight.face_load` of one resolved face, and what it draws of the game fonts'
    glyphs (`glyph_load`): with `glyphs`, those are added to it instead (the faces of one
    document rasterise a glyph at a size once); without, the face's own are priced, and a
    glyph past P009's bounds raises GlyphsRefused."""
    load = face_load(items, job)
    if glyphs is not None:
        glyph_load(items, job, glyphs)
        return load
    own = Glyphs()
    glyph_load(items, job, own)
    why = own.problem()
    if why is not None:
        raise GlyphsRefused(why)
    return load + own.load()
