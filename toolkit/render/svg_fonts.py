"""The fonts an icon's SVG text may be drawn in: the standard PDF fonts, nothing read.

svglib looks a `font-family` it does not know up as a file, `<family>.ttf` (an absolute
path or one relative to the current folder, or a URL reportlab fetches), then through
`fc-match`, and embeds what it finds in the PDF: `font-family="/home/me/private/x"` read
`/home/me/private/x.ttf` from outside the game. An SVG comes from a game folder, so here a
family that is not one of the standard fonts (Helvetica, Times, Courier and their aliases
`sans-serif`, `serif`, `monospace`…) is drawn in svglib's default, Helvetica: no file is
opened and no program run, and the same SVG prints the same on every machine.
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def confined() -> Any:
    """svglib's font map, confined: installed as its global map too, which the renderers
    of referenced SVG files use (svglib gives them no map of their own)."""
    from svglib import fonts

    class ConfinedFontMap(fonts.FontMap):
        """A FontMap that maps names to fonts reportlab already has, and reads no file."""

        def register_font(
            self,
            font_family: str,
            font_path: str | None = None,
            weight: str = "normal",
            style: str = "normal",
            rlgFontName: str | None = None,  # noqa: N803 (svglib's name)
        ) -> tuple[str | None, bool]:
            if font_path is not None:
                return None, False
            return super().register_font(font_family, None, weight, style, rlgFontName)

        def use_fontconfig(
            self, font_name: str, weight: str = "normal", style: str = "normal"
        ) -> tuple[str | None, bool]:
            return None, False

    font_map = ConfinedFontMap()
    fonts._font_map = font_map  # what get_global_font_map() returns from now on
    return font_map
