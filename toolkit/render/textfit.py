"""Fit text in a box: wrap, hyphenate (fr/es with pyphen), shrink down to a minimum size.

The one measure `validate` (P diagnostics) and `build` (drawing) share, so a text that the
checker says fits is the text that prints.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from toolkit.content.unit_cache import cached, fresh_each_run, to_json
from toolkit.render.fonts import text_width, unit_width
from toolkit.render.icons import BUILTIN

LEADING = 1.2  # line height as a multiple of the font size
HYPHENATED = ("fr", "es")  # languages whose long words break at syllables
STEP = 0.25  # points between tried sizes
BREAKABLE_SPACES = (" ",)  # U+00A0 and U+202F never break
MAX_FIT_CHARS = 10_000  # far more than any box holds at any size; longer is not fitted


@dataclass(frozen=True)
class Fit:
    fits: bool
    size: float
    lines: tuple[str, ...]

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * LEADING


def can_hyphenate(lang: str | None) -> bool:
    return lang in HYPHENATED


def _hyphenator(lang: str) -> Any:
    """pyphen's dictionary for `lang` (read on first need: most texts never need it)."""
    if lang not in HYPHENATED:
        return None
    from toolkit.render.hyphenation import dictionary

    return dictionary(lang)


def wrap(
    text: str,
    width: float,
    size: float,
    style: str,
    lang: str | None,
    icons: frozenset[str] = BUILTIN.names,
) -> list[str] | None:
    """Lines of `text` within `width` at `size`, or None if a word cannot fit even split.

    With `lang` None, words are never hyphenated (a word wider than the box fails). A line's
    width is the running sum of its words' and spaces' widths, added in the same order as
    `text_width` adds them, so both give the same figure to the last bit."""
    space = unit_width(" ", style, icons)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        current_units = 0.0
        for word in paragraph.split(" "):
            word_units = unit_width(word, style, icons) if word else 0.0
            units = current_units + space + word_units if current else word_units
            if units * size <= width:
                current = f"{current} {word}" if current else word
                current_units = units
                continue
            head, tail = _hyphenate(word, current, width, size, style, lang)
            if head:
                lines.append(f"{current} {head}" if current else head)
                current = tail
            else:
                if current:
                    lines.append(current)
                current = word
            current_units = text_width(current, 1.0, style, icons)
            while current_units * size > width:
                head, tail = _hyphenate(current, "", width, size, style, lang)
                if not head:
                    return None
                lines.append(head)
                current = tail
                current_units = text_width(current, 1.0, style, icons)
        lines.append(current)
    return lines


def _hyphenate(
    word: str, before: str, width: float, size: float, style: str, lang: str | None
) -> tuple[str, str]:
    """Split `word` at the last hyphenation point whose head still fits after `before`."""
    hyphenator = _hyphenator(lang) if lang else None
    if hyphenator is None or len(word) < 5 or ":" in word:  # never split an inline icon
        return "", word
    prefix = f"{before} " if before else ""
    for head, tail in hyphenator.iterate(word):
        if text_width(f"{prefix}{head}-", size, style) <= width:
            return f"{head}-", tail
    return "", word


@dataclass(frozen=True)
class Setting:
    """How a text is set: the sizes it may take (points), its style, the language that
    decides hyphenation, and the inline icon names that print as icons."""

    max_size: float
    min_size: float
    style: str = "regular"
    lang: str = "en"
    icons: frozenset[str] = BUILTIN.names


@lru_cache(maxsize=16_384)
def fit(text: str, width: float, height: float, setting: Setting) -> Fit:
    """`_fit`, kept between `validate` runs when the findings cache is on
    (toolkit.content.unit_cache): after a card edit only that card's texts are fitted."""
    args = [
        text,
        width,
        height,
        setting.max_size,
        setting.min_size,
        setting.style,
        setting.lang,
        icon_names(setting.icons),
    ]
    return cached("fit", args, lambda: _fit(text, width, height, setting), _stored, _read)


fresh_each_run(fit.cache_clear)


@cache
def icon_names(icons: frozenset[str]) -> str:
    """The digest of a set of inline icon names, once per set (every fit names its set)."""
    return hashlib.sha256(to_json(sorted(icons)).encode()).hexdigest()


def _stored(found: Fit) -> list[Any]:
    return [found.fits, found.size, list(found.lines)]


def _read(value: Any) -> Fit:
    fits, size, lines = value
    if not isinstance(fits, bool) or isinstance(size, bool) or not isinstance(lines, list):
        raise ValueError("not a fit")
    if not isinstance(size, int | float):
        raise ValueError("not a fit")
    if not all(isinstance(line, str) for line in lines):
        raise ValueError("not a fit")
    return Fit(fits, size, tuple(lines))


def _fit(text: str, width: float, height: float, setting: Setting) -> Fit:
    """The largest size from the setting's max down to its min at which `text` fits a box of
    `width` × `height` points.

    At each size plain word wrapping is tried first; hyphenation only when it is what makes
    the text fit, so hyphens appear where they save space and nowhere else. Kept per text,
    box and setting (a pure function of them: a face's key names one font file's contents,
    toolkit.render.game_fonts): the gate's print-fit check measures each text once and the
    build draws with that measure."""
    style, lang, icons = setting.style, setting.lang, setting.icons
    min_size = setting.min_size
    if len(text) > MAX_FIT_CHARS:  # wrapping it at every size took minutes (a 3M text)
        return Fit(False, min_size, (text[:MAX_FIT_CHARS],))
    size = setting.max_size
    last: list[str] | None = None
    while size >= min_size - 1e-9:
        for hyphen_lang in (None, lang):
            lines = wrap(text, width, size, style, hyphen_lang, icons)
            if lines is not None and len(lines) * size * LEADING <= height:
                return Fit(True, size, tuple(lines))
            last = lines or last
            if not can_hyphenate(lang):
                break
        size = round(size - STEP, 2)
    return Fit(False, min_size, tuple(last or (text,)))


def fit_text(
    text: str,
    width: float,
    height: float,
    max_size: float,
    min_size: float,
    style: str = "regular",
    lang: str = "en",
    icons: frozenset[str] = BUILTIN.names,
) -> Fit:
    """`fit` with the setting spelled out, for texts that are not layout elements (board
    labels)."""
    return fit(text, width, height, Setting(max_size, min_size, style, lang, icons))
