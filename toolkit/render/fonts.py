"""Fonts shipped under templates/fonts (OFL), registered once with reportlab.

reportlab's TTFont reads TrueType outlines and embeds a subset of each font used, so PDFs
carry their fonts. `missing_glyphs` is the check `validate` and `build` share.

A face is named by a string: the shipped Noto Sans by its style (`regular`, `bold`, ...), a
game's own font (toolkit.render.game_fonts) by the key it was registered under; every
function here takes either, so measuring, drawing and checking use the face that prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from toolkit.content.game import repo_root
from toolkit.content.templating import INLINE_ICON
from toolkit.render.icons import BUILTIN
from toolkit.render.kept_faces import tagged_font

FAMILY = "NotoSans"
FILES = {
    "regular": "NotoSans-Regular.ttf",
    "bold": "NotoSans-Bold.ttf",
    "italic": "NotoSans-Italic.ttf",
    "bolditalic": "NotoSans-BoldItalic.ttf",
}
IGNORED = {"\n", "\t", "\u00ad"}
# Characters Noto Sans lacks that running text (rulebooks) prints as look-alikes instead.
FALLBACKS = {"\u2192": "\u2013\u203a", "\u2190": "\u2039\u2013"}


def font_dir() -> Path:
    return repo_root() / "templates" / "fonts"


def font_name(style: str = "regular") -> str:
    """The reportlab name of a style (registering that font on first use)."""
    return _registered(style)


@cache
def _registered(style: str) -> str:
    if style in _GAME_FACES:
        return style
    name = f"{FAMILY}-{style}"
    pdfmetrics.registerFont(tagged_font(name, font_dir() / FILES[style]))
    return name


_GAME_FACES: set[str] = set()


def register_face(key: str, font: TTFont) -> str:
    """Register a game's font under `key` (unique to its file's bytes), once."""
    if key not in _GAME_FACES:
        pdfmetrics.registerFont(font)
        _GAME_FACES.add(key)
    return key


@cache
def register() -> None:
    """Register the whole family (Platypus maps <b>/<i> through it)."""
    for style in FILES:
        _registered(style)
    pdfmetrics.registerFontFamily(
        FAMILY,
        normal=f"{FAMILY}-regular",
        bold=f"{FAMILY}-bold",
        italic=f"{FAMILY}-italic",
        boldItalic=f"{FAMILY}-bolditalic",
    )


@cache
def _drawn(style: str) -> tuple[set[str], Mapping[int, int]]:
    """The characters of the font found to draw so far (grown by `missing_glyphs` from the
    texts it is asked about) and its character map (code point to glyph). A set of every
    character the font holds (~3,000 a face, built from its map) cost ~0.3 MB and ~0.5 ms a
    face for the few dozen letters a game's texts use."""
    font = pdfmetrics.getFont(font_name(style))
    if not isinstance(font, TTFont):  # every font the toolkit registers is TrueType
        raise TypeError(f"{font_name(style)} is not a TrueType font")
    return set(), font.face.charToGlyph


@cache
def stand_ins() -> dict[str, str]:
    """The FALLBACKS running text prints (those Noto Sans lacks): what `markdown_flow.markup`
    replaces, in whatever face the text prints in."""
    return {ch: sub for ch, sub in FALLBACKS.items() if missing_glyphs(ch)}


def missing_glyphs(text: str, style: str = "regular") -> list[str]:
    """Characters of `text` the font cannot draw (each once, in order)."""
    drawn, glyphs = _drawn(style)
    if drawn.issuperset(text):  # nearly every text: one pass in C, no list made
        return []
    # each distinct character once, in order of first use (a text repeats its letters)
    missing = []
    for ch in dict.fromkeys(text):
        if ch in drawn:
            continue
        if ord(ch) in glyphs:
            drawn.add(ch)
        elif ch not in IGNORED:
            missing.append(ch)
    return missing


def text_width(
    text: str, size: float, style: str = "regular", icons: frozenset[str] = BUILTIN.names
) -> float:
    """Width in points; words are measured once and cached (reportlab applies no kerning,
    so a line's width is the sum of its words' and spaces' widths). `icons` are the names
    that print as inline icons (a game's own with the built-ins)."""
    return sum(unit_width(word, style, icons) for word in _words(text)) * size


def ascent_descent(size: float, style: str = "regular") -> tuple[float, float]:
    """How far the font's glyphs may reach above the baseline and below it (negative), in
    points at `size`, whatever the text: a line's height is the one less the other."""
    ascent, descent = pdfmetrics.getAscentDescent(font_name(style), size)
    return ascent, descent


def _words(text: str) -> list[str]:
    parts: list[str] = []
    for word in text.split(" "):
        parts.append(word)
        parts.append(" ")
    parts.pop()
    return [p for p in parts if p]


@cache
def unit_width(word: str, style: str, icons: frozenset[str] = BUILTIN.names) -> float:
    """Width of `word` at 1 pt, an inline icon (`:die:`) counting one em, as it is drawn
    (cached: card texts repeat the same words)."""
    if ":" in word:
        total, last = 0.0, 0
        for match in INLINE_ICON.finditer(word):
            if match.group(1) in icons:
                total += _plain_width(word[last : match.start()], style) + 1.0
                last = match.end()
        return total + _plain_width(word[last:], style)
    return _plain_width(word, style)


def _plain_width(word: str, style: str) -> float:
    return pdfmetrics.stringWidth(word, font_name(style), 1.0)


def overflow_length(word: str, width: float, size: float, style: str) -> int:
    """How many first letters of `word` (no inline icon in it) are wider than `width` at
    `size`, fewest first; len(word) + 1 when the whole word is not. Letters' widths only add
    up, so every longer head is wider still: a line breaking a long word need look no
    further. Doubling then halving measures O(n log n) letters for an answer of n, whatever
    the word's length; uncached (unit_width keeps what it measures: these heads are not
    measured again)."""

    def over(count: int) -> bool:
        return _plain_width(word[:count], style) * size > width

    if over(0):
        return 0
    low, high = 0, 1  # `low` letters are not wider; `high` to be seen
    while True:
        if high >= len(word):
            high = len(word)
            if not over(high):
                return len(word) + 1
            break
        if over(high):
            break
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if over(middle):
            high = middle
        else:
            low = middle
    return high
