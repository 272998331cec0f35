"""Findings of the eighth hostile-input probe (issue #33), on content: templates whose cost
grew far faster than their size inside C code or inside a guard (/work/notes/probe8b.md)."""

from __future__ import annotations

import time

import pytest

from toolkit.render import jinja_cache, template_bounds

LIMIT = jinja_cache.TemplateLimitError


def _render(source: str) -> str:
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False)
    return sandbox.render(sandbox.template(source, "probe8"), {})


def test_a_tuple_of_many_references_to_one_big_tuple_is_measured_once():
    # H1: the nesting walk went through every item of an unrecorded inner tuple at each of its
    # references: `(t,)*1000` of a 100,000-item `t` took 13.9 s, `(t,)*100000` for ever
    start = time.process_time()
    with pytest.raises(LIMIT, match="tuple"):
        _render("{% set t = (1,)*5000 %}{% set u = (t,)*40000 %}{{ u|length }}")
    assert time.process_time() - start < 1.0


@pytest.mark.parametrize(
    "use",
    [
        "{{ {u: 1}|length }}",
        "{% set d = {} %}{{ d.get(u) }}",
        "{{ {}.fromkeys([u])|length }}",
    ],
)
def test_tuples_whose_hash_walks_more_than_a_list_may_hold_are_refused(use):
    # H1: hashing a tuple walks every item of every tuple nested in it (no cache in Python)
    with pytest.raises(LIMIT, match="tuple"):
        _render("{% set t = (1,)*100 %}{% set u = (t,)*101 %}" + use)


def test_many_keys_that_hash_a_big_tuple_each_are_refused():
    # H1: one hash per key, each walking the whole tuple: 100,000 keys of 100,000 items
    with pytest.raises(LIMIT, match="hash"):
        _render("{% set t = (1,)*10000 %}{{ {}.fromkeys([t]*2001)|length }}")


def test_a_dict_literal_naming_a_big_tuple_many_times_is_bounded():
    # L2: each key hashes the whole tuple: 1,000 keys of a 100,000-item tuple took 9 s
    keys = ", ".join(["t: 1"] * 100)
    with pytest.raises(LIMIT, match="tuple"):
        _render("{% set t = (1,)*10001 %}{{ {" + keys + "}|length }}")


def test_ordinary_tuples_still_work():
    source = (
        "{% set t = (1, (2, 3)) %}{% set d = {t: 'a', (4,): 'b'} %}{{ d[t] }}{{ d[(4,)] }}"
        "{{ (((1,)*100,)*99)|length }}{{ {}.fromkeys([t]*5000)|length }}"
    )
    assert _render(source) == "ab991"


@pytest.mark.parametrize("method", ["startswith", "endswith"])
def test_prefixes_as_a_tuple_are_sized_by_what_they_compare(method):
    # H2: each prefix whose first and last characters match costs a memcmp of its length:
    # 100,000 prefixes of 1,000,000 four-byte characters, ~27 s in one call
    source = (
        '{% set s = "😀"*10000 %}{% set p = "😀"*9998 ~ "x😀" %}'
        f"{{% set t = (p,)*3000 %}}{{{{ s.{method}(t) }}}}"
    )
    with pytest.raises(LIMIT, match="steps"):
        _render(source)


def test_ordinary_prefix_tuples_still_work():
    assert _render('{{ "abc".startswith(("x", "ab")) }}{{ "abc".endswith(("bc",)) }}') == (
        "TrueTrue"
    )


@pytest.mark.parametrize(
    "call",
    ["l|sum(start=[])", "l|sum(none, [])", "t|sum(start=())", "m|sum(attribute='k', start=[])"],
)
def test_summing_lists_is_sized_by_the_copies_it_makes(call):
    # H3: `sum` makes a new list at every item: 100,000 one-item lists, 80 s in C
    source = (
        "{% set l = [[1]]*8000 %}{% set t = [(1,)]*8000 %}{% set m = [{'k': [1]}]*8000 %}"
        f"{{{{ ({call})|length }}}}"
    )
    with pytest.raises(LIMIT, match="sum"):
        _render(source)


def test_ordinary_sums_still_work():
    source = (
        "{{ [1, 2, 3]|sum }} {{ [[1], [2, 3]]|sum(start=[]) }} "
        "{{ [{'k': 2}, {'k': 5}]|sum(attribute='k') }} {{ ([[1]]*500)|sum(start=[])|length }}"
    )
    assert _render(source) == "6 [1, 2, 3] 7 500"


def test_loop_changed_compares_within_the_comparison_bounds():
    # H4: `loop.changed(x)` compared x with the last one in C without `guard_compared`:
    # 100,000 references to two equal 100,000-item lists, ~57 s
    source = (
        "{% set l = [1]*1000 %}{% set a = [l]*1000 %}{% set b = [l + []]*1000 %}"
        "{% for x in [a, b] %}{{ loop.changed(x) }}{% endfor %}"
    )
    with pytest.raises(LIMIT, match="compare"):
        _render(source)


def test_loop_changed_still_works():
    source = "{% for x in [1, 1, 2, [3], [3]] %}{{ loop.changed(x)|int }}{% endfor %}"
    assert _render(source) == "10110"


def test_the_limits_are_what_the_tests_assume():
    assert template_bounds.MAX_SCANNED == 20_000_000
    assert template_bounds.MAX_ITEMS == 100_000


def _patterns():
    from toolkit.checks import icon_names, rulebook, text_direction
    from toolkit.content.templating import INLINE_ICON

    class Spans:  # the exact finder of the i18n import's code check and the diagnostics
        finditer = staticmethod(jinja_cache.template_code)

    return {
        "rulebook._CODE": rulebook._CODE,
        "rulebook._NOT_PROSE": rulebook._NOT_PROSE,
        "rulebook._IMAGE": rulebook._IMAGE,
        "icon_names._TEMPLATE_CODE": icon_names._TEMPLATE_CODE,
        "rulebook._TEMPLATE_CODE": rulebook._TEMPLATE_CODE,  # probe 18: a line's template
        "rulebook._UNDERLINE": rulebook._UNDERLINE,
        "INLINE_ICON": INLINE_ICON,
        "text_direction._COMMENT": text_direction._COMMENT,  # probe 16: 240 kB, 94 s
        "jinja_cache.template_code": Spans,
    }


@pytest.mark.parametrize(
    "text",
    [
        "{{ " * 4000,  # an unclosed `{{` scanned to the end of the text, 4,000 times
        "{% " * 4000,
        "{# " * 4000,
        "]( " * 15000,  # an unclosed link target scanned to the end of the line
        "![ " * 4000,  # an unclosed alt text
        ("![a](" + "x" * 900 + " ") * 20,  # a path backtracked against the rest of the line
    ],
    ids=["expression", "statement", "comment", "link", "alt", "path"],
)
def test_the_rulebook_patterns_scan_unclosed_markup_in_linear_time(text):
    # H5: 15,000 unclosed `{{` in a 45 kB rulebook took 47 s to validate; 48 `![a](` and a
    # 990-character word, 45 s; four lines of 15,000 `](`, 44 s
    for name, pattern in _patterns().items():
        start = time.process_time()
        for _ in pattern.finditer(text):
            pass
        assert time.process_time() - start < 0.25, name


@pytest.mark.parametrize("opener", ["{{ ", "{% ", "{# "])
def test_the_rulebooks_translation_units_are_found_in_linear_time(opener):
    # probe 16 H2: `i18n export` of a 240 kB rulebook of unclosed `{#` took 201 s (the
    # units' code pattern scanned from every opener to the end)
    from toolkit.i18n import markdown_units

    text = "Intro.\n\n{% raw %}\n" + opener * 4000 + "\n{% endraw %}\n\nThe end.\n"
    start = time.process_time()
    markdown_units.segment(text)
    markdown_units.has_prose(text)
    markdown_units.slug(text)
    assert time.process_time() - start < 0.5, opener


def test_the_right_to_left_rulebook_check_masks_comments_in_linear_time():
    # probe 16 H1: 80,000 unclosed `{#` (in `{% raw %}`) and one Hebrew word: validate 94 s
    from toolkit.checks import text_direction

    source = "{% raw %}\n" + "{# " * 20000 + "\n{% endraw %}\n\n\u05e9\u05dc\u05d5\u05dd\n"
    start = time.process_time()
    found = list(text_direction.in_rulebook("rulebook/en.md", source, source))
    assert time.process_time() - start < 0.5
    assert [d.span.line for d in found] == [5]


def test_the_rulebook_patterns_find_what_they_found():
    from toolkit.checks import rulebook
    from toolkit.render import jinja_cache as cache

    code = __import__("re").compile(cache.TEMPLATE_CODE_MASK, __import__("re").DOTALL)
    text = "a {{ x }} b {% if y %}c{% endif %}\n{# {{ old }} #} {{ a\n }} {{ z"
    spans = [m.group() for m in code.finditer(text)]
    assert spans == ["{{ x }}", "{% if y %}", "{% endif %}", "{# {{ old }} #}", "{{ a\n }}"]
    found = [m.groups() for m in rulebook._IMAGE.finditer("x ![a](b.png) ![c]( <d e.png> 't')")]
    assert found == [("a", "b.png"), ("c", "d")]
    prose = rulebook._NOT_PROSE.sub("", "see [the rules](#rules) and `code` {{ x }}.")
    assert prose == "see [the rules and  ."


def test_the_code_finder_finds_what_the_template_code_pattern_finds():
    # H5: the exact finder (the i18n import's smuggling check leans on which code a text
    # holds) gives the regex's spans, on every mix of openers and closers up to 5 pieces
    import itertools
    import re

    pattern = re.compile(jinja_cache.TEMPLATE_CODE, re.DOTALL)
    pieces = ["{", "}", "%", "#", "a", "\n", "{{", "}}"]
    for size in range(1, 6):
        for parts in itertools.product(pieces, repeat=size):
            text = "".join(parts)
            want = [m.span() for m in pattern.finditer(text)]
            assert jinja_cache.template_code(text) == want, text
    text = "{{ 'a' * \n\n{{ game.title }}\n\n\" ~ x }} {% if %}{# {{ c }} #}{{ z"
    assert jinja_cache.template_code(text) == [m.span() for m in pattern.finditer(text)]
