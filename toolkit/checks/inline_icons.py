"""Inline icons in texts (`:die:`): a name the renderer has no icon for prints as written,
colons and all, so it is a finding, not a silent literal on the card. The game's own SVG
icons count (toolkit.render.icons.icon_set), and one that cannot be read is a finding too."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from toolkit.checks import CheckFamily, register
from toolkit.checks.translation.common import views
from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, rule
from toolkit.render.icons import INLINE_ICON, icon_set

P_INLINE_ICON = rule(
    "P007", "unknown-inline-icon", "A text names an inline icon (:name:) that does not exist."
)
P_SVG = rule("P008", "icon-unreadable", "A game's SVG icon (icons/*.svg) cannot be read.")


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    icons = icon_set(game.root)
    for problem in icons.problems:
        yield P_SVG.at(problem.file, problem.span, problem.message)
    if game.manifest is None:
        return
    known = ", ".join(sorted(icons.names))
    for view in views(game, facts):
        for lang, value in view.values.items():
            unknown = [m.group(1) for m in INLINE_ICON.finditer(value or "")]
            unknown = [n for n in unknown if n not in icons.names and n not in icons.broken]
            if unknown:
                close = difflib.get_close_matches(unknown[0], sorted(icons.names), n=1)
                tip = f"did you mean ':{close[0]}:'? " if close else ""
                yield P_INLINE_ICON.at(
                    view.file,
                    view.span(lang),
                    f"{view.label()} ({lang}): no icon {unknown[0]!r}, so ':{unknown[0]}:'"
                    f" would print as written; {tip}icons: {known}",
                )


register(CheckFamily("inline-icons", "Inline icons in texts: known names.", check))
