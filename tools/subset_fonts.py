"""Make the shipped fonts: Noto Sans (OFL) cut down to the Latin, Greek and Cyrillic
scripts and common symbols.

The full family covers more scripts (Vietnamese, IPA...) in ~520 KB a style; reportlab parses the
whole file on every run, so the shipped subset keeps start-up short and the repository small.
P002 checks content against the shipped files, so a character cut here is reported, never
silently dropped. fontTools is a dependency (it reads games' own fonts too).

Noto Sans (2020, as in Debian 12) has no minus sign (U+2212); the subset gains one drawn as
the plus sign's horizontal bar, which is how type designers draw a minus (same width, weight
and height as the plus, so "+1" and "−1" line up).

Usage: python tools/subset_fonts.py [SOURCE_DIR]   (default: Debian's fonts-noto-core folder)
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

STYLES = ("Regular", "Bold", "Italic", "BoldItalic")
RANGES = [
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x017F),  # Latin-1 Supplement, Latin Extended-A
    (0x0218, 0x021B),  # Romanian S and T with comma below
    (0x02C6, 0x02DD),  # spacing accents
    (0x0300, 0x036F),  # combining diacritics
    (0x0370, 0x03FF),  # Greek and Coptic
    (0x0400, 0x052F),  # Cyrillic, Cyrillic Supplement
    (0x1F00, 0x1FFF),  # Greek Extended (polytonic)
    (0x1E80, 0x1E85),  # Welsh W with grave, acute, diaeresis
    (0x1EF2, 0x1EF3),  # Welsh Y with grave
    (0x2000, 0x20CF),  # punctuation (incl. U+202F), super/subscripts, currency
    (0x2100, 0x22FF),  # letterlike symbols, number forms, arrows, mathematical operators
    (0x25A0, 0x26FF),  # geometric shapes, miscellaneous symbols
    (0xFB00, 0xFB06),  # Latin ligatures
    (0xFFFD, 0xFFFD),  # replacement character
]
TARGET = Path(__file__).resolve().parent.parent / "templates" / "fonts"
MINUS, PLUS = 0x2212, 0x002B


def add_minus(font: TTFont) -> None:
    """Give the font a minus sign: the plus sign's bar (its widest, lowest-to-highest band at
    the outline's left edge), with the plus sign's advance and side bearing."""
    cmap = font.getBestCmap()
    if MINUS in cmap or PLUS not in cmap:
        return
    glyf, hmtx = font["glyf"], font["hmtx"]
    plus = cmap[PLUS]
    points = list(glyf[plus].getCoordinates(glyf)[0])
    left = min(x for x, _ in points)
    right = max(x for x, _ in points)
    bar = sorted(y for x, y in points if x == left)
    low, high = bar[0], bar[-1]
    pen = TTGlyphPen(None)
    for x, y in ((left, low), (left, high), (right, high), (right, low)):
        (pen.lineTo if x != left or y != low else pen.moveTo)((x, y))
    pen.closePath()
    name = "uni2212"
    order = [*font.getGlyphOrder(), name]
    font.setGlyphOrder(order)
    glyf.setGlyphOrder(order)
    glyf.glyphs[name] = pen.glyph()
    hmtx[name] = hmtx[plus]
    for table in font["cmap"].tables:
        if table.isUnicode():
            table.cmap[MINUS] = name


def main() -> None:
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/noto")
    unicodes = [code for low, high in RANGES for code in range(low, high + 1)]
    options = subset.Options()
    options.layout_features = []  # reportlab neither shapes nor kerns: GSUB/GPOS go
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "DSIG"]
    options.name_IDs = ["*"]  # keep the copyright and licence names
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    for style in STYLES:
        font = TTFont(source / f"NotoSans-{style}.ttf")
        add_minus(font)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=unicodes)
        subsetter.subset(font)
        out = TARGET / f"NotoSans-{style}.ttf"
        font.save(out)
        print(f"{out.name}: {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
