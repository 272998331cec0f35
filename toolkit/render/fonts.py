"""Fonts shipped under templates/fonts (OFL), registered once with reportlab.

reportlab's TTFont reads TrueType outlines and embeds a subset of each font used, so PDFs
carry their fonts. `missing_glyphs` is the check `validate` and `build` share.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from toolkit.content.game import repo_root

FAMILY = "NotoSans"
FILES = {
    "regular": "NotoSans-Regular.ttf",
    "bold": "NotoSans-Bold.ttf",
    "italic": "NotoSans-Italic.ttf",
    "bolditalic": "NotoSans-BoldItalic.ttf",
}
IGNORED = {"\n", "\t", "\u00ad"}


def font_dir() -> Path:
    return repo_root() / "templates" / "fonts"


def font_name(style: str = "regular") -> str:
    """The reportlab name of a style (registering the family on first use)."""
    register()
    return f"{FAMILY}-{style}"


@cache
def register() -> None:
    for style, file in FILES.items():
        pdfmetrics.registerFont(TTFont(f"{FAMILY}-{style}", str(font_dir() / file)))
    pdfmetrics.registerFontFamily(
        FAMILY,
        normal=f"{FAMILY}-regular",
        bold=f"{FAMILY}-bold",
        italic=f"{FAMILY}-italic",
        boldItalic=f"{FAMILY}-bolditalic",
    )


@cache
def _cmap(style: str) -> frozenset[int]:
    font = pdfmetrics.getFont(font_name(style))
    return frozenset(font.face.charToGlyph)


def missing_glyphs(text: str, style: str = "regular") -> list[str]:
    """Characters of `text` the font cannot draw (each once, in order)."""
    cmap = _cmap(style)
    seen: list[str] = []
    for ch in text:
        if ch not in IGNORED and ord(ch) not in cmap and ch not in seen:
            seen.append(ch)
    return seen


def text_width(text: str, size: float, style: str = "regular") -> float:
    return pdfmetrics.stringWidth(text, font_name(style), size)
