"""Hardening, probe 24: a long word whose lower case is longer than it (`İ`) is hyphenated
within its window as any other, not whole at each line and kept for ever."""

from __future__ import annotations

from toolkit.render import hyphenation


def test_a_long_word_with_a_dotted_capital_i_is_hyphenated_in_its_window_alone():
    # probe 24 H4: `'İ'.lower()` is two letters, which sent the word's whole tail to pyphen
    # at each line, kept in its cache of words for ever: 53 s and 1.25 GB from a 16 kB deck
    hyphenator = hyphenation.dictionary("fr")
    word = ("anticonstitutionnellement" + "İ") * 150
    hyphenator.hd.cache.clear()
    for start in range(0, 3000, 100):
        found = hyphenation.break_points(hyphenator, word[start:], 40)
        assert found and max(found) < 40
    assert all(len(kept) < 200 for kept in hyphenator.hd.cache), "a tail kept whole"
    # the same points as pyphen finds on the whole word
    tail = word[7:]
    whole = [int(point) for point in hyphenator.positions(tail) if point < 60]
    hyphenator.hd.cache.clear()
    assert [int(point) for point in hyphenation.break_points(hyphenator, tail, 60)] == whole
