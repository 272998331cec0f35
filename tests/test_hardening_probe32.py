"""Probe 32 H2: a glossary term of many short words was looked for word by word from every
place its first word starts, in every text, for every term. 80 terms of ~500 one-letter
words against 50 card texts of 1,100 characters (87 kB in all) took `validate` 74 s of CPU.
The search now walks each text's words once per term (shift-and), whatever the term's
length; it must still find what the term's regular expression finds."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolkit.checks.translation import glossary, term_search
from toolkit.checks.translation.term_search import blank_out, term_pattern, uses


class _TooMuch(Exception):
    pass


def _lines(limit: int, call: Any) -> int:
    """The lines of the glossary module `call()` runs (stopping it past `limit`)."""
    ran = 0
    modules = {glossary.__file__, term_search.__file__}

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal ran
        if frame.f_code.co_filename not in modules:
            return None
        if event == "line":
            ran += 1
            if ran > limit:
                raise _TooMuch
        return trace

    sys.settrace(trace)
    try:
        call()
    except _TooMuch:
        pass
    finally:
        sys.settrace(None)
    return ran


def test_a_long_term_is_looked_for_in_one_walk_of_the_text() -> None:
    text = "e f " * 2_000 + "exq"  # 4,001 words; every word of the term but its last is there
    term = "e f " * 250 + "ex"
    assert not uses(text, term) and not uses(text, term, ("f " * 300 + "ex",))
    limit = 20 * 4_001  # a walk of the text; word by word from each start it ran millions
    found = "e f " * 2_000 + "ex"
    assert _lines(limit, lambda: uses(found, term)) <= limit
    assert uses(found, term)
    assert _lines(limit, lambda: blank_out(term, text)) <= limit
    assert _lines(limit, lambda: glossary._without(text, [term, "f " * 100 + "ex"])) <= limit


_WORDS = st.sampled_from(["e", "es", "ex", "exes", "f", "fy", "fies", "fys", "É", "ÉS", "e_"])
_BETWEEN = st.sampled_from([" ", "  ", "-", "'", "’", "\u00a0", ", ", ".", "", "-,", "\n"])


@st.composite
def _texts(draw: st.DrawFn) -> str:
    words = draw(st.lists(_WORDS, max_size=12))
    gaps = draw(st.lists(_BETWEEN, min_size=len(words) + 1, max_size=len(words) + 1))
    return "".join(gap + word for gap, word in zip(gaps, words, strict=False)) + gaps[-1]


_TERMS = st.lists(
    st.sampled_from(
        ["e", "ex", "f", "fy", "É", "e_", "exe", "e-f", "f'ex", "e.e", "f-y", "«e»", "f."]
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=400, deadline=None)
@given(_texts(), _TERMS)
@example("e e e", ["e", "e"])  # matches do not overlap: the next is looked for after one
@example("fies-fy'FY", ["fy", "fy"])
@example("a F. b", ["f."])  # a word that ends with no letter: its pattern
@example("l'E-F f’ex", ["e-f", "f'ex"])  # inside a word: that very character
def test_a_term_is_found_and_blanked_out_as_its_pattern_does(text: str, words: list[str]) -> None:
    term = " ".join(words)
    pattern = term_pattern(term)
    assert uses(text, term) == (pattern.search(text) is not None)
    assert blank_out(term, text) == pattern.sub(" ", text)


@settings(max_examples=300, deadline=None)
@given(_texts(), st.lists(_TERMS, min_size=1, max_size=6))
def test_the_terms_a_text_uses_are_found_at_once_as_each_pattern_does(
    text: str, terms: list[list[str]]
) -> None:
    said = [" ".join(words) for words in terms]
    table = term_search.finder(tuple((term, at) for at, term in enumerate(said)))
    expected = {at for at, term in enumerate(said) if term_pattern(term).search(text)}
    assert term_search.groups_used(table, text) == expected
