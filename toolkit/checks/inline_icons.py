"""Inline icons in texts (`:die:`): a name the renderer has no icon for prints as written,
colons and all, so it is a finding, not a silent literal on the card."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.checks.translation.common import views
from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, rule
from toolkit.render.icons import ICONS, INLINE_ICON

P_INLINE_ICON = rule(
    "P007", "unknown-inline-icon", "A text names an inline icon (:name:) that does not exist."
)


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if game.manifest is None:
        return
    known = ", ".join(sorted(ICONS))
    for view in views(game, facts):
        for lang, value in view.values.items():
            unknown = [m.group(1) for m in INLINE_ICON.finditer(value or "")]
            unknown = [name for name in unknown if name not in ICONS]
            if unknown:
                yield P_INLINE_ICON.at(
                    view.file,
                    view.span(lang),
                    f"{view.label()} ({lang}): no icon {unknown[0]!r}, so ':{unknown[0]}:'"
                    f" would print as written; icons: {known}",
                )
