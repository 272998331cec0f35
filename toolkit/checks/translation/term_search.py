"""Which glossary terms a text uses, found in one walk of the text's words for all terms.

A term matches as `term_pattern` writes it: each word with its plural endings, words joined
by separators, on word boundaries, any case. For a term whose words are letters and digits
(with `'`, `-`, `.`, `/` or `&` inside a word), a match is a run of whole words of the text
(the runs of `\\w`), so every term of a language is looked for at once: each word of the
text moves a bit set of partial matches on (shift-and). The cost is the text's words times
the glossary's size in machine words, not the text's words times each term's words times
the terms, as walking each term from each place its first word starts was (probe 32: 87 kB
of glossary and cards took 74 s). Other terms are searched with their patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from typing import NamedTuple

BETWEEN = r"[\s\u00a0\u202f'’-]+"
"""What may stand between two words of a term: white space, no-break spaces, apostrophes,
hyphens."""


def _inflected(word: str) -> str:
    """A word with its regular plural endings (fr/es/en: s, x, es; en y → ies)."""
    if len(word) > 2 and word.endswith("y"):
        return re.escape(word[:-1]) + r"(?:y|ies)"
    return re.escape(word) + r"(?:s|x|es)?"


@cache
def term_pattern(term: str) -> re.Pattern[str]:
    """A term with optional plural endings on each word, on word boundaries, any case."""
    words = [_inflected(w) for w in term.split()]
    return re.compile(r"(?<!\w)" + BETWEEN.join(words) + r"(?!\w)", re.IGNORECASE)


LEAD = re.compile("[0-9A-Za-z_\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f]*")
"""Characters a term's lead is made of: ASCII letters, digits and `_`, and the Latin-1 and
Latin Extended-A letters (à, é, ñ, œ...): every character a case-blind pattern matches to
one of them is written as one same character by `folded` (tests/test_validate_speed.py
checks each against every character there is)."""
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
"""The characters whose lower case is not what a case-blind pattern matches them to: İ and ı
(i), ſ (s), the Kelvin sign (k)."""


def folded(text: str) -> str:
    """`text` with each character that a case-blind lead character (`LEAD`) of a pattern
    matches written as that character's own fold (others may change too), at its place:
    a text that `term_pattern(term)` matches holds `lead(term)` in `folded(text)`."""
    return text.translate(_FOLD).lower()


@cache
def lead(term: str) -> str:
    """What any match of `term_pattern(term)` holds, folded (`folded`): the longest run of
    lead characters one of its words starts with, before any ending a plural may change (a
    word ending in y loses it: `ies`); "" when no word starts so."""
    best = ""
    for word in term.split():
        stem = word[:-1] if len(word) > 2 and word.endswith("y") else word
        found = LEAD.match(stem)
        if found is not None and len(found.group()) > len(best):
            best = found.group()
    return folded(best)


_JOINS = frozenset("'’-./&")
"""What may stand inside one word of a term walked word by word: none of them is a `\\w`
character or has a case."""
_PIECES = re.compile(r"(\W+)")
_WORD = re.compile(r"\w+")
_SEPARATORS = re.compile(BETWEEN, re.IGNORECASE)  # the very class of `term_pattern`


class Piece(NamedTuple):
    """One run of `\\w` characters of a term: the folded forms a text's word may take to be
    it, and what must stand before it (None: a run of separators, between two words of the
    term; a string: that string, inside a word)."""

    forms: frozenset[str]
    after: str | None


@cache
def pieces(term: str) -> tuple[Piece, ...] | None:
    """The term as the runs of `\\w` characters a match of its pattern is made of; None for
    a term only its pattern finds as it does (a character outside `LEAD` and `_JOINS`, a
    word that does not start and end with a `\\w` character, or no word)."""
    found: list[Piece] = []
    for word in term.split():
        parts = _PIECES.split(word)
        if parts[0] == "" or parts[-1] == "":
            return None  # starts or ends with a character that is not `\w`
        stems, joins = parts[::2], parts[1::2]
        if not all(LEAD.fullmatch(s) for s in stems) or not all(set(j) <= _JOINS for j in joins):
            return None
        if len(word) > 2 and word.endswith("y"):
            endings: tuple[str, ...] = ("y", "ies")
            stems[-1] = stems[-1][:-1]
        else:
            endings = ("s", "x", "es", "")
        for index, stem in enumerate(stems):
            stem = folded(stem)
            last = index == len(stems) - 1
            forms = frozenset(stem + e for e in endings) if last else frozenset((stem,))
            found.append(Piece(forms, None if index == 0 else joins[index - 1]))
    return tuple(found) or None


class Words(NamedTuple):
    """A text cut into its words (the runs of `\\w` characters, folded): where each starts
    and ends, what stands before it (folded) and whether that is a run of separators."""

    words: list[str]
    starts: list[int]
    ends: list[int]
    before: list[str]
    joined: list[bool]


@lru_cache(maxsize=256)
def words_of(text: str) -> Words:
    """The words of `text`: cut once for the many terms looked for in it."""
    fold = folded(text)
    found = Words([], [], [], [], [])
    last = -1
    separated = _SEPARATORS.fullmatch
    for match in _WORD.finditer(text):
        start, end = match.span()
        found.words.append(fold[start:end])
        found.starts.append(start)
        found.ends.append(end)
        found.before.append(fold[last:start] if last >= 0 else "")
        found.joined.append(last >= 0 and separated(text, last, start) is not None)
        last = end
    return found


class Finder(NamedTuple):
    """Terms (each a group: a term and its other forms) as one shift-and table: a bit for
    each piece of each term, the terms laid out longest first."""

    forms: dict[str, int]  # a text's word → the pieces it can be
    first: int  # the first piece of each term
    last: int  # the last piece of each term
    joined: int  # pieces that follow a run of separators
    after: dict[str, int]  # what stands before a piece inside a word → those pieces
    ends: dict[int, tuple[int, int]]  # a last piece's bit → (group, number of pieces)
    others: tuple[tuple[str, int], ...]  # (term, group) found by the pattern


@lru_cache(maxsize=1024)
def finder(terms: tuple[tuple[str, int], ...]) -> Finder:
    """The table of `terms`, each (term, group); terms with no word are left out, as they
    match nothing a use of a term could be."""
    walked = [(pieces(t), t, g) for t, g in terms if t]
    laid = sorted(((p, g) for p, _, g in walked if p), key=lambda one: -len(one[0]))
    forms: dict[str, int] = {}
    after: dict[str, int] = {}
    first = last = joined = 0
    ends: dict[int, tuple[int, int]] = {}
    bit = 0
    for parts, group in laid:
        first |= 1 << bit
        for index, piece in enumerate(parts):
            for form in piece.forms:
                forms[form] = forms.get(form, 0) | 1 << bit
            if index and piece.after is None:
                joined |= 1 << bit
            elif index and piece.after is not None:
                after[piece.after] = after.get(piece.after, 0) | 1 << bit
            bit += 1
        last |= 1 << bit - 1
        ends[bit - 1] = (group, len(parts))
    others = tuple((t, g) for p, t, g in walked if p is None)
    return Finder(forms, first, last, joined, after, ends, others)


def _walk(table: Finder, text: Words, resets: bool) -> Iterator[tuple[int, int]]:
    """(index of a word of the text, the last pieces matched there) for each word where a
    term's match ends; `resets`: the next match is looked for after the one found (as a
    pattern's `finditer`), else matches may overlap."""
    forms, first, joined, after = table.forms, table.first, table.joined, table.after
    last = table.last
    state = 0
    for index, word in enumerate(text.words):
        bits = forms.get(word, 0)
        if not bits:
            state = 0
            continue
        if state:
            allowed = after.get(text.before[index], 0) if after else 0
            if text.joined[index]:
                allowed |= joined
            state = ((state << 1) & allowed | first) & bits
        else:
            state = first & bits
        if state & last:
            yield index, state & last
            if resets:
                state = 0


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def groups_used(table: Finder, text: str) -> set[int]:
    """The groups (terms) of `table` that `text` uses."""
    found: set[int] = set()
    seen = 0
    for _, ended in _walk(table, words_of(text), resets=False):
        new = ended & ~seen
        if new:
            seen |= new
            found.update(table.ends[b][0] for b in _bits(new))
    if table.others:
        fold = folded(text)
        for term, group in table.others:
            if group not in found and lead(term) in fold and term_pattern(term).search(text):
                found.add(group)
    return found


def uses(text: str, term: str, forms: Iterable[str] = ()) -> bool:
    """Whether `text` uses the term or one of its forms."""
    return bool(groups_used(finder(tuple((t, 0) for t in (term, *forms))), text))


def blank_out(term: str, text: str) -> str:
    """`term_pattern(term).sub(" ", text)`: the term's matches, each written as a space."""
    table = finder(((term, 0),))
    if table.others or not table.ends:
        return term_pattern(term).sub(" ", text)
    words = words_of(text)
    kept: list[str] = []
    last = 0
    for index, ended in _walk(table, words, resets=True):
        length = table.ends[ended.bit_length() - 1][1]
        kept += (text[last : words.starts[index - length + 1]], " ")
        last = words.ends[index]
    return "".join(kept) + text[last:] if kept else text


def blank_out_all(names: Iterable[str], text: str) -> str:
    """The text with every place one of `names` appears written as a space (places that
    overlap as one): a word inside a name uses no term. Names only their pattern finds are
    blanked out after, longest first."""
    table = finder(tuple((name, 0) for name in names))
    spans: list[tuple[int, int]] = []
    if table.ends:
        words = words_of(text)
        for index, ended in _walk(table, words, resets=False):
            longest = table.ends[(ended & -ended).bit_length() - 1][1]  # laid out longest first
            spans.append((words.starts[index - longest + 1], words.ends[index]))
    if spans:
        kept: list[str] = []
        last = 0
        for start, end in _merged(spans):
            kept += (text[last:start], " ")
            last = end
        text = "".join(kept) + text[last:]
    for name, _ in sorted(table.others, key=lambda one: -len(one[0])):
        if lead(name) in folded(text):
            text = term_pattern(name).sub(" ", text)
    return text


def _merged(spans: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Spans (start, end) in order of their ends, those that overlap as one."""
    spans.sort()
    start, end = spans[0]
    for one, other in spans[1:]:
        if one < end:
            end = max(end, other)
        else:
            yield start, end
            start, end = one, other
    yield start, end
