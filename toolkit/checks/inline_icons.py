"""Inline icons in texts (`:die:`): a name the renderer has no icon for prints as written,
colons and all, so it is a finding, not a silent literal on the card. The game's own SVG
icons count (toolkit.render.icons.icon_set), and one that cannot be read is a finding too.
Content texts are searched where they are written, and a layout's own words (outside its
template code) where the layout writes them; what a layout's template code prints (`:{{
card.suit }}:`) on each card face print-fit resolves (`printed_unknown`); a rulebook's
printed Markdown in the rulebook check."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from toolkit.checks import CheckFamily, register
from toolkit.checks.icon_names import (
    P_INLINE_ICON,
    Tips,
    glued_icons,
    own_words,
    printed_unknown,
)
from toolkit.checks.printfit import used_layouts
from toolkit.checks.translation.common import TextView, by_file, views
from toolkit.content.game import Game
from toolkit.content.templating import INLINE_ICON
from toolkit.content.unit_cache import Clean
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, rule
from toolkit.render.icons import IconSet, icon_set, listed
from toolkit.render.layout import layout_document, layout_file, load_layout, worked_out

P_SVG = rule("P008", "icon-unreadable", "A game's SVG icon (icons/*.svg) cannot be read.")


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    icons = icon_set(game.root)
    for problem in icons.problems:
        yield P_SVG.at(problem.file, problem.span, problem.message)
    if game.manifest is None:
        return
    known = listed(icons.names)
    tips = Tips(icons)  # the run's 'did you mean's: only for what is said, a few names
    for name in used_layouts(game):
        for diag, asked in layout_icons(name, game.root, icons):
            yield replace(diag, message=diag.message + tips.tip(asked))
    # a file whose every text had nothing to say in the last run is skipped whole when
    # nothing it is read from changed (toolkit.content.unit_cache.Clean by file): a text's
    # findings are a function of its values and the game's icons (its `icons/` folder is in
    # each file's name in the frame); a skipped text named no unknown icon, so it asked no
    # 'did you mean' of `tips`. After one card edit only the edited file's texts are read.
    clean = Clean("clean-inline-icons")
    for loaded, run in by_file(views(game, facts)):  # a file skipped: none of its views made
        if clean.on and clean.file_seen(loaded):
            continue
        for view in run:
            said = False
            for found in _text_icons(view, icons, tips, known):
                said = True
                yield found
            if clean.on:  # (the file is what is kept: no digest of each text)
                clean.noted(loaded, "", not said)
    clean.close()


def _text_icons(view: TextView, icons: IconSet, tips: Tips, known: str) -> Iterator[Diagnostic]:
    """P007 of one content text: an icon name glued to a letter, or one the game lacks."""
    for lang, value in view.values.items():
        glued = glued_icons(value or "", icons.names)
        if glued:
            name, touching, _ = glued[0]
            yield P_INLINE_ICON.at(
                view.file,
                view.span(lang),
                f"{view.label()} ({lang}): ':{name}:' touches {touching!r}, so it prints as"
                f" written, not as the icon; set it apart with a space (an icon's name"
                " is never glued to a letter or digit)",
            )
        if not value or ":" not in value:  # every icon's name opens with one: no search
            continue
        unknown = [m.group(1) for m in INLINE_ICON.finditer(value)]
        unknown = [n for n in unknown if n not in icons.names and n not in icons.broken]
        if unknown:
            close = tips.tip(unknown[0])  # each name searched once, a few names a run
            said = close.removeprefix("; ") + " " if close else ""
            yield P_INLINE_ICON.at(
                view.file,
                view.span(lang),
                f"{view.label()} ({lang}): no icon {unknown[0]!r}, so ':{unknown[0]}:'"
                f" would print as written; {said}icons: {known}",
            )


def layout_icons(name: str, game_root: Path, icons: IconSet) -> tuple[tuple[Diagnostic, str], ...]:
    """P007 at a layout's own word `:name:` (outside its template code) in a field its kind
    draws inline icons in, when the game has no such icon: it prints as written on every
    card. Once per version of the layout read; each with the name, whose 'did you mean'
    the run adds (`Tips`)."""
    layout, _ = load_layout(name, game_root)
    if layout is None:
        return ()
    key = ("inline-icons", name, game_root, icons.names, frozenset(icons.broken))
    return worked_out(layout, key, lambda: _layout_icons(layout, name, game_root, icons))


def _layout_icons(
    layout: Any, name: str, game_root: Path, icons: IconSet
) -> tuple[tuple[Diagnostic, str], ...]:
    doc, _ = layout_document(name, game_root)
    if doc is None:
        return ()
    found = []
    for index, element in enumerate(layout.elements):
        for field in type(element).prints:
            unknown = printed_unknown(element, own_words(element, field), icons)
            if unknown:  # one finding a field
                diag = P_INLINE_ICON.at(
                    layout_file(name, game_root),
                    doc.span(("elements", index, field)),
                    f"layout {name!r}: no icon {unknown[0]!r}, so ':{unknown[0]}:' prints"
                    " as written on the cards it prints on",
                )
                found.append((diag, unknown[0]))
    return tuple(found)


register(CheckFamily("inline-icons", "Inline icons in texts: known names.", check))
