"""Board styles: an icon a style names must exist, or the space would quietly show a letter
and the flight its bare arc. The game's plugin glyphs, its SVG icons and the toolkit's icons
count, as they do when the board is drawn (toolkit.render.boards.look)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, rule

P_BOARD_ICON = rule(
    "P015", "unknown-board-icon", "A board style names an icon that does not exist."
)


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    styled = [f for f in game.boards if f.model is not None and f.doc is not None]
    styled = [f for f in styled if getattr(f.model, "style", None) is not None]
    if not styled:
        return
    from toolkit.render.boards.look import plugin_glyphs
    from toolkit.render.icons import icon_set

    known = set(plugin_glyphs(game)) | set(icon_set(game.root).names) | {"none"}
    listed = ", ".join(sorted(known))
    for loaded in styled:
        style = getattr(loaded.model, "style", None)
        if style is None:
            continue
        named = [(("style", "spaces", k, "icon"), s.icon) for k, s in style.spaces.items()]
        named += [(("style", "links", k, "marker"), s.marker) for k, s in style.links.items()]
        for path, icon in named:
            if icon is not None and icon not in known and loaded.doc is not None:
                yield P_BOARD_ICON.at(
                    loaded.rel,
                    loaded.doc.span(path),
                    f"{'.'.join(path)}: no icon {icon!r}; icons: {listed}",
                )
