"""Fit text in a box: wrap, hyphenate (fr/es with pyphen), shrink down to a minimum size.

The one measure `validate` (P diagnostics) and `build` (drawing) share, so a text that the
checker says fits is the text that prints.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from toolkit.content.unit_cache import cached, fresh_each_run, to_json
from toolkit.render.fonts import overflow_length, text_width, unit_width
from toolkit.render.icons import BUILTIN
from toolkit.render.layout_budget import LayoutBudget
from toolkit.render.undefined import NameTips

LEADING = 1.2  # line height as a multiple of the font size
HYPHENATED = ("fr", "es")  # languages whose long words break at syllables
STEP = 0.25  # points between tried sizes
BREAKABLE_SPACES = (" ",)  # U+00A0 and U+202F never break
MAX_FIT_CHARS = 10_000  # far more than any box holds at any size; longer is not fitted
LONG_WORD = 64  # letters past which a word is first measured by its head (`_units_within`)
FIT_BUDGET = 2_000_000
"""Letters the checks fit in one game (`FitBudget`, `fitting`): each fit counts what it went through
(`Fit.work`: the text once, each size's wrap as far as the box's lines and `WRAP_CALL` more,
and `PASSED_SIZE` for each size passed unwrapped). The bundled games count at most ~0.47
million, under a quarter of it: a designer's game four times as large still fits. The
costliest letters (long hyphenated words no two alike) took ~1.2 µs each (probe 22), so this
is ~2.4 s at worst; 15 million took 12 s on short texts fitted from 96 pt down (probe 47
K6). It was 4 million (~5 s) until one game of under 1 MB was seen to spend every surface's
budget at once (budget59: 1,400 texts in 1 mm boxes), then 3 million: such a game of every
budget still took ~4 s of validate (budget60: 3.4 s at 2 million, in the same minute)."""
WRAP_CALL = 32
"""Letters one wrap counts besides its own: a wrap costs its call (~6 µs: the widths of its
words, a hyphenation look-up) however short its text. One 6-letter text in a large box, tried
from 96 pt down to where its word fits, took 216 wraps of ~1.3 ms in all (probe 47 K6)."""
PASSED_SIZE = 2
"""Letters a size passed unwrapped (`_too_high`) counts: its sums, a few µs."""


@dataclass(frozen=True)
class Fit:
    """A text fitted to a box: whether it fits, at what size, in which lines."""

    fits: bool
    size: float
    lines: tuple[str, ...]
    work: int = field(default=0, compare=False)
    """The letters the fit went through (`_fit`): the text once for its bound, and each
    wrap's as far as it went. What a check's fitting budget counts (`FitBudget`): the same
    whether the fit is worked out or read back."""

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
    return _wrap(text, width, size, style, lang, icons).lines


@dataclass
class _Wrapped:
    """A wrap's outcome: its lines (None: a word cannot fit even split), and when it
    stopped at its limit of lines, the text it did not wrap (`rest`, None: wrapped whole);
    `work`, the letters it went through."""

    lines: list[str] | None
    rest: str | None = None
    work: int = 0


def _wrap(
    text: str,
    width: float,
    size: float,
    style: str,
    lang: str | None,
    icons: frozenset[str] = BUILTIN.names,
    limit: int | None = None,
) -> _Wrapped:
    """`wrap`, stopping once `limit` lines are set while text is left to set (it then takes
    more: at a size whose box holds `limit` lines, the text does not fit, whatever the rest
    gives). A wrap costs what the box holds, not what the text is long."""
    space = unit_width(" ", style, icons)
    lines: list[str] = []
    work = hyphenation = 0  # the letters gone through, and those hyphenation read
    paragraphs = text.split("\n")
    for number, paragraph in enumerate(paragraphs):
        current = ""
        current_units = 0.0
        words = paragraph.split(" ")
        for index, word in enumerate(words):
            work += len(word) + 1
            word_units = unit_width(word, style, icons) if word else 0.0
            units = current_units + space + word_units if current else word_units
            if units * size <= width:
                current = f"{current} {word}" if current else word
                current_units = units
                continue
            hyphenation += _hyphenation_work(word, width, size, style, lang)
            head, tail = _hyphenate(word, current, width, size, style, lang)
            # the word alone asked, no head: asked again below alone, the same answer
            unsplit = word if not head and not current else None
            if head:
                lines.append(f"{current} {head}" if current else head)
                current = tail
            else:
                if current:
                    lines.append(current)
                current = word
            within = _units_within(current, width, size, style, icons)
            while within is None:
                if limit is not None and len(lines) >= limit:
                    return _stopped(
                        lines, _rest(current, words, index, paragraphs, number), text, hyphenation
                    )
                hyphenation += _hyphenation_work(current, width, size, style, lang)
                if current == unsplit:
                    head, tail = "", current  # `_hyphenate(current, "")`, just asked
                else:
                    head, tail = _hyphenate(current, "", width, size, style, lang)
                if not head:
                    return _Wrapped(None, None, work + hyphenation)
                lines.append(head)
                current = tail
                within = _units_within(current, width, size, style, icons)
            current_units = within
            if limit is not None and len(lines) >= limit:
                return _stopped(
                    lines, _rest(current, words, index, paragraphs, number), text, hyphenation
                )
        lines.append(current)
        if limit is not None and len(lines) >= limit and number + 1 < len(paragraphs):
            return _stopped(lines, "\n".join(paragraphs[number + 1 :]), text, hyphenation)
    return _Wrapped(lines, None, work + hyphenation)


def _stopped(lines: list[str], rest: str, text: str, hyphenation: int) -> _Wrapped:
    """A wrap stopped at its limit: the letters it went through are those it set (a long
    word's head: not the whole word), and those it had hyphenation read."""
    return _Wrapped(lines, rest, max(0, len(text) - len(rest)) + hyphenation)


HYPHENATION_WINDOW = 16
"""Letters past a line's that breaking a long word has pyphen read (toolkit.render.hyphenation
.break_points: a pattern's length and one; 15 for French, 14 for Spanish)."""


def _hyphenation_work(word: str, width: float, size: float, style: str, lang: str | None) -> int:
    """The letters of a long word that breaking it at a line's end has pyphen read, counted
    with the wrap's (`Fit.work`, what the fitting budget counts): each line the word is broken
    at, what the line holds and `HYPHENATION_WINDOW` more, each new (a tail of the word). They
    cost about as much as the wrap's own letters: counted with the letters set alone, a text
    of long hyphenated words took twice the time a letter of others did (probe 22 H1). None
    for a word of up to `LONG_WORD` letters (pyphen keeps its points: they are read once)."""
    if not can_hyphenate(lang) or len(word) < 5 or ":" in word:
        return 0  # `_hyphenate` asks pyphen nothing
    if len(word) <= LONG_WORD:
        return HYPHENATE_CALL
    return HYPHENATE_CALL + min(len(word), _overflow(word, width, size, style) + HYPHENATION_WINDOW)


HYPHENATE_CALL = 16
"""Letters each break of a word at a line's end counts besides those pyphen reads: the call
costs ~10 µs however short the word. Texts that fit no 1 mm box, broken at every letter,
took ~110 µs a fit and spent the fitting budget in 6-7 s (probe 48 N3)."""


def _rest(current: str, words: list[str], index: int, paragraphs: list[str], number: int) -> str:
    """The text a wrap stopped before: the line being set, the paragraph's words after
    `index` and the paragraphs after `number`."""
    rest = " ".join([current, *words[index + 1 :]])
    return "\n".join([rest, *paragraphs[number + 1 :]])


def _units_within(
    word: str, width: float, size: float, style: str, icons: frozenset[str]
) -> float | None:
    """`word`'s width at 1 pt when it fits `width` at `size`, else None. A long word wider
    than the box is told so by its first letters, not measured whole: each line a long word
    is broken at leaves a tail to measure (a 4,000-letter word: quadratic, and each tail kept
    in unit_width's cache)."""
    long = len(word) > LONG_WORD and ":" not in word
    if long and _overflow(word, width, size, style) <= len(word):
        return None
    units = text_width(word, 1.0, style, icons)
    return units if units * size <= width else None


_overflow = lru_cache(maxsize=4)(overflow_length)
"""`overflow_length`, its last answers kept: a long word's tail is measured for the line it
leaves (`_units_within`), then, as it is wider than the box, again to be broken (`_hyphenate`),
a quarter of such a word's fitting."""


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
    from toolkit.render.hyphenation import break_points  # loaded by `_hyphenator` already

    prefix = f"{before} " if before else ""
    # no head as long as the first letters wider than the box fits (a short word: all points)
    below = _overflow(word, width, size, style) if len(word) > LONG_WORD else len(word)
    points = break_points(hyphenator, word, below)
    # a break that changes letters (none in fr, es); a point without data may be a plain int
    if any(getattr(point, "data", None) for point in points):
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

    def __post_init__(self) -> None:
        # `lang` only decides hyphenation: a language whose words never break at syllables
        # sets a text as English does, so one text printed in many such languages is one
        # setting and one fit (`fit` is kept per setting), not one a language (probe 38 M1:
        # a card text aliased into 20 languages was fitted 18 times over)
        if self.lang != "en" and not can_hyphenate(self.lang):
            object.__setattr__(self, "lang", "en")


class FitBudget:
    """What one check may fit in a game run: `FIT_BUDGET` letters of fitting work.

    A fit asked while `spent` is under the limit is worked out (or read back) and counted
    whole, even when the in-run memo or a unit answers it, so `spent` is the same with the
    validate cache as without; one asked past it is refused (`allows`), and
    `refusals` counts those. A unit of a check's results keeps what its fits counted
    (`toolkit.checks.card_units.budgeted`): it is read back only when that stays under the
    limit (then no fit of it was refused without the cache either), and one worked out
    past the limit is not kept.

    `layouts` is the check's layout budget (toolkit.render.layout_budget): what rendering
    the faces whose texts it fits may cost, kept and read back with the same units."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = FIT_BUDGET if limit is None else limit
        self.spent = 0
        self.refusals = 0
        self.layouts = LayoutBudget()
        self.names = NameTips()  # the 'did you mean' of the faces' template messages
        self.measured: tuple[int, int] | None = None
        """Set by print fit once it has measured the game's card faces (`game_budget`): the
        first card it did not measure, as (the deck's place in `game.decks`, the card's
        index); (len(decks), 0) when it measured them all, (-1, 0) when it stopped in the
        question banks. What the legibility check, which comes after it and looks at the
        same faces, looks at: their fits, counted once (probe 22 H1)."""

    def measures(self, deck: int, card: int) -> bool:
        """Whether print fit measured the face of card `card` of deck `deck` (False when it
        has not run in this game's checks)."""
        return self.measured is not None and (deck, card) < self.measured

    def allows(self) -> bool:
        """Whether a fit asked now is worked out (counted as refused if not)."""
        if self.spent >= self.limit:
            self.refusals += 1
            return False
        return True

    def counted(self, found: Fit) -> Fit:
        """`found`, a fit `allows` let through, counted."""
        self.spent += found.work
        return found

    def affords(self, work: int) -> bool:
        """Whether fits counting `work` in all would all be worked out from here."""
        return self.spent + work < self.limit


_GAME_BUDGET: ContextVar[FitBudget | None] = ContextVar("game_fit_budget", default=None)


@contextmanager
def fitting() -> Iterator[FitBudget]:
    """One fitting budget for the checks of one game run (`game_budget`): the board labels,
    the card and question faces of print fit, then the legibility check's faces, in the
    order the checks run (toolkit.checks.run_checks), so the letters a game's checks fit are
    `FIT_BUDGET` in all, not that for each check."""
    budget = FitBudget()
    token = _GAME_BUDGET.set(budget)
    try:
        yield budget
    finally:
        _GAME_BUDGET.reset(token)


def game_budget() -> FitBudget:
    """The fitting budget of the game's checks running (`fitting`), else a check's own."""
    return _GAME_BUDGET.get() or FitBudget()


def running_budget() -> FitBudget | None:
    """The fitting budget of the game's checks running (`fitting`), else None."""
    return _GAME_BUDGET.get()


FITS_KEPT = FIT_BUDGET // WRAP_CALL + 1
"""Fits `fit` keeps in a run: as many as a game's checks may count (each counts a wrap's
`WRAP_CALL` at least). The legibility check fits the faces print fit measured, in the same
order: with fewer kept (16,384 until budget60), the oldest were dropped before it asked, so
a game of many short texts (1,400 in 1 mm boxes a card) had every fit worked out twice,
~0.5 s of its ~2.6 s; kept, they cost ~1 MB more."""


@lru_cache(maxsize=FITS_KEPT)
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
    return [found.fits, found.size, list(found.lines), found.work]


def _read(value: Any) -> Fit:
    fits, size, lines, work = value
    if not isinstance(fits, bool) or isinstance(size, bool) or not isinstance(lines, list):
        raise ValueError("not a fit")
    if type(work) is not int or work < 0:
        raise ValueError("not a fit")
    if not isinstance(size, int | float):
        raise ValueError("not a fit")
    if not all(isinstance(line, str) for line in lines):
        raise ValueError("not a fit")
    return Fit(fits, size, tuple(lines), work)


def _fit(text: str, width: float, height: float, setting: Setting) -> Fit:
    """The largest size from the setting's max down to its min at which `text` fits a box of
    `width` × `height` points.

    At each size plain word wrapping is tried first; hyphenation only when it is what makes
    the text fit, so hyphens appear where they save space and nowhere else. A size at which
    the text's words are too wide for the box's lines is passed unwrapped (`_too_high`), and
    a wrap stops once it has set more lines than the box holds (`_wrap`'s limit): the fit is
    the same. A text that fits nowhere keeps the lines its last wrap gives, the first
    `_shown` of them wrapped, the rest estimated (`_overflowing`). Kept per text, box and
    setting (a pure function of them: a face's key names one font file's contents,
    toolkit.render.game_fonts): the gate's print-fit check measures each text once and the
    build draws with that measure."""
    style, lang, icons = setting.style, setting.lang, setting.icons
    min_size = setting.min_size
    if len(text) > MAX_FIT_CHARS:  # wrapping it at every size took minutes (a 3M text)
        return Fit(False, min_size, (text[:MAX_FIT_CHARS],), MAX_FIT_CHARS)
    least = _least(text, style, icons)
    work = len(text)
    size = setting.max_size
    langs = (None, lang) if can_hyphenate(lang) else (None,)
    tried: list[tuple[float, str | None, _Wrapped]] = []  # the wraps that did not fit
    passed: list[float] = []  # the sizes at which the text was too long to be wrapped
    while size >= min_size - 1e-9:
        if _too_high(least, width, height, size):
            passed.append(size)
            work += PASSED_SIZE
            size = round(size - STEP, 2)
            continue
        room = _room(height, size)
        for hyphen_lang in langs:
            wrapped = _wrap(text, width, size, style, hyphen_lang, icons, room)
            work += wrapped.work + WRAP_CALL
            done = wrapped.lines is not None and wrapped.rest is None
            if done and len(wrapped.lines or ()) * size * LEADING <= height:
                return Fit(True, size, tuple(wrapped.lines or ()), work)
            tried.append((size, hyphen_lang, wrapped))
        size = round(size - STEP, 2)
    shown, more = _overflowing(text, width, height, setting, tried, passed)
    return Fit(False, min_size, shown, work + more)


def _room(height: float, size: float) -> int:
    """The most lines of `size` a box of `height` holds, as `_fit` tells a text fits:
    `lines * size * LEADING <= height`."""
    if not math.isfinite(height) or size * LEADING <= 0:
        return MAX_FIT_CHARS + 1  # more lines than a fitted text has
    lines = max(0, min(int(height // (size * LEADING)), MAX_FIT_CHARS + 1))
    while lines <= MAX_FIT_CHARS and (lines + 1) * size * LEADING <= height:
        lines += 1
    while lines > 0 and lines * size * LEADING > height:
        lines -= 1
    return lines


SHOWN = 32
"""Lines of a text that fits nowhere wrapped as they print (at least: the box's lines and
one more); the rest of it is cut into the lines its words' width needs at least."""


def _overflowing(
    text: str,
    width: float,
    height: float,
    setting: Setting,
    tried: list[tuple[float, str | None, _Wrapped]],
    passed: list[float],
) -> tuple[tuple[str, ...], int]:
    """The lines a text that fits at no size is drawn and reported with ("needs X mm at the
    minimum size"), and the letters it took: its lines at the smallest size (hyphenated
    first, as its wrap without hyphens comes before at that size), else the text as one
    line (a word wider than the box even split). Only the first `SHOWN` lines (or what the
    box holds and one more) are wrapped; the rest is estimated (`_estimated`): a
    10,000-letter text wrapped whole at 4 pt took 8 ms, for lines that print outside the
    box. It was the lines of the smallest size any wrap gave: the same, but where a word
    the smallest size cannot set lies past the lines wrapped (a text then "needs" its
    estimated height, not "holds a word wider than the box")."""
    shown = max(SHOWN, _room(height, setting.min_size) + 1)
    langs = (setting.lang, None) if can_hyphenate(setting.lang) else (None,)
    known = {(size, lang): wrapped for size, lang, wrapped in tried}
    size = min([*passed, *(size for size, _, _ in tried)], default=None)
    work = 0
    for lang in langs if size is not None else ():
        assert size is not None
        wrapped = known.get((size, lang)) or _Wrapped(None, text)
        if wrapped.rest is not None:  # passed, or stopped at the box's lines: wrap it now
            wrapped = _wrap(text, width, size, setting.style, lang, setting.icons, shown)
            work += wrapped.work + WRAP_CALL
        if wrapped.lines is None:
            continue
        if wrapped.rest is None:
            return tuple(wrapped.lines), work
        if lang is None and _too_wide(wrapped.rest, width, size, setting):
            continue  # as its whole wrap: a word wider than the box, never split
        rest = _estimated(wrapped.rest, width, size, setting)
        return (*wrapped.lines, *rest), work + len(wrapped.rest)
    return (text,), work


def _too_wide(text: str, width: float, size: float, setting: Setting) -> bool:
    """Whether a word of `text` is wider than `width` at `size` (one a wrap without
    hyphens cannot set)."""
    words = text.replace("\n", " ").split(" ")
    return any(unit_width(w, setting.style, setting.icons) * size > width for w in words if w)


def _estimated(text: str, width: float, size: float, setting: Setting) -> list[str]:
    """`text` cut into the lines its words' width needs at least at `size` in `width`, a
    paragraph at a time (as `_too_high` counts them): what is not wrapped of a text that
    fits nowhere."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        units, _ = _least(paragraph, setting.style, setting.icons)
        needed = units * size / width if width > 0 else 1.0
        count = max(1, min(len(paragraph), math.ceil(min(needed, 1e15))))
        step = math.ceil(len(paragraph) / count) if paragraph else 1
        lines += [paragraph[i : i + step] for i in range(0, len(paragraph), step)] or [""]
    return lines


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


def fit_text(
    text: str,
    width: float,
    height: float,
    max_size: float,
    min_size: float,
    style: str = "regular",
    lang: str = "en",
    icons: frozenset[str] = BUILTIN.names,
    counted: bool = True,
) -> Fit | None:
    """`fit` with the setting spelled out, for texts that are not layout elements (board
    labels): in a game's checks (`fitting`), `counted` against their budget, and past it not
    fitted (None: the checks say so once); drawn, never refused."""
    budget = _GAME_BUDGET.get() if counted else None
    if budget is not None and not budget.allows():
        return None
    found = fit(text, width, height, Setting(max_size, min_size, style, lang, icons))
    return found if budget is None else budget.counted(found)
