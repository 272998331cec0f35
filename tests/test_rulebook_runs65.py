"""A rendered rulebook's runs without a breaking space (its long words, `long_runs`, and its
first word past `MAX_WORD`, `_long_word_at`) are found from the spaces before them: the runs
a look-behind pattern (`(?<!x)x{n,}`, tried at every character) finds, in C from one space
to the next."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.checks import card_reference_bounds
from toolkit.render import rulebook_source as rs

_NS = f"[^{re.escape(rs.BREAKING_SPACES)}]"
_ALPHABET = "ab*|\u00a0\u202f\u200b \n\t\u3000é"


def _looked_behind(size: int) -> re.Pattern[str]:
    return re.compile(rf"(?<!{_NS}){_NS}{{{size},}}")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60), st.integers(min_value=1, max_value=6))
def test_the_runs_are_the_look_behind_pattern_s(text, size) -> None:
    found = list(rs._run_spans(text, rs._runs(size)))
    assert found == [m.span() for m in _looked_behind(size).finditer(text)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a" * 31, "b" * 5, " ", "\u200b", "\u00a0", "\n", "x" * 60])))
def test_long_runs_and_the_first_long_word(pieces) -> None:
    text = "".join(pieces)
    runs = [m.span() for m in _looked_behind(rs.LONG_WORD + 1).finditer(text)]
    assert list(rs.long_runs(text)) == runs
    squares = sum((end - start) ** 2 for start, end in runs)
    assert card_reference_bounds._long_words(text)[0] == squares
    first = _looked_behind(rs.MAX_WORD + 1).search(text)
    assert rs._long_word_at(text) == (first.start() if first else -1)


def test_no_pattern_of_a_run_looks_behind() -> None:
    for patterns in (rs._LONG_WORDS, rs._LONG_RUNS):
        assert all("(?<" not in p.pattern for p in patterns)
    long = "w" * (rs.MAX_WORD + 1)
    assert rs._long_word_at(long) == 0 and rs._long_word_at("a " + long) == 2
