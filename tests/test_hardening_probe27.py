"""Hardening, probe 27: what sorting a dict's keys, hashing a tuple and working out numbers
cost is counted on a card face, and `pprint` is bounded by its value's size and depth."""

from __future__ import annotations

import pytest

from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, RENDER, Limits, TemplateLimitError

STOPPED = "more than 10,000 steps|more than 200,000 characters and items|a tuple of more"


def _render(source: str, limits: Limits = LAYOUT) -> str:
    sandbox = CachedSandbox(keep_trailing_newline=False, limits=limits)
    return sandbox.render(sandbox.template(source, "probe27"), {})


@pytest.mark.parametrize("sort", ["d|dictsort", "d|sort", "d|unique|list", "d|max"])
def test_the_keys_of_a_dict_sorted_count(sort):
    # H1: each sort lowered a 190,000-character key, counted as nothing: ~370 µs a unit
    source = "{% set d = {'Σ'*60000: 1} %}{% for i in range(1000) %}{{ " + sort + "|length }}"
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(source + "{% endfor %}")


@pytest.mark.parametrize("hashed", ["t is filter", "t is test", "d[t] is defined", "d.get(t)"])
def test_a_tuple_hashed_counts_its_items(hashed):
    # H2: hashing a 9,999-item tuple was at most one step
    source = "{% set t = (1,)*9999 %}{% set d = {} %}{% for i in range(1000) %}"
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(source + "{% if " + hashed + " %}{% endif %}{% endfor %}")


def test_large_numbers_count_in_a_tuples_items():
    with pytest.raises(TemplateLimitError, match="a tuple of more than 10,000 items"):
        _render("{% set n = 2**2000 * 2**2000 %}{{ ((n,)*9999)|length }}")


@pytest.mark.parametrize(
    "worked",
    [
        "{% set x = i + 1 %}",  # an intercepted operator on numbers: no step before
        "{% set x = n % m %}",  # and what a large number's digits cost
        "{% if n // m %}{% endif %}",  # `//` was not intercepted
        "{% if n is divisibleby(m) %}{% endif %}",  # nor any test but two kinds
    ],
)
def test_operators_and_tests_on_numbers_count(worked):
    # H3: 300 `i * 3 + 1 - 2` an iteration counted as the iteration alone: ~950 µs a unit
    source = "{% set n = 2**2000 * 2**2000 - 1 %}{% set m = 2**2000 - 3 %}"
    source += "{% for i in range(1999) %}"
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(source + worked * 6 + "{% endfor %}")


def test_small_sums_still_render():
    assert _render("{% for i in range(3) %}{{ i * 2 + 1 }}{% endfor %}") == "135"


def test_pprint_is_bounded_by_size_times_depth():
    # M1: 250 levels over an 800,000-character list ran 31 s in one call of a rulebook
    source = (
        "{% set a = [1]*100000 %}{% set ns = namespace(a=[a, a]) %}{% for i in range(250) %}"
        "{% set ns.a = [ns.a] %}{% endfor %}{{ ns.a|pprint|length }}"
    )
    with pytest.raises(TemplateLimitError, match="pprint of this value"):
        _render(source, RENDER)
    assert _render("{{ [1, [2, {'a': 'b'}]]|pprint }}", RENDER) == "[1, [2, {'a': 'b'}]]"
