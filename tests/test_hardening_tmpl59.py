"""Probe 53-7 and 53-8 (session 59, helper tmpl59): what a guard, a filter or an error's text
makes text of is weighed (or cut) before `str()` or `repr()` builds it. A list or tuple of a
few thousand references to one long text is cheap to make and gigabytes as text: `urlize`'s
target, `join`'s separator, `replace`'s arguments, the codec named to `encode`, the key of a
`KeyError`, `list.index`'s argument and the test or filter `select`/`map` are told to call
each built 3 GB before anything was refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from jinja2.exceptions import TemplateRuntimeError

from tests.conftest import REPO
from toolkit.render import template_bounds as bounds
from toolkit.render.context import View
from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, RENDER, Limits, TemplateLimitError

LONG = "x" * 999_999


class _Spied:
    """Made text: counted (a spy's `repr` or `str` is what the guards must not call)."""

    made: list[str] = []

    def __repr__(self) -> str:
        _Spied.made.append(type(self).__name__)
        return super().__repr__()

    __str__ = __repr__


class SpiedList(_Spied, list):  # type: ignore[misc]
    pass


class SpiedTuple(_Spied, tuple):  # type: ignore[misc]
    pass


@pytest.fixture(autouse=True)
def _spies() -> None:
    _Spied.made.clear()


def _heavy_list() -> SpiedList:
    return SpiedList([LONG] * 3)  # 3,000,000 characters as text: past MAX_STRING


def _heavy_tuple() -> SpiedTuple:
    return SpiedTuple((LONG,) * 3)


def _render(source: str, context: dict[str, object], limits: Limits = RENDER) -> str:
    sandbox = CachedSandbox(keep_trailing_newline=False, limits=limits)
    return sandbox.render(sandbox.template(source, "tmpl59"), context)


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ('{{ "http://a.com"|urlize(target=big)|length }}', "urlize's target prints more"),
        ('{{ "http://a.com"|urlize(rel=big)|length }}', "urlize's rel prints more"),
        ('{{ ["a", "b"]|join(d=big)|length }}', "join's separator prints more"),
        ('{{ ["a", "b"]|join(big)|length }}', "join's separator prints more"),
        ("{{ []|join(big)|length }}", "join's separator prints more"),  # made text all the same
        ('{{ "a"|replace("a", big)|length }}', "replace's second argument prints more"),
        ('{{ "a"|replace(big, "b")|length }}', "replace's first argument prints more"),
    ],
)
@pytest.mark.parametrize("limits", [RENDER, LAYOUT])
def test_a_filter_argument_made_text_is_weighed_before(source, said, limits) -> None:
    # probe 53-7: `str(target)`, `str(d)`, `str(new)` of a list holding one long text
    # 3,000 times built 2.9 GB each before (or without) a refusal
    with pytest.raises(TemplateLimitError, match=said):
        _render(source, {"big": _heavy_list()}, limits)
    assert _Spied.made == []


def test_a_codec_named_by_a_value_is_said_cut_not_made_text() -> None:
    # probe 53-7: the refusal's message was `str(encoding)[:40]`: 2.9 GB made, then cut
    with pytest.raises(TemplateLimitError, match="codec") as raised:
        _render('{{ "a".encode(big) }}', {"big": _heavy_list()})
    assert _Spied.made == []
    assert len(str(raised.value)) < 200


def test_ordinary_arguments_that_are_not_texts_still_work() -> None:
    source = (
        '{{ "ab"|replace("a", 5) }} {{ [1, 2]|join(0) }} {{ "12"|replace(1, 3) }}'
        ' {{ "http://a.com"|urlize(target=5) }} {{ [3, 4].index(4) }}'
        ' {{ [1, 2, 3]|select("odd")|list }} {{ [1]|map("string")|list }}'
        ' {{ ["a"]|join("y" * 600000)|length }}'  # one item: the separator is not printed
    )
    assert _render(source, {}) == (
        '5b 102 32 <a href="http://a.com" rel="noopener" target="5">http://a.com</a> 1'
        " [1, 3] ['1'] 1"
    )


def test_an_error_holding_a_heavy_value_is_said_without_making_its_text() -> None:
    # probe 53-8: `str(KeyError(k))` is `repr(k)`: 3 GB for a tuple of 3,000 references to
    # one 999,999-character text, made before `said` cut it
    key = _heavy_tuple()
    text = bounds.said(KeyError(key))
    assert _Spied.made == []
    assert text.startswith("('xxx") and len(text) <= bounds.MAX_SAID + 1
    assert bounds.said(ValueError("a", key)).startswith("('a', ('xxx")
    assert bounds.said(ValueError(SpiedList([1, 2]))) == "[1, 2]"
    assert _Spied.made == []


def test_said_keeps_ordinary_messages() -> None:
    assert bounds.said(KeyError("a")) == "'a'"
    assert bounds.said(ValueError("could not convert")) == "could not convert"
    assert bounds.said(ValueError(5)) == "5"
    assert bounds.said(ValueError()) == ""
    long = bounds.said(ValueError("y" * 5000))
    assert long == "y" * bounds.MAX_SAID + "… (5,000 characters)"


def test_a_key_error_of_a_template_is_said_cut() -> None:
    with pytest.raises(KeyError) as raised:
        _render("{{ {}.pop(k) }}", {"k": _heavy_tuple()})
    text = bounds.said(raised.value)
    assert _Spied.made == []
    assert len(text) <= bounds.MAX_SAID + 1


def test_a_call_whose_error_quotes_its_argument_is_refused_before() -> None:
    # probe 53-8: `[1, 2].index(k)` builds "%R is not in list" in C: 3 GB, then MemoryError
    with pytest.raises(TemplateLimitError, match="index\\(\\) of a value that prints"):
        _render("{{ [1, 2].index(k) }}", {"k": _heavy_tuple()})
    assert _Spied.made == []
    assert _render("{{ [1, 2].remove(2) }}{{ (1, k).index(k) }}", {"k": ("x" * 900,)}) == "None1"
    assert _render("{{ [1, s].index(s) }}", {"s": LONG}) == "1"  # a text: as long as any


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("{{ [1]|select(k)|list }}", "No test named ('xxx"),
        ("{{ [1]|reject(k)|list }}", "No test named ('xxx"),
        ('{{ [{"a": 1}]|selectattr("a", k)|list }}', "No test named ('xxx"),
        ('{{ [{"a": 1}]|rejectattr("a", k)|list }}', "No test named ('xxx"),
        ("{{ [1]|map(k)|list }}", "No filter named ('xxx"),
    ],
)
def test_a_test_or_filter_named_by_a_heavy_value_is_said_cut(source, said) -> None:
    # found on the way (same family as 53-8): Jinja's "No test named {name!r}." made the
    # repr of the tuple given as the name (600 MB for 300 references)
    with pytest.raises(TemplateRuntimeError) as raised:
        _render(source, {"k": _heavy_tuple()})
    assert _Spied.made == []
    assert str(raised.value).startswith(said) and len(str(raised.value)) < 120


def test_a_printed_table_names_its_keys_cut() -> None:
    # a rulebook's own copy of a content view may be given a key that prints gigabytes
    view = View({"a": 1})
    with pytest.raises(bounds.PrintedTable) as raised:
        _render("{% set _ = v.update({k: 1}) %}{{ v }}", {"v": view, "k": _heavy_tuple()})
    assert _Spied.made == []
    assert len(str(raised.value)) < 400


def test_bounded_repr_reads_no_more_than_it_shows() -> None:
    assert bounds.bounded_repr(["a", 1, (2,), {"k": [1, [2, [3]]]}, None, 1.5]) == (
        "['a', 1, (2,), {'k': [1, […]]}, None, 1.5]"
    )
    assert bounds.bounded_repr(10**400) == "<a 1,329-bit number>"
    assert bounds.bounded_repr({}.keys()) == "dict_keys([])"
    assert bounds.bounded_repr([1] * 20) == "[1, 1, 1, 1, 1, 1, 1, 1, …]"
    assert bounds.bounded_repr("ab" * 100, 10) == "'ababababa…"


# the diagnostics: R010 at the rulebook's line, exit 1


@pytest.fixture
def heroes(tmp_path: Path) -> Path:
    root = tmp_path / "dh"
    shutil.copytree(REPO / "content" / "drinking-heroes", root)
    return root


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            '{{ "http://a.com"|urlize(target=["x"*400000]*3)|length }}',
            "urlize's target prints more than 1,000,000 characters",
        ),
        ('{% set k = ("x"*400000,)*3 %}{{ [1, 2].index(k) }}', "index() of a value that prints"),
        ('{% set k = ("x"*999,)*3 %}{{ {}.pop(k) }}', "KeyError: ('xxx"),
    ],
)
def test_the_rulebook_diagnostic_is_positioned(heroes, run_cli, source, said) -> None:
    path = heroes / "rulebook" / "en.md"
    before = path.read_text(encoding="utf-8")
    path.write_text(before + "\n" + source + "\n", encoding="utf-8")
    result = run_cli("validate", str(heroes), "--format", "json", "--select", "R010")
    assert result.exit_code == 1, result.output
    found = [d for d in json.loads(result.stdout) if d["code"] == "R010"]
    assert [(Path(d["file"]).name, d["line"], d["col"]) for d in found] == [
        ("en.md", before.count("\n") + 2, 1)
    ]
    assert said in found[0]["message"] and "characters)" not in found[0]["message"]
