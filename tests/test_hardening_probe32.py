"""Probe 32 H2: a glossary term of many short words was looked for word by word from every
place its first word starts, in every text, for every term. 80 terms of ~500 one-letter
words against 50 card texts of 1,100 characters (87 kB in all) took `validate` 74 s of CPU.
The search now walks each text's words once per term (shift-and), whatever the term's
length; it must still find what the term's regular expression finds."""

from __future__ import annotations

import re
import sys
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolkit.checks.translation import glossary, term_search
from toolkit.checks.translation.term_search import blank_out, folded, term_pattern, uses


class _Walked(list):  # type: ignore[type-arg]
    """A text's words that count how many of them a walk goes over."""

    walked = 0

    def __iter__(self) -> Any:
        for word in super().__iter__():
            _Walked.walked += 1
            yield word


def _walked(monkeypatch: Any, call: Any) -> int:
    """The words of texts the glossary's walks go over in `call()` (counted, not traced:
    a tracer made a CI worker spin)."""
    real = term_search.words_of

    def counted(text: str) -> term_search.Words:
        found = real(text)
        return found._replace(words=_Walked(found.words))

    monkeypatch.setattr(term_search, "words_of", counted)
    _Walked.walked = 0
    try:
        call()
    finally:
        monkeypatch.setattr(term_search, "words_of", real)
    return _Walked.walked


def test_a_long_term_is_looked_for_in_one_walk_of_the_text(monkeypatch) -> None:
    text = "e f " * 2_000 + "exq"  # 4,001 words; every word of the term but its last is there
    term = "e f " * 250 + "ex"
    assert not uses(text, term) and not uses(text, term, ("f " * 300 + "ex",))
    found = "e f " * 2_000 + "ex"
    # each word of the text once a walk; word by word from each start it was millions of steps
    assert _walked(monkeypatch, lambda: uses(found, term)) <= 4_001
    assert uses(found, term)
    assert _walked(monkeypatch, lambda: blank_out([term], text)) <= 4_001
    names = glossary._Tables((), ("fr",), "fr", [term, "f " * 100 + "ex"])  # (kept names)
    assert _walked(monkeypatch, lambda: names.blank(text)) <= 4_001


_WORDS = st.sampled_from(
    ["e", "es", "ex", "exes", "f", "fy", "fies", "fys", "É", "ÉS", "e_", "Жж", "жжes", "σς", "ΣΣ"]
)
_BETWEEN = st.sampled_from(
    [" ", "  ", "-", "'", "’", "\u00a0", ", ", ".", "", "-,", "\n", "«", "»"]
)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    words = draw(st.lists(_WORDS, max_size=12))
    gaps = draw(st.lists(_BETWEEN, min_size=len(words) + 1, max_size=len(words) + 1))
    return "".join(gap + word for gap, word in zip(gaps, words, strict=False)) + gaps[-1]


_TERMS = st.lists(
    st.sampled_from(
        ["e", "ex", "f", "fy", "É", "e_", "exe", "e-f", "f'ex", "e.e", "f-y", "жж", "σσ"]
    ),
    min_size=1,
    max_size=4,
)


def _straight(text: str) -> str:
    """The text with its typographic apostrophes straight: inside a word, the walk reads
    one as the other; between words, the pattern does too."""
    return text.replace("’", "'")


def _everywhere(names: list[str], text: str) -> str:
    """Each place a name's pattern matches (overlapping ones too) as one space."""
    spans = sorted(
        (found.start(1), found.end(1))
        for name in names
        for found in re.finditer(f"(?=({term_pattern(name).pattern}))", text, re.IGNORECASE)
    )
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    for start, end in reversed(merged):
        text = text[:start] + " " + text[end:]
    return text


@settings(max_examples=400, deadline=None)
@given(_texts(), _TERMS)
@example("e e e", ["e", "e"])  # a match's words may be another's: blanked out as one place
@example("fies-fy'FY", ["fy", "fy"])
@example("l'E-F f’ex", ["e-f", "f'ex"])  # inside a word: that very character
def test_a_term_is_found_and_blanked_out_as_its_pattern_does(text: str, words: list[str]) -> None:
    term = " ".join(words)
    plain = _straight(text)
    assert uses(text, term) == (term_pattern(term).search(plain) is not None)
    assert _straight(blank_out([term], text)) == _everywhere([term], plain)


@settings(max_examples=300, deadline=None)
@given(_texts(), st.lists(_TERMS, min_size=1, max_size=6))
def test_the_terms_a_text_uses_are_found_at_once_as_each_pattern_does(
    text: str, terms: list[list[str]]
) -> None:
    said = [" ".join(words) for words in terms]
    table = term_search.finder(tuple((term, at) for at, term in enumerate(said)))
    plain = _straight(text)
    expected = {at for at, term in enumerate(said) if term_pattern(term).search(plain)}
    assert term_search.groups_used(table, text) == expected
    assert _straight(blank_out(said, text)) == _everywhere(said, plain)


def test_punctuation_that_opens_or_closes_a_term_must_stand_there() -> None:
    assert uses("Le «Port» et", "«port»") and uses("«PORTS»", "«port»")
    assert not uses("Le Port et", "«port»") and not uses("Le «Port et", "«port»")
    assert not uses("x«port»", "«port»") and not uses("«port»x", "«port»")
    assert uses("«port»", "«port»") and uses("(«port», ", "«port»")
    assert uses("See Dr. Who.", "Dr. Who") and not uses("See Dr Who.", "Dr. Who")
    assert uses("rock 'n' roll, rock-'n'-roll", "rock 'n' roll")  # separators: any run
    assert uses("Black & White", "black & white") and not uses("Black White", "black & white")
    assert uses("black , & white", "black , & white") and not uses(
        "black, & white", "black , & white"
    )
    assert not uses("anything & at all", "& ") and not uses("", "  ")  # no letter: nowhere
    assert blank_out(["«Port Royal»"], "Au «Port Royal» on vend") == "Au « » on vend"


def test_the_classes_the_walk_reads_are_the_patterns() -> None:
    unspaced = re.compile(f"[{term_search._UNSPACED}{term_search._INVISIBLE}]")
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    every = unspaced.sub("", every)  # each a word of its own; inside a word, nothing
    words = term_search.words_of(every)
    assert words.words == [folded(w) for w in re.findall(r"\w+", every)]
    spaced = [gap == " " for gap in words.canonical[1:]]
    assert spaced == [
        re.fullmatch(term_search.BETWEEN, gap) is not None for gap in re.split(r"\w+", every)[1:-1]
    ]


def test_a_long_word_of_a_term_is_cut_at_its_edges_in_one_pass() -> None:
    """A lazy pattern cut a word `e»»…»e` in the square of its length: 200,000 » would take
    hours; one pass takes milliseconds (a generous limit, in a process of its own)."""
    import subprocess

    code = (
        "from toolkit.checks.translation.term_search import shape, uses\n"
        "word = 'e' + '»' * 200_000 + 'e'\n"
        "assert len(shape(word).pieces) == 2 and not uses('e » e', word)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_word_is_read_as_a_reader_reads_it() -> None:
    """Probe 34 M1, M2: wrong T008s on plain content."""
    assert uses("Buvez l’eau-de-vie", "l'eau-de-vie") and uses("l'eau", "l’eau")
    assert uses("un tré\u00adsor", "trésor") and uses("Le trésor", "tré\u00adsor")
    assert uses("cafe\u0301s", "café") and uses("cafés", "cafe\u0301")  # accents typed apart
    assert uses("カードを1枚引く。", "カード") and uses("카드를 뽑는다", "카드")
    assert not uses("カーを", "カード") and not uses("vie", "eau-de-vie")
    assert blank_out(["カード"], "カードを1枚") == " を1枚"
