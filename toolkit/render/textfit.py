"""Fit text in a box: wrap, hyphenate (fr/es with pyphen), shrink down to a minimum size.

The one measure `validate` (P diagnostics) and `build` (drawing) share, so a text that the
checker says fits is the text that prints.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from toolkit.content.unit_cache import cached, fresh_each_run, to_json
from toolkit.render.fonts import overflow_length, text_width, unit_width
from toolkit.render.hyphenation import break_points
from toolkit.render.icons import BUILTIN

LEADING = 1.2  # line height as a multiple of the font size
HYPHENATED = ("fr", "es")  # languages whose long words break at syllables
STEP = 0.25  # points between tried sizes
BREAKABLE_SPACES = (" ",)  # U+00A0 and U+202F never break
MAX_FIT_CHARS = 10_000  # far more than any box holds at any size; longer is not fitted
LONG_WORD = 64  # letters past which a word is first measured by its head (`_units_within`)


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
            within = _units_within(current, width, size, style, icons)
            while within is None:
                head, tail = _hyphenate(current, "", width, size, style, lang)
                if not head:
                    return None
                lines.append(head)
                current = tail
                within = _units_within(current, width, size, style, icons)
            current_units = within
        lines.append(current)
    return lines


def _units_within(
    word: str, width: float, size: float, style: str, icons: frozenset[str]
) -> float | None:
    """`word`'s width at 1 pt when it fits `width` at `size`, else None. A long word wider
    than the box is told so by its first letters, not measured whole: each line a long word
    is broken at leaves a tail to measure (a 4,000-letter word: quadratic, and each tail kept
    in unit_width's cache)."""
    long = len(word) > LONG_WORD and ":" not in word
    if long and overflow_length(word, width, size, style) <= len(word):
        return None
    units = text_width(word, 1.0, style, icons)
    return units if units * size <= width else None


def _hyphenate(
    word: str, before: str, width: float, size: float, style: str, lang: str | None
) -> tuple[str, str]:
    """Split `word` at the last hyphenation point whose head still fits after `before`.

    Only points before the first letters wider than the box can hold a fitting head: pyphen
    is asked about those letters only (toolkit.render.hyphenation.break_points), and as a
    longer head is never narrower, the last that fits is found by halving. Asking for every
    point of every tail and trying them from the word's end was quadratic in a long word's
    length for each line it was broken at."""
    hyphenator = _hyphenator(lang) if lang else None
    if hyphenator is None or len(word) < 5 or ":" in word:  # never split an inline icon
        return "", word
    prefix = f"{before} " if before else ""
    # no head as long as the first letters wider than the box fits (a short word: all points)
    below = overflow_length(word, width, size, style) if len(word) > LONG_WORD else len(word)
    points = break_points(hyphenator, word, below)
    if any(point.data for point in points):  # a break that changes letters (none in fr, es)
        for head, tail in hyphenator.iterate(word):
            if text_width(f"{prefix}{head}-", size, style) <= width:
                return f"{head}-", tail
        return "", word
    low, high = 0, len(points)  # the heads at points[:low] fit, from points[high] not
    while low < high:
        middle = (low + high) // 2
        if text_width(f"{prefix}{word[: points[middle]]}-", size, style) <= width:
            low = middle + 1
        else:
            high = middle
    if not low:
        return "", word
    point = points[low - 1]
    return f"{word[:point]}-", word[point:]


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
    the text fit, so hyphens appear where they save space and nowhere else. A size at which
    the text's words are too wide for the box's lines is passed unwrapped (`_too_high`): the
    fit is the same, and a text that fits nowhere keeps the lines its last wrap gives. Kept
    per text, box and setting (a pure function of them: a face's key names one font file's
    contents, toolkit.render.game_fonts): the gate's print-fit check measures each text once
    and the build draws with that measure."""
    style, lang, icons = setting.style, setting.lang, setting.icons
    min_size = setting.min_size
    if len(text) > MAX_FIT_CHARS:  # wrapping it at every size took minutes (a 3M text)
        return Fit(False, min_size, (text[:MAX_FIT_CHARS],))
    least = _least(text, style, icons)
    size = setting.max_size
    last: list[str] | None = None
    passed: list[float] = []  # the sizes at which the text was too long to be wrapped
    while size >= min_size - 1e-9:
        if _too_high(least, width, height, size):
            passed.append(size)
            size = round(size - STEP, 2)
            continue
        for hyphen_lang in (None, lang):
            lines = wrap(text, width, size, style, hyphen_lang, icons)
            if lines is not None and len(lines) * size * LEADING <= height:
                return Fit(True, size, tuple(lines))
            last = lines or last
            if not can_hyphenate(lang):
                break
        size = round(size - STEP, 2)
    if last is None:  # the lines of the smallest passed size that wraps, as if wrapped
        last = next(_wrapped(text, width, reversed(passed), setting), None)
    return Fit(False, min_size, tuple(last or (text,)))


def _least(text: str, style: str, icons: frozenset[str]) -> tuple[float, int]:
    """What any wrapping of `text` prints at least: its words' width at 1 pt (words with an
    inline icon left out: a line with one is measured two ways) and its paragraphs."""
    words = (word for word in text.replace("\n", " ").split(" ") if word and ":" not in word)
    return sum(unit_width(word, style, icons) for word in words), text.count("\n") + 1


def _too_high(least: tuple[float, int], width: float, height: float, size: float) -> bool:
    """Whether a text of `least` (`_least`) overflows the box at `size` however it wraps,
    told without wrapping it: no line is wider than the box, so it takes at least its words'
    width over the box's lines (less a slack far above rounding) and a line a paragraph. A
    long text passes the sizes that cannot hold it: one that fits none was wrapped, with
    and without hyphens, at each of the 373 sizes from 96 pt down to 3."""
    units, paragraphs = least
    if not (width > 0 and size > 0):
        return False
    needed = min(units * size / width * (1 - 1e-9), 1e15)  # ceil(inf) raises
    lines = max(paragraphs, math.ceil(needed))
    return lines * size * LEADING > height


def _wrapped(
    text: str, width: float, sizes: Iterable[float], setting: Setting
) -> Iterator[list[str]]:
    """The lines `_fit` keeps last at each of `sizes` that wraps (hyphenated first, as its
    wrap without hyphens comes before at the same size)."""
    langs = (setting.lang, None) if can_hyphenate(setting.lang) else (None,)
    for size in sizes:
        for lang in langs:
            lines = wrap(text, width, size, setting.style, lang, setting.icons)
            if lines is not None:
                yield lines
                break


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
