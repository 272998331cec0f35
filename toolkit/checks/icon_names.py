"""Inline icon names a text prints as written (P007): the rule, and what the checks of
content texts and layouts (inline_icons), of card faces (print-fit) and of the rulebook
search with; the 'did you mean' of an unknown icon name (`Tips`)."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache
from typing import Any

from toolkit.content import suggest
from toolkit.content.suggest import close_match
from toolkit.content.templating import INLINE_ICON
from toolkit.content.walk import Facts
from toolkit.diagnostics import rule
from toolkit.render.icons import IconSet
from toolkit.render.jinja_cache import TEMPLATE_CODE_MASK

P_INLINE_ICON = rule(
    "P007", "unknown-inline-icon", "A text names an inline icon (:name:) that does not exist."
)
_TEMPLATE_CODE = re.compile(TEMPLATE_CODE_MASK, re.DOTALL)
"""A layout text's template code: the static checks of its words leave it out (what it
prints is searched on each face resolved); nothing else, a card's data printed as written."""


_ANY_ICON = re.compile(r":([a-z_]+):")


def glued_icons(text: str, names: Collection[str]) -> list[tuple[str, str, int]]:
    """The icons of the game `text` writes glued to a letter or digit (`pay 2:coin:`), which
    INLINE_ICON leaves as words, with the character each touches and where it starts (its
    first colon, 0-based): such a text drew the icon before the pattern kept `10:30:45` and
    `a:b:c` words, and then printed it as written with validate clean."""
    found = []
    for match in _ANY_ICON.finditer(text) if ":" in text else ():
        name = match.group(1)
        if name not in names:
            continue
        before = text[match.start() - 1] if match.start() else ""
        after = text[match.end()] if match.end() < len(text) else ""
        touching = next((c for c in (before, after) if c and (c.isalnum())), None)
        if touching is not None:
            found.append((name, touching, match.start()))
    return found


def own_words(element: Any, field: str) -> str:
    """What a layout element's field writes itself: its template code left out."""
    return _TEMPLATE_CODE.sub("", getattr(element, field) or "")


def printed_unknown(element: Any, text: str, icons: IconSet) -> list[str]:
    """The inline icon names the game lacks in `text`, one of a layout element's `prints`
    fields (as written or as a card face renders it), each once in order: each prints as
    written. None for a kind that draws no inline icons (a badge prints `:x:` as written,
    known or not)."""
    if ":" not in text:
        return []  # nearly every text
    found: list[str] = []
    for match in INLINE_ICON.finditer(text):
        name = match.group(1)
        if name in icons.names or name in icons.broken or name in found:
            continue  # a broken icon's own finding (P008) says why
        if element.letters(match[0], frozenset({name})) == match[0]:
            return []  # a kind that prints `:x:` as written, known or not
        found.append(name)
    return found


def content_icons(facts: Facts) -> set[str]:
    """The inline icon names the content texts write: one the game lacks is said where it
    is written, not again where a layout or the rulebook prints the text."""
    values = (v for text in facts.texts for v in text.value.values() if ":" in v)
    return {found.group(1) for v in values for found in INLINE_ICON.finditer(v)}


@lru_cache(maxsize=1024)
def closest(name: str, icons: IconSet) -> str | None:
    """The game's icon name closest to `name`, or None: a pure function of the name and the
    icon set, so every cache may keep what it says. Kept: the checks of one run (inline
    icons, print-fit) ask the same names."""
    return close_match(name, sorted(icons.names))


def tip(name: str, icons: IconSet) -> str:
    """'; did you mean ':coin:'?' for an icon name close to one of the game's, else ''."""
    close = closest(name, icons)
    return f"; did you mean ':{close}:'?" if close is not None else ""


class Tips:
    """The 'did you mean' of the unknown icon names one check run reports, through the run's
    `suggest.Tips` (only for a finding that is said, each name once, the first MAX_TIPPED
    names; a unit kept between runs holds no tip)."""

    def __init__(self, icons: IconSet) -> None:
        self.icons = icons
        self._tips = suggest.Tips()

    def close(self, name: str) -> str | None:
        """`closest(name, icons)` for the first MAX_TIPPED names asked, else None."""
        return self._tips.ask(name, lambda: closest(name, self.icons))

    def tip(self, name: str) -> str:
        """`tip(name, icons)` for the first MAX_TIPPED names asked, else ''."""
        close = self.close(name)
        return f"; did you mean ':{close}:'?" if close is not None else ""
