"""P017: a text in a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko…).

The renderer lays every line out left to right in the order the characters are stored: a
Hebrew word prints reversed, and Arabic letters also print unjoined (no shaping). That is
unreadable, yet each glyph exists, so nothing else would say so: the finding is an error
at the text, until right-to-left layout is supported. Numbers and punctuation around a
right-to-left word are fine alone; only strong right-to-left letters (Unicode bidi classes
R and AL) count.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from toolkit.checks import CheckFamily, register
from toolkit.content.game import Game, display_path
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Span, rule
from toolkit.render.rulebook_source import RulebookError, read_rulebook

P_RTL = rule(
    "P017",
    "right-to-left-text",
    "A text in a right-to-left script would print reversed (right-to-left layout is not"
    " supported).",
)

_MAYBE_RTL = re.compile(
    "[\u0590-\u08ff\u200f\u202b\u202e\u2067\ufb1d-\ufdff\ufe70-\ufefe"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
"""The blocks where every character of bidi class R or AL lies (a quick first look: most
texts have none, and one search in C says so); `_first_rtl` then asks each one found."""


def _first_rtl(text: str) -> int:
    """Index of the first strong right-to-left character of `text`, or -1."""
    for found in _MAYBE_RTL.finditer(text):
        if unicodedata.bidirectional(found.group()) in ("R", "AL"):
            return found.start()
    return -1


def _said(ch: str) -> str:
    name = unicodedata.name(ch, "").split(" ")[0].title() or "a right-to-left"
    return (
        f"U+{ord(ch):04X} {ch!r} is {name} script, written right to left: Playset lays text"
        " out left to right only, so it would print reversed (and Arabic letters unjoined);"
        " right-to-left games are not supported yet"
    )


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    maybe = _MAYBE_RTL.search
    for text in facts.texts:
        doc = text.file.doc
        if doc is None:
            continue
        for lang, value in text.value.items():
            if not isinstance(value, str) or maybe(value) is None:
                continue  # nearly every text: one search in C
            at = _first_rtl(value)
            if at >= 0:
                yield P_RTL.at(text.file.rel, doc.span((*text.path, lang)), _said(value[at]))
    for path in game.rulebook.values():
        try:
            source = read_rulebook(path, game.root)
        except (RulebookError, OSError):
            continue  # the rulebook family says why it cannot be read
        yield from _rulebook(display_path(path), source)


def _rulebook(display: str, source: str) -> Iterator[Diagnostic]:
    """One finding per source line that holds right-to-left letters, at the first."""
    if _MAYBE_RTL.search(source) is None:
        return
    for number, line in enumerate(source.split("\n"), 1):
        at = _first_rtl(line)
        if at >= 0:
            yield P_RTL.at(display, Span(number, at + 1), _said(line[at]))


register(
    CheckFamily(
        "text-direction", "Texts print left to right: right-to-left scripts are said.", check
    )
)
