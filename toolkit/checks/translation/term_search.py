"""Which glossary terms a text uses, found in one walk of the text's words for all terms.

A term is found as `term_pattern` writes it: each word with its plural endings, its words
joined by separators (white space, no-break spaces, apostrophes, hyphens), on word
boundaries, in any case. A match is then a run of whole words of the text (the runs of
`\\w` characters), so every term of a language is looked for at once: each word of the text
moves a bit set of partial matches on (shift-and), and what stands between two words is
looked up, not searched. The cost is the text's words times the glossary's size in machine
words. Searching each term's pattern from every place of a text costs the text's length
times the term's length for each term: a glossary of long terms made `validate` take
minutes (probe 32: 87 kB of glossary and cards, 74 s).

Where the pattern would say something odd, the walk says what a designer means, and the
tests hold the walk to the pattern everywhere else:
- punctuation that opens or closes a word (`«harbour»`, `Dr.`) must stand there, and a
  plural ending goes after the word's last letter (`«harbours»`), not after the punctuation;
- separators, or separators and punctuation, stand for any run of separators wherever they
  are (`rock 'n' roll` is found in `rock-'n'-roll` too), except between two runs of letters
  of one word (`eau-de-vie`, `l'eau`), which must be written as the term writes them;
- a term with no letter or digit is found nowhere;
- any case is Unicode's lower case, with the letters a case-blind pattern also takes as one
  (ſ and s, ς and σ, µ and μ...): `folded`;
- inside a word, ’ is ', a soft hyphen or a zero-width joiner does not cut it, and accents
  typed apart (e + ◌́) are the accented letter (NFC);
- in scripts written without spaces (kana, CJK, Hangul, Thai) each character is a word, so
  a term is found inside a longer run (カード in カードを引く).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Container, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
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
    """A term with optional plural endings on each word, on word boundaries, any case: what
    the walk finds (the tests hold it to this pattern)."""
    words = [_inflected(w) for w in term.split()]
    return re.compile(r"(?<!\w)" + BETWEEN.join(words) + r"(?!\w)", re.IGNORECASE)


_BEFORE_LOWER = str.maketrans({"\u0130": "i", "\u0131": "i"})
"""İ (whose lower case is two characters) and ı: both an i to a case-blind pattern."""
_AFTER_LOWER = str.maketrans(
    {
        "\u017f": "s",  # ſ
        "\u212a": "k",  # the Kelvin sign
        "\u00b5": "\u03bc",  # µ: μ
        "\u03c2": "\u03c3",  # ς: σ
        "\u0345": "\u03b9",  # ypogegrammeni: ι
        "\u1fbe": "\u03b9",  # prosgegrammeni: ι
        "\u03d0": "\u03b2",  # ϐ: β
        "\u03f5": "\u03b5",  # ϵ: ε
        "\u03d1": "\u03b8",  # ϑ: θ
        "\u03f0": "\u03ba",  # ϰ: κ
        "\u03d6": "\u03c0",  # ϖ: π
        "\u03f1": "\u03c1",  # ϱ: ρ
        "\u03d5": "\u03c6",  # ϕ: φ
        "\u1fd3": "\u0390",  # ΐ: ΐ
        "\u1fe3": "\u03b0",  # ΰ: ΰ
        "\u1e9b": "\u1e61",  # ẛ: ṡ
        "\ufb05": "\ufb06",  # ﬅ: ﬆ
        "\u1c80": "\u0432",  # the old Cyrillic letter forms: в д о с т т ъ ѣ ꙋ
        "\u1c81": "\u0434",
        "\u1c82": "\u043e",
        "\u1c83": "\u0441",
        "\u1c84": "\u0442",
        "\u1c85": "\u0442",
        "\u1c86": "\u044a",
        "\u1c87": "\u0463",
        "\u1c88": "\ua64b",
    }
)
"""The letters whose lower case is not the one a case-blind pattern takes them as."""


def folded(text: str) -> str:
    """`text` in the one case the walk compares in, each character at its place (the same
    length): lower case, and the letters a case-blind pattern takes as one written as one
    (tests/test_validate_speed.py checks this against every character there is)."""
    return text.translate(_BEFORE_LOWER).lower().translate(_AFTER_LOWER)


_UNSPACED = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
"""Thai, kana, CJK ideographs and Hangul: scripts written without spaces between words (or
with words that take their endings joined), where each character is a word of its own."""
_INVISIBLE = "\u00ad\u200c\u200d\u2060"
"""A soft hyphen and the zero-width (non-)joiners: inside a word, they do not cut it."""
_WORD = re.compile(rf"[{_UNSPACED}]|[^\W{_UNSPACED}]+(?:[{_INVISIBLE}]+[^\W{_UNSPACED}]+)*")
_DROPPED = str.maketrans("", "", _INVISIBLE)
_SEPARATORS = re.compile(BETWEEN)
_MOST = 8
"""The characters of punctuation that opens a term or closes it that must stand there (the
ones nearest its letters): beyond, they are left out."""


def _edges(word: str) -> tuple[str, str, str]:
    """The punctuation that opens `word`, what stands from its first letter or digit to its
    last, and the punctuation that closes it (found in one pass: a pattern with a lazy
    middle took the square of a long word's length)."""
    runs = [found.span() for found in _WORD.finditer(word)]
    if not runs:
        return word, "", ""
    start, end = runs[0][0], runs[-1][1]
    return word[:start], word[start:end], word[end:]


def _composed(text: str) -> str:
    """`text` with its accents composed (NFC): é typed as e and an accent is the é of a
    term typed as one character."""
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def _inside(join: str) -> str:
    """What stands between two runs of letters inside a word as the walk compares it:
    folded, a typographic apostrophe as a straight one (l’eau, l'eau)."""
    return folded(join).replace("’", "'")


def _canonical(text: str) -> str:
    """Punctuation as the walk compares it: folded, each run of separators one space."""
    return _SEPARATORS.sub(" ", folded(text))


class Piece(NamedTuple):
    """One run of `\\w` characters of a term: the folded forms a word of a text may take to
    be it, and what must stand before it: inside a word, exactly `inside` (folded); between
    two words, what `_canonical` makes of the punctuation there (`between`)."""

    forms: frozenset[str]
    inside: str | None
    between: str | None


class Shape(NamedTuple):
    """A term as the walk looks for it: its pieces, and the punctuation (`_canonical`) that
    must stand before its first piece and after its last."""

    pieces: tuple[Piece, ...]
    opening: str
    closing: str


_GIVEN: ContextVar[dict[str, Shape | None] | None] = ContextVar("term_shapes", default=None)
"""Shapes given for the block of `given_shapes` (read back from `validate`'s units)."""


@contextmanager
def given_shapes(shapes: dict[str, Shape | None]) -> Iterator[None]:
    """While the block runs, `shape` of a term in `shapes` is the shape given there (each a
    pure function of its term and this module's code: what `shape` would work out)."""
    token = _GIVEN.set(shapes)
    try:
        yield
    finally:
        _GIVEN.reset(token)


def shape(term: str) -> Shape | None:
    """How the walk finds `term`; None for a term with no letter or digit."""
    given = _GIVEN.get()
    if given is not None and term in given:
        return given[term]
    return _shape(term)


def kept_shape(value: object) -> Shape | None:
    """A shape as `kept_shapes` writes it, made again (ValueError for anything else)."""
    if value is None:
        return None
    if type(value) is not list or len(value) != 3:
        raise ValueError("not a shape")
    pieces, opening, closing = value
    if type(pieces) is not list or type(opening) is not str or type(closing) is not str:
        raise ValueError("not a shape")
    made = []
    for piece in pieces:
        if type(piece) is not list or len(piece) != 3:
            raise ValueError("not a piece")
        forms, inside, between = piece
        if type(forms) is not list or not all(type(f) is str for f in forms):
            raise ValueError("not a piece")
        if not all(v is None or type(v) is str for v in (inside, between)):
            raise ValueError("not a piece")
        made.append(Piece(frozenset(forms), inside, between))
    return Shape(tuple(made), opening, closing)


def kept_shapes(terms: Iterable[str]) -> list[list[object]]:
    """Each term with its shape, as plain data (`kept_shape` makes one again)."""
    kept: list[list[object]] = []
    for term in terms:
        found = shape(term)
        written = None
        if found is not None:
            pieces = [[sorted(p.forms), p.inside, p.between] for p in found.pieces]
            written = [pieces, found.opening, found.closing]
        kept.append([term, written])
    return kept


@lru_cache(maxsize=65_536)  # a long-lived editor session sees many glossaries
def _shape(term: str) -> Shape | None:
    """How the walk finds `term` (see `shape`)."""
    pieces: list[Piece] = []
    closing = ""  # the punctuation that closes the last word with letters
    alone: list[str] = []  # words of punctuation alone since it
    opening = ""
    for word in _composed(term).split():
        before, core, after = _edges(word)
        if not core:
            alone.append(word)
            continue
        spread = "".join(f"{w} " for w in alone) + before
        if pieces:  # separators, then what stands between the two words
            between: str | None = _canonical(f"{closing} {spread}")
        else:
            opening, between = _canonical(spread).lstrip(" ")[-_MOST:], None
        runs = [found.span() for found in _WORD.finditer(core)]
        stems = [core[start:end] for start, end in runs]
        joins = [core[end:start] for (_, end), (start, _) in itertools.pairwise(runs)]
        if len(core) > 2 and core.endswith("y"):
            endings: tuple[str, ...] = ("y", "ies")
            stems[-1] = stems[-1][:-1]
        else:
            endings = ("s", "x", "es", "")
        for index, stem in enumerate(stems):
            stem = folded(stem).translate(_DROPPED)
            last = index == len(stems) - 1
            forms = frozenset(stem + e for e in endings) if last else frozenset((stem,))
            if index:
                pieces.append(Piece(forms, _inside(joins[index - 1]), None))
            else:
                pieces.append(Piece(forms, None, between))
        closing, alone = after, []
    if not pieces:
        return None
    closing = _canonical(closing + "".join(f" {w}" for w in alone)).rstrip(" ")[:_MOST]
    return Shape(tuple(pieces), opening, closing)


class Words(NamedTuple):
    """A text cut into its words (`_WORD`: runs of `\\w` characters, folded): where each starts
    and ends, and what stands before it, folded (`before`) and as `_canonical` writes it
    (`canonical`). `tail`: what stands after the last word, as `_canonical` writes it."""

    words: list[str]
    starts: list[int]
    ends: list[int]
    before: list[str]
    canonical: list[str]
    tail: str


@lru_cache(maxsize=256)
def words_of(text: str) -> Words:
    """The words of `text`: cut once for the many terms looked for in it."""
    fold = folded(text)
    found = Words([], [], [], [], [], "")
    last = 0
    separated = _SEPARATORS.fullmatch
    for match in _WORD.finditer(text):  # folding may make a mark a letter: not the words
        start, end = match.span()
        found.words.append(fold[start:end].translate(_DROPPED))
        found.starts.append(start)
        found.ends.append(end)
        gap = fold[last:start]
        found.before.append(gap.replace("’", "'"))
        joined = last > 0 and separated(gap) is not None  # the common case, spared a `sub`
        found.canonical.append(" " if joined else _SEPARATORS.sub(" ", gap))
        last = end
    return found._replace(tail=_SEPARATORS.sub(" ", fold[last:]) if found.words else "")


class Finder(NamedTuple):
    """Terms (each of a group: a term and its other forms) as one shift-and table: a bit for
    each piece of each term, the terms laid out longest first."""

    forms: dict[str, int]  # a text's word → the pieces it can be
    first: int  # the first piece of each term that nothing must open
    opening: dict[str, int]  # the punctuation that must open a term → its first piece
    opening_sizes: tuple[int, ...]
    inside: dict[str, int]  # what stands before a piece inside a word → those pieces
    between: dict[str, int]  # what stands between two words → the pieces after it
    last: int  # the last piece of each term that nothing must close
    closing: dict[str, int]  # the punctuation that must close a term → its last piece
    closing_sizes: tuple[int, ...]
    closed: int  # every last piece that punctuation must close
    ends: dict[int, tuple[tuple[int, ...], int]]  # a last piece's bit → (groups, pieces)
    words: int  # the pieces of every term given, left out or not
    left_out: int  # the terms past `MAX_PIECES` pieces, not looked for


def plain_table(table: Finder) -> list[object]:
    """`table` as plain data (lists, text-keyed mappings, integers): `kept_table` makes it
    again."""
    ends = [[bit, list(groups), pieces] for bit, (groups, pieces) in table.ends.items()]
    return [
        table.forms,
        table.first,
        table.opening,
        list(table.opening_sizes),
        table.inside,
        table.between,
        table.last,
        table.closing,
        list(table.closing_sizes),
        table.closed,
        ends,
        table.words,
        table.left_out,
    ]


def kept_table(value: object) -> Finder:
    """A table as `plain_table` writes it, made again (ValueError for anything else)."""
    if type(value) is not list or len(value) != 13:
        raise ValueError("not a table")
    forms, first, opening, opening_sizes, inside, between, last = value[:7]
    closing, closing_sizes, closed, ends, words, left_out = value[7:]
    for bits in (forms, opening, inside, between, closing):
        if type(bits) is not dict or not set(map(type, bits)) <= {str}:
            raise ValueError("not a table's words")
        if not set(map(type, bits.values())) <= {int}:
            raise ValueError("not a table's bits")
    for one in (first, last, closed, words, left_out):
        if type(one) is not int:
            raise ValueError("not a table's bits")
    for sizes in (opening_sizes, closing_sizes):
        if type(sizes) is not list or not set(map(type, sizes)) <= {int}:
            raise ValueError("not a table's sizes")
    if type(ends) is not list:
        raise ValueError("not a table's ends")
    made: dict[int, tuple[tuple[int, ...], int]] = {}
    for end in ends:
        if type(end) is not list or len(end) != 3 or type(end[0]) is not int:
            raise ValueError("not a table's end")
        bit, groups, pieces = end
        if type(groups) is not list or not set(map(type, groups)) <= {int}:
            raise ValueError("not a table's groups")
        if type(pieces) is not int:
            raise ValueError("not a table's end")
        made[bit] = (tuple(groups), pieces)
    return Finder(
        forms,
        first,
        opening,
        tuple(opening_sizes),
        inside,
        between,
        last,
        closing,
        tuple(closing_sizes),
        closed,
        made,
        words,
        left_out,
    )


def _added(table: dict[str, int], key: str, bit: int) -> None:
    table[key] = table.get(key, 0) | bit


MAX_PIECES = 20_000
"""The words (pieces) of one table's terms: a thousand-term glossary has a few thousand. Each
word of a text moves a bit set as wide as this, and building it costs its square."""


def _kept(terms: tuple[tuple[str, int], ...]) -> tuple[dict[Shape, list[int]], int, int]:
    """The terms `finder` lays out in its table, each shape with its groups (a term written
    again, an alias, is one term), the pieces of every term given and the terms past
    `MAX_PIECES` pieces, left out."""
    kept: dict[Shape, list[int]] = {}
    words = left_out = 0
    for said, group in terms:
        if (found := shape(said)) is None:
            continue
        words += len(found.pieces)
        if words > MAX_PIECES:
            left_out += 1
        else:
            kept.setdefault(found, []).append(group)
    return kept, words, left_out


@lru_cache(maxsize=64)  # a table of 20,000 words holds megabytes: a few are kept
def finder(terms: tuple[tuple[str, int], ...]) -> Finder:
    """The table of `terms`, each (term, group); a term with no letter or digit is left
    out (it is found nowhere), and so are the terms past `MAX_PIECES` words in all
    (`left_out`: the check says so)."""
    return _laid(*_kept(terms))


def sizes(terms: tuple[tuple[str, int], ...]) -> tuple[int, int]:
    """`finder(terms)`'s `words` and `left_out`, found without making it."""
    _, words, left_out = _kept(terms)
    return words, left_out


def width(tables: Sequence[tuple[tuple[str, int], ...]]) -> int:
    """The pieces (bits) of `together(tables)`, found without making it: each shape kept
    in any of the tables once."""
    shapes: set[Shape] = set()
    for terms in tables:
        shapes.update(_kept(terms)[0])
    return sum(len(one.pieces) for one in shapes)


def together(tables: tuple[tuple[tuple[str, int], ...], ...]) -> Finder:
    """One table for the terms of several `finder` tables, each keeping what its own keeps
    (its terms up to `MAX_PIECES` pieces), a shape kept in several once: group g of
    `tables[i]` is the group g * len(tables) + i (`untangled`). A text read in many
    languages (an alias) is walked once for them all, not once for each (probe 38 M1: 20
    languages, 20 walks). Its pieces (`width`) are the caller's to bound: making a table
    costs the square of its pieces."""
    merged: dict[Shape, list[int]] = {}
    count = len(tables)
    for index, terms in enumerate(tables):
        for one, groups in _kept(terms)[0].items():
            merged.setdefault(one, []).extend(group * count + index for group in groups)
    return _laid(merged, 0, 0)


def untangled(found: set[int], count: int) -> list[set[int]]:
    """The groups `groups_used` found in a table `together` made of `count` tables: those
    of each table."""
    each: list[set[int]] = [set() for _ in range(count)]
    for group in found:
        at, index = divmod(group, count)
        each[index].add(at)
    return each


def _laid(kept: dict[Shape, list[int]], words: int, left_out: int) -> Finder:
    """The shift-and table of the shapes `kept` (with their groups), longest first."""
    laid = sorted(kept.items(), key=lambda one: -len(one[0].pieces))
    forms: dict[str, int] = {}
    opening: dict[str, int] = {}
    inside: dict[str, int] = {}
    between: dict[str, int] = {}
    closing: dict[str, int] = {}
    first = last = closed = 0
    ends: dict[int, tuple[tuple[int, ...], int]] = {}
    bit = 0
    for term, groups in laid:
        for index, piece in enumerate(term.pieces):
            one = 1 << bit
            for form in piece.forms:
                _added(forms, form, one)
            if index == 0 and term.opening:
                _added(opening, term.opening, one)
            elif index == 0:
                first |= one
            elif piece.inside is not None:
                _added(inside, piece.inside, one)
            else:
                _added(between, piece.between or " ", one)
            bit += 1
        one = 1 << bit - 1
        if term.closing:
            _added(closing, term.closing, one)
            closed |= one
        else:
            last |= one
        ends[bit - 1] = (tuple(groups), len(term.pieces))
    return Finder(
        forms,
        first,
        opening,
        tuple(sorted({len(k) for k in opening})),
        inside,
        between,
        last,
        closing,
        tuple(sorted({len(k) for k in closing})),
        closed,
        ends,
        words,
        left_out,
    )


def _walk(table: Finder, text: Words, fresh: bool) -> Iterator[tuple[int, int]]:
    """(index of a word of the text, the last pieces matched there) for each word where a
    term's match ends (matches may overlap); `fresh`: only the last pieces not matched
    before, and no further once every one is (which terms a text uses, not where)."""
    forms, inside, between = table.forms, table.inside, table.between
    starts, opening, closed, last_pieces = table.first, table.opening, table.closed, table.last
    canonical, before = text.canonical, text.before
    count = len(text.words)
    state = 0
    unmatched = last_pieces | closed
    for index, word in enumerate(text.words):
        bits = forms.get(word, 0)
        if not bits:
            state = 0
            continue
        first = starts
        if opening:  # the gap before ends with the opening, after no `\w` character
            gap = canonical[index]
            for size in table.opening_sizes:
                if size < len(gap) or (size == len(gap) and index == 0):
                    first |= opening.get(gap[-size:], 0)
        if state:
            allowed = between.get(canonical[index], 0)
            if inside:
                allowed |= inside.get(before[index], 0)
            state = ((state << 1) & allowed | first) & bits
        else:
            state = first & bits
        ended = state & last_pieces
        if state & closed:  # the gap after starts with the closing, before no `\w`
            last = index + 1 == count
            gap = text.tail if last else canonical[index + 1]
            for size in table.closing_sizes:
                if size < len(gap) or (size == len(gap) and last):
                    ended |= state & table.closing.get(gap[:size], 0)
        if fresh:
            ended &= unmatched
            unmatched ^= ended
        if ended:
            yield index, ended
            if fresh and not unmatched:
                return


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def groups_used(table: Finder, text: str) -> set[int]:
    """The groups (terms) of `table` that `text` uses. The walk stops once every term is
    found (a text of one word repeated that every term matches was walked to its end, for
    each language: 6.7 s, probe 38 M1)."""
    found: set[int] = set()
    for _, ended in _walk(table, words_of(_composed(text)), fresh=True):
        found.update(group for b in _bits(ended) for group in table.ends[b][0])
    return found


def uses(text: str, term: str, forms: Iterable[str] = ()) -> bool:
    """Whether `text` uses the term or one of its forms."""
    return bool(groups_used(finder(tuple((t, 0) for t in (term, *forms))), text))


def blank_out(names: Iterable[str], text: str) -> str:
    """The text with each place one of `names` appears (its words, from the first to the
    last) written as a space, places that overlap as one: a word inside a name uses no
    term. The punctuation that opens or closes a name stays."""
    return spaced(finder(tuple((name, 0) for name in names)), text)


def spaced(table: Finder, text: str) -> str:
    """`blank_out` of the terms of `table` (made once for many texts), composed (NFC)."""
    text = _composed(text)
    if not table.ends:
        return text
    words = words_of(text)
    spans = []
    for index, ended in _walk(table, words, fresh=False):
        longest = table.ends[(ended & -ended).bit_length() - 1][1]  # laid out longest first
        spans.append((words.starts[index - longest + 1], words.ends[index]))
    if not spans:
        return text
    kept: list[str] = []
    last = 0
    for start, end in _merged(spans):
        kept += (text[last:start], " ")
        last = end
    return "".join(kept) + text[last:]


def piece_forms(terms: tuple[tuple[str, int], ...]) -> frozenset[str]:
    """The words a piece of `finder(terms)` may be (its `forms`), found without making it."""
    return frozenset(
        form for one in _kept(terms)[0] for piece in one.pieces for form in piece.forms
    )


def strange(forms: Container[str], text: str) -> bool:
    """Whether a word of `text` that has a letter is none of `forms`, the words the pieces
    of a table may be: `spaced` leaves it, so a letter stays, known without walking the
    text (every card text of a game whose glossary's translations are its terms, 20
    languages aliased, was walked in full: probe 38 M1)."""
    text = _composed(text)
    words = words_of(text)
    return any(
        word not in forms and any(ch.isalpha() for ch in text[start:end])
        for word, start, end in zip(words.words, words.starts, words.ends, strict=True)
    )


def _merged(spans: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Spans (start, end), those that overlap as one, in order."""
    spans.sort()
    start, end = spans[0]
    for one, other in spans[1:]:
        if one < end:
            end = max(end, other)
        else:
            yield start, end
            start, end = one, other
    yield start, end
