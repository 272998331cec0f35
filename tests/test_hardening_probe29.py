"""Hardening, probe 29: what runs apart from its body (a loop's filter, a macro's default, an
`autoescape` block) counts, every guard pays for what it walks, dict literals hash their keys
as counted, `round` is bounded, and a missing name is said in a few words."""

from __future__ import annotations

import pytest

from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, RENDER, Limits, TemplateLimitError
from toolkit.render.undefined import MissingName

STOPPED = "more than 10,000 steps|more than 200,000 characters and items"
TUPLES = "[" + ",".join(["(i,)"] * 2000) + "]"


def _render(source: str, limits: Limits = LAYOUT) -> str:
    sandbox = CachedSandbox(keep_trailing_newline=False, limits=limits)
    return sandbox.render(sandbox.template(source, "probe29"), {})


@pytest.mark.parametrize(
    "apart",
    [
        "{% for i in range(700) %}{% autoescape false %}{% if T %}{% endif %}{% endautoescape %}"
        "{% endfor %}",
        "{% for i in range(700) if T %}{% endfor %}",
        "{% macro m(x=T) %}{% endmacro %}{% for i in range(700) %}{{ m() }}{% endfor %}",
    ],
)
def test_what_runs_apart_from_its_body_counts(apart):
    # H1: 1,000–3,600 µs a unit; a game's layout of 11 kB validated clean in 50 s
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(apart.replace("T", TUPLES.replace("i", "1") if "macro" in apart else TUPLES))


@pytest.mark.parametrize(
    "walked",
    [
        "{% set P = [[0, 0]]*10000 %}{% for i in range(400) %}{% set x = dict(P) %}{% endfor %}",
        "{% set d = {}.fromkeys(range(10000)) %}{% for i in range(500) %}"
        "{% set x = d.keys() - d.keys() %}{% endfor %}",
        "{% set S = ['']*10000 %}{% for i in range(500) %}{% set x = ''.join(S) %}{% endfor %}",
    ],
)
def test_every_guard_pays_for_what_it_walks(walked):
    # H2: the guards went over 10,000 items in Python before a call that returned little
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(walked)


def test_round_is_bounded():
    # H3: `1|round(-30000000)` computed 10**30000000 in one call (32 s)
    with pytest.raises(TemplateLimitError, match="round"):
        _render("{{ 1|round(-30000000) }}", RENDER)
    assert _render("{{ 2.567|round(1) }}") == "2.6"


def test_a_missing_name_is_said_in_a_few_words():
    # H4: the message printed the key asked with whole: 5.1 GB for one P003
    source = "{% set a = ['a'*100]*100 %}{% set b = [a]*100 %}{{ [0][b] }}"
    with pytest.raises(MissingName) as missing:
        _render(source)
    assert len(str(missing.value)) < 200 and "a list of 100 items" in str(missing.value)
    long_key = "{% set d = {'k' ~ 'x'*5000: 1} %}{{ d['k' ~ 'y'*5000] }}"
    with pytest.raises(MissingName) as missing:
        _render(long_key, RENDER)
    assert len(str(missing.value)) < 400


def test_a_dict_literal_counts_its_tuple_keys():
    # H5: `{t: 1}` hashed a 9,999-item tuple as one node
    source = "{% set t = (1,)*9999 %}{% for i in range(1000) %}{% set d = {t: 1} %}{% endfor %}"
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(source)
    assert _render("{{ {(1, 2): 'a'}[(1, 2)] }}") == "a"


def test_a_namespace_made_of_a_dict_counts_it():
    # H6: `namespace(D)` copied a 10,000-key dict as one step
    source = "{% set D = dict.fromkeys(range(10000)) %}{% for i in range(1000) %}"
    with pytest.raises(TemplateLimitError, match=STOPPED):
        _render(source + "{% set n = namespace(D) %}{% endfor %}")


def test_what_still_renders():
    source = (
        "{% macro m(x=1, y=[1,2]) %}{{ x }}{{ y|length }}{% endmacro %}{{ m() }}"
        "{% for i in [1,2,3] if i > 1 %}{{ i }}{% endfor %}"
        "{% autoescape false %}z{% endautoescape %}"
    )
    assert _render(source) == "1223z"


def test_a_limit_met_when_a_render_ends_is_said_where_it_last_printed(monkeypatch):
    # M1: the look when a render ends raised with no line: the rulebook said 1:1
    from toolkit.render import template_bounds

    def late(self):
        raise template_bounds.TemplateTimeError("rendering took longer than 5 s")

    monkeypatch.setattr(template_bounds.Budget, "look", late)
    with pytest.raises(TemplateLimitError) as late_error:
        _render("one\ntwo\nthree {{ 'x' }}\nfour", RENDER)
    assert late_error.value.lineno in (3, 4)


def _urlize_counted(monkeypatch, sandbox: CachedSandbox) -> list[str]:
    """The calls of Jinja's own `urlize`, under the guard the sandbox puts around it."""
    from jinja2.filters import do_urlize

    from toolkit.render.template_bounds import guard_filter

    calls: list[str] = []

    def counted(*args, **kwargs):
        calls.append(args[1])
        return do_urlize(*args, **kwargs)

    counted.jinja_pass_arg = do_urlize.jinja_pass_arg  # type: ignore[attr-defined]
    monkeypatch.setitem(sandbox.env.filters, "urlize", guard_filter("urlize", counted))
    return calls


@pytest.mark.parametrize(
    ("source", "said"),
    [
        # L1: `'a' ~ '<'*499000 ~ '>'*499000` took 11.6 s in one call, then was refused
        ("{{ ('a' ~ '<'*5000 ~ '>'*5000)|urlize }}", "urlize of a word of 10,001 characters"),
        ("{{ ('a' ~ '('*2100 ~ ')'*2100)|urlize }}", "urlize of a word of 4,201 characters"),
        # each word compared with each extra scheme in Python: 499,000 × 1,000 took 67 s
        (
            "{{ ('a ' * 4000)|urlize(extra_schemes=['xx:']*1000) }}",
            "urlize of 4,000 words with 1,000 extra schemes",
        ),
    ],
)
def test_urlize_is_refused_before_its_cost_grows_past_the_length(monkeypatch, source, said):
    sandbox = CachedSandbox(keep_trailing_newline=False)
    calls = _urlize_counted(monkeypatch, sandbox)
    with pytest.raises(TemplateLimitError, match=said):
        sandbox.render(sandbox.template(source, "probe29-urlize"), {})
    assert calls == []  # refused before it ran


def test_urlize_counts_its_words_on_a_card_face():
    # ~3 µs a word in Python, one step for the whole text: 20,000 words ran 0.1 s a face
    with pytest.raises(TemplateLimitError, match="more than 10,000 steps"):
        _render("{{ ('a ' * 20000)|urlize|length }}")
    said = _render("{{ 'see https://example.com/a_(b) or www.x.org.'|urlize }}")
    assert '<a href="https://example.com/a_(b)"' in said and 'href="https://www.x.org"' in said


@pytest.mark.parametrize(
    "source",
    [
        # L2: the value was weighed once, printed 250 times: 500 MB built, then refused
        "{% set s = 'x'*5000 %}{{ ('%(a)s'*250) % {'a': s} }}",
        "{% set s = 'x'*5000 %}{{ ('%(a)s'*250)|format(a=s) }}",
        "{% set s = 'x'*340000 %}{{ '%(a)s %(b)s %(a)s %(a)s' % {'a': s, 'b': 1} }}",
    ],
)
def test_percent_weighs_a_named_value_at_each_field_before_it_runs(source):
    with pytest.raises(TemplateLimitError, match="`%` would build more than 1,000,000"):
        _render(source, RENDER)


def test_percent_with_names_still_prints():
    assert _render("{{ '%(a)s-%(b)s %(a)3d' % {'a': 3, 'b': 'x'} }}", RENDER) == "3-x   3"
    # only the values the fields name count, each once per field
    source = "{{ ('%(c)s' % {'a': 'y'*999000, 'c': 1})|length }}"
    assert _render(source, RENDER) == "1"
