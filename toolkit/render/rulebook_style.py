"""The rulebook's look that comes from the game: game.yaml's `style:` (its font, heading
font, accent colour and cover picture), resolved to faces and a colour the rulebook draws
with and the checks check against. A game without `style:` keeps the toolkit's look."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from toolkit.render.fonts import FILES, font_name, register

if TYPE_CHECKING:
    from toolkit.content.game import Game


@dataclass(frozen=True)
class Faces:
    """The faces of a rulebook: its text's four styles and its headings' (bold) face."""

    regular: str = "regular"
    bold: str = "bold"
    italic: str = "italic"
    bolditalic: str = "bolditalic"
    heading: str = "bold"

    @property
    def body(self) -> str:
        return self.regular

    def font(self, style: str) -> str:
        """The reportlab name of one of its styles (`regular`, ..., `heading`)."""
        return font_name(getattr(self, style))


def rulebook_faces(game: Game) -> Faces:
    """The faces game.yaml's `style.font` and `style.heading_font` name (Noto Sans where a
    family or style is missing: `validate` reports it)."""
    from toolkit.render.printjob import game_fonts

    fonts = game_fonts(game)
    style = game.manifest.style if game.manifest is not None else None
    heading = (style.heading_font or style.font) if style is not None else None
    return Faces(
        regular=fonts.face(None, "regular"),
        bold=fonts.face(None, "bold"),
        italic=fonts.face(None, "italic"),
        bolditalic=fonts.face(None, "bolditalic"),
        heading=fonts.face(heading, "bold"),
    )


@cache
def register_faces(faces: Faces) -> None:
    """Platypus maps <b> and <i> through a registered family: register the text's."""
    from reportlab.pdfbase import pdfmetrics

    register()
    if faces.regular in FILES:
        return
    names = [font_name(getattr(faces, s)) for s in FILES]
    pdfmetrics.registerFontFamily(
        names[0], normal=names[0], bold=names[1], italic=names[2], boldItalic=names[3]
    )


def cover_path(game: Game) -> Path | None:
    """game.yaml's `style.cover` as a file inside the game folder (None without one, or if
    it is missing or leaves the folder: `validate` reports that, P004)."""
    from toolkit.fileio import real_path

    style = game.manifest.style if game.manifest is not None else None
    if style is None or style.cover is None:
        return None
    root = real_path(game.root)
    path = real_path(game.root / style.cover)
    return path if path.is_relative_to(root) and path.is_file() else None
