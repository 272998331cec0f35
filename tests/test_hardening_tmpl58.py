"""Probe 51 P51-4..8 (session 58, helper tmpl58): the values a filter, a format field or `%`
reads through an object's attributes are weighed before the call, bytes `%` is checked as
str `%` is, and urlize's search for a word's closing punctuation is priced."""

from __future__ import annotations

import pytest
from jinja2.filters import FILTERS

from toolkit.render import jinja_cache
from toolkit.render import template_bounds as bounds
from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, RENDER, Limits, TemplateLimitError

CYCLER = '{% set c = cycler("x"*999999) %}'


def _sandbox(limits: Limits = RENDER) -> CachedSandbox:
    return CachedSandbox(keep_trailing_newline=False, limits=limits)


def _render(source: str, limits: Limits = RENDER, sandbox: CachedSandbox | None = None) -> str:
    sandbox = sandbox or _sandbox(limits)
    return sandbox.render(sandbox.template(source, "tmpl58"), {})


def _counted(monkeypatch, sandbox: CachedSandbox, name: str) -> list[object]:
    """The calls of Jinja's own filter `name`, under the guard the sandbox puts around it."""
    original = FILTERS[name]
    calls: list[object] = []

    def counted(*args, **kwargs):
        calls.append(name)
        return original(*args, **kwargs)

    if hasattr(original, "jinja_pass_arg"):
        counted.jinja_pass_arg = original.jinja_pass_arg  # type: ignore[attr-defined]
    monkeypatch.setitem(sandbox.env.filters, name, bounds.guard_filter(name, counted))
    return calls


@pytest.mark.parametrize(
    ("name", "source", "said"),
    [
        # P51-4: a cycler weighed 24 characters; its `current` joined 5,000 times built 5 GB
        ("join", CYCLER + '{{ ([c]*3)|join(attribute="current") }}', "join would build"),
        ("join", CYCLER + '{{ ([c]*3)|join(",", "current") }}', "join would build"),
        (
            "join",
            '{% for s in ["x"*999999, "y"] %}{% if loop.last %}'
            '{{ ([loop]*3)|join(attribute="previtem") }}{% endif %}{% endfor %}',
            "join would build",
        ),
        (
            "join",  # the next item, not yet drawn when the loop is weighed: peeked
            '{% for s in ["y", "x"*999999] %}{% if loop.first %}'
            '{{ ([loop]*3)|join(attribute="nextitem") }}{% endif %}{% endfor %}',
            "join would build",
        ),
        (
            "join",
            '{% set j = joiner("x"*999999) %}{{ ([j]*3)|join(attribute="sep") }}',
            "join would build",
        ),
        # P51-5: sort and groupby keep every lower-cased key: 4,000 of them were 3.9 GB
        ("sort", CYCLER + '{{ ([c]*20)|sort(attribute="current")|length }}', "cannot compare"),
        ("groupby", CYCLER + '{{ ([c]*20)|groupby("current")|length }}', "cannot compare"),
        ("max", CYCLER + '{{ ([c]*20)|max(attribute="current")|length }}', "cannot compare"),
        ("min", CYCLER + '{{ ([c]*20)|min(attribute="current")|length }}', "cannot compare"),
        (
            "unique",
            CYCLER + '{{ ([c]*20)|unique(attribute="current")|list|length }}',
            "cannot compare",
        ),
        # an iterator given to sort was not walked at all: `select` hid the texts
        ("sort", '{{ (["x"*999999]*20)|select|sort|length }}', "cannot compare"),
        ("max", '{{ (["x"*999999]*20)|select|max|length }}', "cannot compare"),
    ],
)
def test_what_a_filter_reads_through_attributes_is_weighed_before_it_runs(
    monkeypatch, name, source, said
):
    sandbox = _sandbox()
    calls = _counted(monkeypatch, sandbox, name)
    with pytest.raises(TemplateLimitError, match=said):
        _render(source, sandbox=sandbox)
    assert calls == []  # refused before it ran


def test_a_cycler_holding_big_texts_prints_no_list_of_it():
    # the holders are walked by every guard that walks values: `[c]*N ~ ''` is a list's text
    with pytest.raises(TemplateLimitError, match="`~` would build more"):
        _render(CYCLER + "{{ ([c]*3) ~ '' }}")


def _formatted_fields(monkeypatch) -> list[object]:
    calls: list[object] = []
    formatter = jinja_cache._ViewRefusingFormatter
    original = formatter.format_field

    def counted(self, value, spec):
        calls.append(spec)
        return original(self, value, spec)

    monkeypatch.setattr(formatter, "format_field", counted)
    return calls


@pytest.mark.parametrize(
    "source",
    [
        # P51-6: `{0.items}` printed 20 million characters a field, weighed as 24
        '{% set c = cycler(*(["x"*99999]*20)) %}{{ "{0.items}".format(c)|length }}',
        CYCLER + '{{ ("{0.current}"*3).format(c)|length }}',
        CYCLER + '{{ ("{0.current!r}").format(c)|length }}',
    ],
)
def test_a_format_field_reading_an_attribute_is_weighed_before_it_prints(monkeypatch, source):
    calls = _formatted_fields(monkeypatch)
    with pytest.raises(TemplateLimitError, match="format would build more"):
        _render(source)
    assert calls == []


def test_each_format_field_is_weighed_as_the_formatter_reads_it(monkeypatch):
    # the formatter's own check, without the arguments' weighing before the call: a field
    # reads what no argument's weight has to say (an attribute of an object)
    calls = _formatted_fields(monkeypatch)
    monkeypatch.setattr(bounds, "check_brace_format", lambda template, args: None)
    with pytest.raises(TemplateLimitError, match="fields would print more than 1,000,000"):
        _render('{% set c = cycler(*(["x"*99999]*20)) %}{{ "{0.items}".format(c)|length }}')
    assert calls == []
    with pytest.raises(TemplateLimitError, match="fields would print more than 1,000,000"):
        _render('{% set s = "x"*99997 %}{{ ("{0}"*11).format(s)|length }}')
    assert len(calls) == 10  # the eleventh field refused before it was made text
    # a formatter used twice starts its count again
    twice = '{% set f = ("{0}"*6).format %}{{ f("x"*99999)|length }} {{ f("y"*99999)|length }}'
    assert _render(twice) == "599994 599994"


@pytest.mark.parametrize(
    ("source", "said"),
    [
        # P51-7: bytes `%` was not checked: 3.8 GB from one line
        ('{{ ("%2000000s".encode() % ("x".encode(),))|length }}', "a format width over 1000"),
        ('{{ ("%02000000d".encode() % (1,))|length }}', "a format width over 1000"),
        ('{{ ("%*d".encode() % (2000000, 1))|length }}', "taken from an argument"),
        (
            '{{ (("%s"*3).encode() % ((("x"*999999).encode(),)*3))|length }}',
            "`%` would build more",
        ),
        (
            '{{ (("%(a)s"*250).encode() % {"a".encode(): ("x"*5000).encode()})|length }}',
            "`%` would build more",
        ),
    ],
)
def test_bytes_percent_is_checked_as_str_percent_is(source, said):
    with pytest.raises(TemplateLimitError, match=said):
        _render(source)


def test_bytes_percent_still_formats():
    source = '{{ ("%s-%d-%(x)s"|replace("%(x)s", "")).encode() % ("a".encode(), 3) }}'
    assert _render(source) == "b'a-3-'"
    named = '{{ "%(a)s:%(a)s".encode() % {"a".encode(): "q".encode()} }}'
    assert _render(named) == "b'q:q'"


@pytest.mark.parametrize(
    ("source", "limits", "said"),
    [
        # P51-8: each word's search for its closing dots costs the square of its run of
        # dots: 240 words of 4,000 took 55 s in one call
        ('{{ (("."*2999 ~ "x. ")*2)|urlize|length }}', RENDER, "closing punctuation"),
        ('{{ ((">"*1500 ~ "x. ")*2)|urlize|length }}', RENDER, "closing punctuation"),
        ('{{ ((")"*1100 ~ ","*1100 ~ "x) ")*2)|urlize|length }}', RENDER, "closing punctuation"),
        # within one call's bound, but not within a card face's steps
        ('{{ ("."*1900 ~ "x. ")|urlize|length }}', LAYOUT, "more than 10,000 steps"),
    ],
)
def test_urlize_prices_its_search_for_closing_punctuation_before_it_runs(
    monkeypatch, source, limits, said
):
    sandbox = _sandbox(limits)
    calls = _counted(monkeypatch, sandbox, "urlize")
    with pytest.raises(TemplateLimitError, match=said):
        _render(source, sandbox=sandbox)
    assert calls == []


def test_ordinary_templates_still_render():
    source = (
        '{% set cards = [{"name": "B", "n": 2}, {"name": "a", "n": 1}] %}'
        '{{ cards|join(", ", attribute="name") }}|'
        '{{ cards|sort(attribute="name")|map(attribute="name")|join }}|'
        '{{ cards|sort(attribute="n,name")|map(attribute="n")|join }}|'
        '{% for g in cards|groupby("n") %}{{ g.grouper }}{% endfor %}|'
        '{{ (cards|max(attribute="n")).name }}{{ cards|unique(attribute="name")|list|length }}|'
        '{% set row = cycler("odd", "even") %}{% set sep = joiner("; ") %}'
        "{% for c in cards %}{{ sep() }}{{ row.next() }}:{{ loop.previtem is defined }}"
        '{{ "{0[name]}/{1.current}".format(c, row) }}{% endfor %}|'
        '{{ ["b", "a"]|select|sort|join }}|'
        '{{ "see www.example.org... (https://x.io/a_(b)), or x@y.org."|urlize|length > 0 }}'
    )
    assert _render(source) == "B, a|aB|12|12|B2|odd:FalseB/even; even:Truea/odd|ab|True"
    assert _render(source, LAYOUT).startswith("B, a|aB|12|")
