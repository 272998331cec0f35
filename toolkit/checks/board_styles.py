"""Board styles: an icon a style names must exist, or the space would quietly show a letter
and the flight its bare arc (the game's plugin glyphs, its SVG icons and the toolkit's icons
count, as they do when the board is drawn: toolkit.render.boards.look); and a board kind's
data must fit its page (P016)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.checks import CheckFamily, register
from toolkit.checks.framed import framed
from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Severity, rule

P_BOARD_ICON = rule(
    "P015", "unknown-board-icon", "A board style names an icon that does not exist."
)
P_BOARD_FIT = rule("P016", "board-fit", "A board's data cannot be drawn on its page.")


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    # reads no deck nor question bank: kept whole while no other file changes
    yield from framed("board-styles", _check, game)


def _check(game: Game) -> Iterator[Diagnostic]:
    yield from _fit(game)
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
        named: list[tuple[tuple[str | int, ...], str | None]] = [
            (("style", "spaces", k, "icon"), s.icon) for k, s in style.spaces.items()
        ]
        named += [(("style", "links", k, "marker"), s.marker) for k, s in style.links.items()]
        icons = getattr(loaded.model, "icons", None)  # icons on numbered squares (score track)
        if isinstance(icons, dict):
            named += [(("icons", number), icon) for number, icon in icons.items()]
        for path, icon in named:
            if icon is not None and icon not in known and loaded.doc is not None:
                yield P_BOARD_ICON.at(
                    loaded.rel,
                    loaded.doc.span(path),
                    f"{'.'.join(map(str, path))}: no icon {icon!r}; icons: {listed}",
                )


def _fit(game: Game) -> Iterator[Diagnostic]:
    """P016: what a board kind says cannot be drawn (a score track's count past its page, a
    map's title wider than the poster), and what its layout gives up on (a warning)."""
    if not game.boards:
        return  # no import of the board models for a game without boards
    from toolkit.content.models.board import board_kinds

    for loaded in game.boards:
        if loaded.model is None or loaded.doc is None:
            continue
        entry = board_kinds().get(getattr(loaded.model, "kind", ""))
        hook = entry.problems if entry is not None else None
        for path, message in hook(loaded.model) if hook is not None else []:
            yield P_BOARD_FIT.at(loaded.rel, loaded.doc.span(path), message)
        drawn = entry.drawn_problems if entry is not None else None
        if drawn is None or game.manifest is None:
            continue
        from toolkit.render.boards import board_look

        source = game.manifest.source_language
        langs = [source, *(lang for lang in game.manifest.languages if lang != source)]
        seen = set()  # a legend too large in every language is one finding
        for lang in langs:
            look = board_look(game, loaded.model, lang)
            for path, message, error in drawn(loaded.model, look, lang == langs[0]):
                if path in seen:
                    continue
                seen.add(path)
                severity = None if error else Severity.WARNING
                yield P_BOARD_FIT.at(loaded.rel, loaded.doc.span(path), message, severity)


register(CheckFamily("board-styles", "Board looks: styled kinds the board uses.", check))
