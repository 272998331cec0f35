"""Make small TrueType fonts for tests: the shipped Noto Sans cut to the characters asked for
and renamed to another family, so a test game can bring a font of its own (no binary font in
the repository, no system font needed)."""

from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SHIPPED = Path(__file__).parent.parent / "templates" / "fonts"
FILES = {"regular": "Regular", "bold": "Bold", "italic": "Italic", "bolditalic": "BoldItalic"}
LATIN = "".join(chr(c) for c in range(0x20, 0x7F))


def make_font(path: Path, family: str, style: str = "regular", chars: str = LATIN) -> Path:
    """Write `family` in `style` to `path`, with glyphs for `chars` only."""
    font = TTFont(SHIPPED / f"NotoSans-{FILES[style]}.ttf")
    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted({ord(ch) for ch in chars}))
    subsetter.subset(font)
    subfamily = {"regular": "Regular", "bold": "Bold", "italic": "Italic"}.get(style, "Bold Italic")
    postscript = f"{family.replace(' ', '')}-{subfamily.replace(' ', '')}"
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (16, 17, 21, 22):
            names.removeNames(nameID=record.nameID)
    for name_id, value in (
        (1, family),
        (2, subfamily),
        (4, f"{family} {subfamily}"),
        (6, postscript),
    ):
        names.setName(value, name_id, 3, 1, 0x409)
        names.setName(value, name_id, 1, 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    font.save(path)
    return path
