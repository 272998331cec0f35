"""pyphen's hyphenation dictionaries, each pattern read when a word first needs it.

pyphen reads every pattern of a dictionary when it opens it: 20 ms for French, 54 ms for
Spanish, 112 ms for English, paid by each command that breaks one long word, while a game's
texts ask for a few hundred patterns. Here a dictionary's file is split into lines keyed by
what each pattern matches (its letters, its digits left out: a C-speed pass), and a line is
parsed as pyphen parses it the first time a word looks it up. The hyphenation points are
pyphen's own (its `HyphDict.positions` runs unchanged over the patterns: tests compare them
with pyphen's, word for word).
"""

from __future__ import annotations

import contextlib
import re
from functools import cache, lru_cache
from typing import Any

_DIGITS = re.compile(r"\d")  # what pyphen's pattern parser reads as a digit (any Unicode one)


class _Patterns(dict[str, Any]):
    """A pattern's (offset, values) by its letters, parsed on first lookup. pyphen keeps the
    last of the lines sharing letters whose values are not all zero: so is it here."""

    def __init__(self, lines: dict[str, list[str]], parse: Any) -> None:
        super().__init__()
        self._lines = lines
        self._parse = parse

    def keys_read(self) -> Any:
        """The letters of every pattern line, parsed or not."""
        return self._lines.keys()

    def get(self, key: str, default: Any = None) -> Any:
        if key in self:
            found = self[key]
            return found if found is not None else default
        lines = self._lines.get(key)
        if lines is None:
            return default
        found = None
        for line in lines:
            parsed = self._parse(line)
            if parsed is not None:
                found = parsed
        self[key] = found
        return found if found is not None else default


def _pyphen() -> Any:
    """pyphen, untyped: its internals (hdcache, parse, parse_hex, ignored) are not in its
    stubs."""
    import pyphen

    return pyphen


def _lazy_dict(path: Any) -> Any:
    """A `pyphen.HyphDict` of the dictionary at `path` whose patterns are parsed on demand."""
    pyphen = _pyphen()
    base: Any = pyphen.HyphDict

    class LazyHyphDict(base):
        def __init__(self, path: Any) -> None:  # pyphen's reading, its parsing deferred
            with path.open("rb") as handle:
                encoding = handle.readline().decode()
            if encoding.lower() == "microsoft-cp1251":
                encoding = "cp1251"
            kept = [
                line
                for line in map(str.strip, path.read_text(encoding).split("\n")[1:])
                if line and not line.startswith(pyphen.ignored)
            ]
            # each line's letters, its digits taken out of the whole file in one pass
            bare = _DIGITS.sub("", "\n".join(kept)).split("\n")
            lines: dict[str, list[str]] = {}
            for line, letters in zip(kept, bare, strict=True):
                if "^^" in line or "/" in line:  # a written character, an alternative
                    line = pyphen.parse_hex(lambda m: chr(int(m.group(1), 16)), line)
                    head = line.split("/", 1)[0] if "/" in line and "=" in line else line
                    letters = _DIGITS.sub("", head)
                lines.setdefault(letters, []).append(line)
            self.patterns = _Patterns(lines, _parse_line)
            self.cache: dict[str, Any] = {}
            self.maxlen = max(len(key) for key in lines)

    return LazyHyphDict(path)


def _parse_line(pattern: str) -> tuple[int, tuple[Any, ...]] | None:
    """One pattern line as pyphen's HyphDict stores it: (offset, values), None when its
    values are all zero (pyphen skips it)."""
    pyphen = _pyphen()

    if "/" in pattern and "=" in pattern:
        pattern, alternative = pattern.split("/", 1)
        factory: Any = pyphen.AlternativeParser(pattern, alternative)
    else:
        factory = int
    values = tuple(factory(i or "0") for i, _ in pyphen.parse(pattern))
    if max(values) == 0:
        return None
    start, end = 0, len(values)
    while not values[start]:
        start += 1
    while not values[end - 1]:
        end -= 1
    return start, values[start:end]


@cache
def dictionary(lang: str) -> Any:
    """pyphen's `Pyphen` for `lang` (left=2, right=2, as reportlab asks for), reading its
    patterns on demand; None for a language pyphen has no dictionary for."""
    pyphen = _pyphen()

    name = pyphen.language_fallback(lang)
    if name is None:
        return None
    path = pyphen.LANGUAGES[name]
    if path not in pyphen.hdcache:
        # another pyphen than 0.18's (its internals moved): it reads the file its own way
        with contextlib.suppress(AttributeError, TypeError):
            pyphen.hdcache[path] = _lazy_dict(path)
    return pyphen.Pyphen(lang=lang)


def break_points(hyphenator: Any, word: str, below: int) -> list[Any]:
    """pyphen's points of `word` (`hyphenator.positions(word)`) that lie before letter
    `below`, reading only the word's first letters: a pattern spans at most `maxlen` letters,
    so a point depends on no letter further than that and the word's end changes none of
    the points before it."""
    hd: Any = getattr(hyphenator, "hd", None)
    maxlen = getattr(hd, "maxlen", None)
    end = below + (maxlen or 0) + 1  # letters past it change no point before `below`
    window = word[:end]
    # (a letter whose lower case is longer, `İ`, shifts pyphen's points, on the window as on
    # the whole word: the same points; the whole tail of a long word was hyphenated at each
    # line and kept in pyphen's cache for ever, 53 s and 1.25 GB from 16 kB: probe 24)
    if maxlen is None or len(word) <= end:
        return [point for point in hyphenator.positions(word) if point < below]
    right = len(word) - hyphenator.right  # pyphen's margins, counted on the whole word
    found = _window_points(hyphenator, window)
    return [point for point in found if hyphenator.left <= point <= right and point < below]


@lru_cache(maxsize=1_024)
def _window_points(hyphenator: Any, window: str) -> tuple[Any, ...]:
    """pyphen's points of a long word's first letters, kept here a while, not in pyphen's
    cache of words: that keeps every word for ever, and each line a long word is broken at
    leaves a new tail (a 4,000-letter word cut into lines at 373 sizes kept gigabytes)."""
    hd = hyphenator.hd
    lowered = window.lower()
    kept = hd.cache.get(lowered)
    if kept is not None:
        return tuple(kept)
    if not isinstance(hd.patterns, _Patterns):  # pyphen read the dictionary itself
        found = tuple(hd.positions(window))
        hd.cache.pop(lowered, None)
        return found
    return tuple(_positions(hd, window))


def _positions(hd: Any, word: str) -> list[Any]:
    """`HyphDict.positions(word)` as pyphen works it out (its loop, unchanged in what it
    finds and in what order), less the lookups that cannot match: pyphen looks up every
    piece of up to `maxlen` letters from each letter, ~14 calls of a dictionary's `get` a
    letter in French; here the pieces from a letter are followed letter by letter through
    the patterns' beginnings (`_beginnings`), up to the first that begins none. A point
    whose `data` is None is a plain int. Not kept in pyphen's cache of words (see
    `_window_points`)."""
    beginnings = _beginnings(hd)
    patterns, maxlen = hd.patterns, hd.maxlen
    pointed = f".{word.lower()}."
    length = len(pointed)
    references: list[Any] = [0] * (length + 1)
    for i in range(length - 1):
        node = beginnings
        for letter in pointed[i : i + maxlen]:
            found = node.get(letter)
            if found is None:
                break  # no pattern begins with these letters: nor with longer ones
            node, key = found
            if key is None:
                continue
            pattern = patterns.get(key)
            if not pattern:
                continue
            offset, values = pattern
            at = slice(i + offset, i + offset + len(values))
            references[at] = map(max, values, references[at])
    # pyphen makes every point a DataInt, its `data` None but where a pattern changes letters
    # (a fifth of a long word's fitting): here a plain int then (`data` read with getattr)
    data_int = _pyphen().DataInt
    return [
        data_int(i - 1, reference=reference) if type(reference) is not int else i - 1
        for i, reference in enumerate(references)
        if reference % 2
    ]


@cache
def _beginnings(hd: Any) -> dict[str, Any]:
    """A dictionary's patterns by their letters, one letter a level: each letter's entry is
    (the next letters' entries, the pattern's letters where they are a whole pattern, else
    None). Read once, on the first long word (3 ms for French, 15 for English)."""
    found: dict[str, Any] = {}
    for key in hd.patterns.keys_read():
        node = found
        for at, letter in enumerate(key, 1):
            entry = node.get(letter)
            if entry is None:
                entry = node[letter] = ({}, None)
            if at == len(key):
                entry = node[letter] = (entry[0], key)
            node = entry[0]
    return found
