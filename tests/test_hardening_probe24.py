"""Hardening, probe 24: a long word whose lower case is longer than it (`İ`) is hyphenated
within its window as any other, not whole at each line and kept for ever."""

from __future__ import annotations

import pytest

from toolkit.render import hyphenation
from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, TemplateLimitError

READ_TOO_MUCH = "200,000 characters and items in all"


def _face() -> CachedSandbox:
    """The sandbox a card face renders in (its limits `LAYOUT`)."""
    return CachedSandbox(keep_trailing_newline=False, limits=LAYOUT)


def _refused(source: str, name: str, said: str = READ_TOO_MUCH) -> None:
    """`source` rendered as a card face stops at a limit that says `said`."""
    sandbox = _face()
    with pytest.raises(TemplateLimitError, match=said):
        sandbox.render(sandbox.template(source, name), {})


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


def test_what_a_text_filter_or_method_reads_counts_on_a_card_face():
    # probe 25: `|striptags` and `|wordcount` return little after reading a long text, and
    # `rfind` of a long needle compares each place of it: each was one step, and 400 of
    # them a face took 1.5 s, validate clean
    loops = [
        "{% set s = '<a>' * 30000 %}{% for i in range(400) %}{% set n = s|striptags %}{% endfor %}",
        "{% set s = 'a b ' * 20000 %}{% for i in range(400) %}{% set n = s|wordcount %}"
        "{% endfor %}",
        "{% set s = 'a' * 20000 %}{% set p = 'ab' ~ 'a' * 998 %}{% for i in range(400) %}"
        "{% set n = s.rfind(p) %}{% endfor %}",
    ]
    for index, source in enumerate(loops):
        _refused(source, f"layout-probe25-{index}")
    # a card's own text read a few times is far from it
    sandbox = _face()
    fine = "{{ (text|striptags|wordcount) + text.rfind('x') + (text|wordcount) }}"
    assert sandbox.render(sandbox.template(fine, "layout-probe25-fine"), {"text": "a x " * 1000})


def test_a_jinja_test_is_a_step_and_what_it_reads_counts():
    # probe 26: `s is lower` read a 4,000-letter text and was not even a step: 40,000 of
    # them a face took 1.2 s, and 20 cards 74 s of validate, clean
    source = (
        "{% set s = 'a' * 4000 %}{% for i in range(1000) %}"
        "{% if s is lower %}{% endif %}{% if s is upper %}{% endif %}{% endfor %}"
    )
    _refused(source, "layout-probe26")
    sandbox = _face()
    fine = "{{ text is lower }} {{ 3 is odd }} {{ text is defined }}"
    rendered = sandbox.render(sandbox.template(fine, "layout-probe26-fine"), {"text": "abc"})
    assert rendered == "True True True"


def test_a_text_searched_by_in_counts_and_a_list_tested_as_text_is_weighed():
    # probe 26 H2, H3: `needle in text` was one step (0.44 ms a search below 30,000 letters);
    # `[c] * 10 is lower` made a 1 GB text of the list in one C call
    search = (
        "{% set t = 'a' * 29999 %}{% set n = 'a' * 97 ~ 'ba' %}{% for i in range(400) %}"
        "{% if n in t %}{% endif %}{% endfor %}"
    )
    _refused(search, "layout-probe26-in")
    listed = "{% set c = ['x' * 1000] * 1000 %}{{ ([c] * 10) is lower }}"
    _refused(listed, "layout-probe26-list", "prints more than")
