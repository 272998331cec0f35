"""Hardening, probe 28: a range and a dict's views (`keys()`, `values()`, `items()`) are
weighed, walked and charged as lists and dicts are, and a render past its limits is never
clean because its last steps ran between two looks at the clock."""

from __future__ import annotations

import pytest

from toolkit.render import template_bounds
from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, RENDER, Limits, TemplateLimitError

STOPPED = "more than 10,000 steps|more than 200,000 characters and items"


def _render(source: str, limits: Limits = LAYOUT) -> str:
    sandbox = CachedSandbox(keep_trailing_newline=False, limits=limits)
    return sandbox.render(sandbox.template(source, "probe28"), {})


@pytest.mark.parametrize("scan", ["0.5 in range(100000)", "range(100000).count(0.5)"])
def test_a_range_gone_over_in_c_counts_its_numbers(scan):
    # H1: a float looked for in a range goes over every number in C, 3.4 ms as one step
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render("{% for i in range(1000) %}{% if " + scan + " %}{% endif %}{% endfor %}")


def test_a_small_range_still_answers():
    assert _render("{% for i in range(9) %}{{ 'x' if i in range(2, 4) }}{% endfor %}") == "xx"


def test_dict_views_compared_are_walked():
    # H2: `d.items() == e.items()` compared every value in C for 75 s, as two steps
    source = (
        "{% set L = range(20000)|list %}{% set M = range(20000)|list %}"
        "{% set d = dict.fromkeys(range(20000), L) %}{% set e = dict.fromkeys(range(20000), M) %}"
        "{% if d.items() == e.items() %}{% endif %}"
    )
    with pytest.raises(TemplateLimitError, match="cannot compare values of more than"):
        _render(source, RENDER)


@pytest.mark.parametrize("sort", ["d.keys()|sort", "d.keys()|max", "d.items()|sort"])
def test_the_texts_of_a_dict_view_sorted_count(sort):
    # H3: sorting `d.keys()` lowered a 50,000-letter key unread, 90 µs a unit
    source = "{% set d = {'Σ'*50000: 'b', 'a': 'Σ'*10} %}{% for i in range(600) %}"
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(source + "{% set x = " + sort + " %}{% endfor %}")


@pytest.mark.parametrize(
    "printed",
    ["{% if d.values() is lower %}{% endif %}", "{{ d.items() }}", "{{ d.values() ~ '' }}"],
)
def test_a_dict_view_printed_is_weighed_first(printed):
    # H4: `d.values() is lower` built 10⁹ characters in one C call (2 GB, validate clean)
    source = "{% set L = ['a' * 1000] * 1000 %}{% set d = dict.fromkeys(range(100), L) %}"
    with pytest.raises(TemplateLimitError, match="more than 1,000,000 characters"):
        _render(source + printed)


def test_views_still_read_as_their_dict():
    source = "{% set d = {'b': 1, 'a': 2} %}{{ d.keys()|sort|join(',') }} {{ 'a' in d.keys() }}"
    assert _render(source) == "a,b True"


def test_a_render_past_its_deadline_is_not_clean(monkeypatch):
    # H2: up to 63 ticks of C work ran after the last look, and the render ended clean
    monkeypatch.setattr(template_bounds, "MAX_SECONDS", -1.0)
    with pytest.raises(TemplateLimitError, match="longer than"):
        _render("{{ 'a' }}", RENDER)


def test_a_recursive_loops_own_iterations_count():
    # H5: `loop(L)` went over L uncounted: 5,000,000 iterations a face in 0.94 s, 2,753 units
    source = (
        "{% set L = [0]*10000 %}{% for x in range(1, 501) recursive %}"
        "{% if x %}{{ loop(L) }}{% endif %}{% endfor %}"
    )
    with pytest.raises(TemplateLimitError, match="more than 2,000 iterations"):
        _render(source)
    nested = "{% for x in [[1, [2, 3]], 4] recursive %}{% if x is sequence %}{{ loop(x) }}"
    assert _render(nested + "{% else %}{{ x }}{% endif %}{% endfor %}") == "1234"


@pytest.mark.parametrize("spread", ["'{}'.format(*L)", "loop.cycle(*L)"])
def test_the_arguments_a_call_is_given_count(spread):
    # H6: `f(*L)` gave 10,000 arguments the guards and the callee went over as one step
    source = "{% set L = [0]*10000 %}{% for i in range(500) %}{% set x = " + spread + " %}"
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(source + "{% endfor %}")


NESTED = "{% set a = ['a'*100]*100 %}{% set b = [a]*100 %}{% set c = [b]*100 %}"


@pytest.mark.parametrize("made_text", ["c|wordcount", "c|urlize", "c|upper", "c|indent"])
def test_a_text_filter_given_a_list_weighs_it_first(made_text):
    # H7: `c|wordcount` printed the list's 10⁸ characters in one C call and returned a number
    with pytest.raises(TemplateLimitError, match="prints more than 1,000,000 characters"):
        _render(NESTED + "{% set x = " + made_text + " %}")


def test_a_namespace_printed_is_weighed():
    # H4: `str(ns)` prints its attributes
    source = "{% set L = ['a' * 1000] * 1000 %}{% set ns = namespace(a=[L]*100) %}"
    with pytest.raises(TemplateLimitError, match="prints more than 1,000,000 characters"):
        _render(source + "{% if ns is lower %}{% endif %}")
    assert _render("{% set ns = namespace(a=1) %}{% set ns.a = ns.a + 1 %}{{ ns.a }}") == "2"
