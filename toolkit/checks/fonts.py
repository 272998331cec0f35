"""Fonts: a game's font files that give no face (P009), and a family or style that a
layout, board or game.yaml's `style:` names but no file provides (P010), at the place that
names it. Missing glyphs are P002 (toolkit.checks.printfit), in the face that prints. A game
font whose glyph for a character the game may print reaches far beyond the em square is P009
too (`game_fonts.reach_problem`): only those glyphs are decoded."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolkit.checks import CheckFamily, register
from toolkit.checks.printfit import P_IMAGE, used_layouts
from toolkit.content.game import Game
from toolkit.content.printing import prints
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Span, rule
from toolkit.render.game_fonts import FontSet, reach_problem
from toolkit.render.layout import layout_document, layout_file, load_layout
from toolkit.render.printjob import game_fonts

P_FONT_FILE = rule("P009", "font-unreadable", "A game's font file (fonts/*) cannot be used.")
P_FONT = rule("P010", "unknown-font", "A font family or style is named that no font file provides.")


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    fonts = game_fonts(game)
    for problem in fonts.problems:
        yield P_FONT_FILE.at(problem.file, Span(), problem.message)
    for display, why in reach_problems(game):
        yield P_FONT_FILE.at(display, Span(), why)
    if game.manifest is None or game.manifest_file is None:
        return
    yield from _manifest(game, fonts)
    for name in used_layouts(game):
        yield from _layout(game, name, fonts)
    yield from _boards(game, fonts)


def reach_problems(game: Game) -> Iterator[tuple[str, str]]:
    """Each font file of the game (as displayed) whose glyphs for the characters it may
    print cost too much to draw, and why (`game_fonts.reach_problem`)."""
    fonts = game_fonts(game)
    if fonts.files:  # a game without fonts of its own pays nothing
        printed = _printable(game)
        for key, display in fonts.files.items():
            why = reach_problem(key, printed)
            if why is not None:
                yield display, why


TOOLKIT_OWN = frozenset(
    chr(c)
    for low, high in ((0x20, 0x17F), (0x2000, 0x206F), (0x2190, 0x21FF))
    for c in range(low, high + 1)
)
"""Characters the toolkit may print itself in a game's font (its own words in fr, es and en,
numbers, punctuation, arrows), whatever the game writes."""


def _printable(game: Game) -> set[str]:
    """Every character a game's own font may print: those of its content files (keys and
    values, every language), its own layouts, its rulebooks as rendered (a template can
    print what its source does not write), and the toolkit's own (`TOOLKIT_OWN`). More than
    prints: what matters is that nothing printed is left out."""
    found = set(TOOLKIT_OWN)
    files = [game.manifest_file, *game.decks, *game.boards, *game.questions, game.glossary]
    docs: list[Any] = [f.doc for f in files if f is not None]
    docs += [layout_document(name, game.root)[0] for name in used_layouts(game)]
    for doc in docs:
        if doc is not None:
            _characters(doc.data, found)
    if game.rulebook and game.manifest is not None:
        from toolkit.render.rulebook_source import RulebookError, read_rulebook, render_markdown

        for lang, path in game.rulebook.items():
            if not prints(lang):
                continue  # a `build --lang`'s gate: that rulebook is not printed
            try:
                source = read_rulebook(path, game.root)
                found.update(source)
                found.update(render_markdown(game, lang, source))  # as the rulebook check
            except RulebookError:  # the rulebook check says why; it prints nothing
                continue
    return found


def _characters(data: Any, found: set[str]) -> None:
    """Add the characters of every string in YAML data (keys too) to `found`."""
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.update(node)
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, Iterable) and not isinstance(node, bytes):
            stack.extend(node)


def _boards(game: Game, fonts: FontSet) -> Iterator[Diagnostic]:
    """A board's `style.font`: a family the game has (its styles stand in for each other)."""
    for loaded in game.boards:
        style = getattr(loaded.model, "style", None)
        family = getattr(style, "font", None)
        if family is None or loaded.doc is None:
            continue
        why = fonts.missing(family, None)
        if why:
            yield P_FONT.at(loaded.rel, loaded.doc.span(("style", "font")), f"board: {why}")


def _manifest(game: Game, fonts: FontSet) -> Iterator[Diagnostic]:
    """game.yaml's `style.font` and `style.heading_font` (families the game has; a style a
    family lacks prints in its nearest), and the cover picture."""
    assert game.manifest is not None and game.manifest_file is not None
    style, loaded = game.manifest.style, game.manifest_file
    doc = loaded.doc
    if doc is None:
        return
    for field in ("font", "heading_font"):
        family = getattr(style, field)
        why = fonts.missing(family, None) if family is not None else None
        if why:
            yield P_FONT.at(loaded.rel, doc.span(("style", field)), why)
    if style.cover is not None:
        from toolkit.render import pictures
        from toolkit.render.rulebook_style import cover_path

        path = cover_path(game)
        why = " is missing or outside the game folder" if path is None else None
        if path is not None and (problem := pictures.problem(path, game.root)[1]):
            why = f": {problem}"
        if why:
            yield P_IMAGE.at(
                loaded.rel, doc.span(("style", "cover")), f"cover picture {style.cover!r}{why}"
            )


def _layout(game: Game, name: str, fonts: FontSet) -> Iterator[Diagnostic]:
    """Each element's own family in the very style it asks, at its `font:`. An element
    without a family prints in the game's, in its nearest style (checked at game.yaml)."""
    layout, _ = load_layout(name, game.root)
    doc, _ = layout_document(name, game.root)
    if layout is None or doc is None:
        return
    for index, element in enumerate(layout.elements):
        asked = element.font_asked()
        if asked is None or asked[0] is None:
            continue
        why = fonts.missing(*asked)
        if why is not None:
            where = doc.span(("elements", index, "font"))
            yield P_FONT.at(layout_file(name, game.root), where, f"layout {name!r}: {why}")


register(CheckFamily("fonts", "Fonts a game names: files present, glyphs covered.", check))
