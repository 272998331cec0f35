"""A layout whose templates are plain field reads and tests is resolved without a Jinja render
(toolkit.render.plain_layout), with exactly what the render gives: the same elements, texts
and errors, card by card; anything else on a card is rendered by Jinja as before."""

from __future__ import annotations

from typing import Any

import pytest

from toolkit.render import jinja_cache, plain_layout
from toolkit.render import layout as layouts
from toolkit.render.context import View


def _layout(elements: list[dict[str, Any]], let: dict[str, str] | None = None) -> Any:
    return layouts.layout_model().model_validate(
        {"id": "probe", "let": let or {}, "elements": elements, "labels": {"hp": {"fr": "PV"}}}
    )


def _text(source: str, when: str | None = None) -> dict[str, Any]:
    element = {"kind": "text", "box": {"x": 1, "y": 1, "w": -1, "h": 9}, "text": source}
    element["size"] = {"max": 9, "min": 6}
    if when is not None:
        element["when"] = when
    return element


def _context(**card: Any) -> dict[str, Any]:
    return {
        "card": View(card).named("card 'c'"),
        "deck": View(id="d", name="Deck").named("deck 'd'"),
        "game": View(id="g", title="Jeu").named("the game"),
        "rules": View(turns=3, by={"b": "B", 1: "one"}, row=["r0", 2], deep=[(1, 2)]),
        "glossary": {"meal": "Repas"},
        "lang": "fr",
    }


def _outcome(layout: Any, context: dict[str, Any]) -> Any:
    try:
        found = layouts.resolve(layout, context, 63.0, 88.0)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return ("error", type(exc).__name__, str(exc), getattr(exc, "where", None))
    return [(layout.elements.index(r.element), r.x, r.y, r.w, r.h, r.values) for r in found]


def _both(layout: Any, context: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    """What the layout gives on this card through the plain path, checked against what the
    Jinja render alone gives."""
    plain = _outcome(layout, context)
    with monkeypatch.context() as m:

        def never(*args: Any) -> Any:
            raise plain_layout.NotPlain

        m.setattr(plain_layout, "evaluate", never)
        rendered = _outcome(layout, context)
    assert plain == rendered
    return plain


def _renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counted = [0]
    module = jinja_cache.CachedSandbox.module

    def counting(self: Any, *args: Any) -> Any:
        counted[0] += 1
        return module(self, *args)

    monkeypatch.setattr(jinja_cache.CachedSandbox, "module", counting)
    return counted


def test_the_standard_layout_resolves_a_plain_card_without_a_render(monkeypatch):
    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    renders = _renders(monkeypatch)
    found = layouts.resolve(standard, _context(id="c", name="Carte", text="Avancez."), 63.0, 88.0)
    assert [r.values for r in found if r.values] == [("Carte",), ("Avancez.",), ("Jeu · Deck",)]
    assert renders[0] == 0


def test_a_layout_comparing_a_field_resolves_without_a_render(monkeypatch):
    """`when: card.kind == 'fire'`, `{{ 'x' if … else 'y' }}` and `rules.by[card.level]`
    (most of the bundled games' layouts) are worked out by the plain path."""
    layout = _layout(
        [
            _text("{{ rules.by[card.level] }}", "card.kind == 'fire'"),
            _text("{{ 'hot' if card.heat > 2 else 'cold' }}"),
        ]
    )
    renders = _renders(monkeypatch)
    found = layouts.resolve(layout, _context(kind="fire", level="b", heat=3), 63.0, 88.0)
    assert [r.values for r in found] == [("B",), ("hot",)]
    assert renders[0] == 0


def test_a_layout_that_gives_up_on_every_card_is_not_tried(monkeypatch):
    """A filter or a call in a `let`, a `when` or the text of an element that always shows
    gives up on every card: the plain path is not tried (each try read and tested the card
    before the render), and Jinja's answer is the same."""
    tried = [0]
    evaluate = plain_layout.evaluate

    def counting(*args: Any) -> Any:
        tried[0] += 1
        return evaluate(*args)

    monkeypatch.setattr(plain_layout, "evaluate", counting)
    for elements, let in (
        ([_text("{{ card.name }}", "card.kind == 'x'"), _text("{{ card.name | upper }}")], None),
        ([_text("{{ card.name }}", "card.tags.get('x')")], None),
        ([_text("{{ card.name }}", "shout")], {"shout": "card.name | upper"}),
    ):
        _both(_layout(elements, let), _context(kind="x", name="n", tags={"x": 1}), monkeypatch)
    assert tried[0] == 0
    # behind `and`, `or` or a `when`, a filter is met on some cards only: tried
    _both(_layout([_text("{{ card.name | upper }}", "card.kind")]), _context(kind=""), monkeypatch)
    _both(_layout([_text("a", "card.kind or card.name | upper")]), _context(kind="k"), monkeypatch)
    assert tried[0] == 2


def test_a_filter_on_the_card_is_rendered_by_jinja(monkeypatch):
    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    renders = _renders(monkeypatch)
    found = _both(standard, _context(id="c", name="Carte", text="T", value=-3), monkeypatch)
    assert ("−3",) in [values for *_, values in found]
    assert renders[0] == 2  # the plain path gave up on `| string`: Jinja, in both runs


LETS = {"numbered": "card.value is defined and card.value is not none", "art": "card.image"}

VIEWS = {"d": {"k": [1, "a"]}, "e": {"k": [1, "a"]}, "v": View(k=[1, "a"])}

CASES: list[tuple[list[dict[str, Any]], dict[str, str] | None, dict[str, Any]]] = [
    # `and`/`or` give one of their operands, printed as Jinja prints it
    ([_text("{{ card.a or card.b }}|{{ card.a and card.b }}")], None, {"a": "", "b": 0}),
    ([_text("{{ card.a or card.b }}")], None, {"a": 2.5, "b": "x"}),
    ([_text("{{ card.n }} {{ card.f }} {{ card.t }} {{ card.z }}")], None, {"n": 7, "f": 1.0}),
    (
        [_text("{{ card.n }} {{ card.f }} {{ card.t }} {{ card.z }}")],
        None,
        {"n": 7, "f": 1.0, "t": True, "z": None},
    ),
    # lets, whens, missing fields under `is defined` / `is undefined`
    ([_text("{{ card.name }}", "numbered"), _text("x", "not numbered")], LETS, {"name": "N"}),
    ([_text("{{ card.name }}", "numbered")], LETS, {"name": "N", "value": None}),
    ([_text("{{ card.name }}", "card.image is undefined")], None, {"name": "N"}),
    ([_text("{{ card.name }}", "card.name is none")], None, {"name": None}),
    # what Jinja refuses is Jinja's error, at its place
    ([_text("{{ card.nope }}")], None, {"name": "N"}),
    ([_text("a", "card.nope")], None, {}),
    ([_text("a", "not card.nope")], None, {}),
    ([_text("{{ card.name }}", "art")], {"art": "card.image"}, {"name": "N"}),
    ([_text("a", "card.nope is not none")], None, {}),
    ([_text("a", "card.nope.deeper is defined")], None, {}),
    # other names and values: Jinja's answer
    ([_text("{{ glossary.meal }} {{ label.hp }} {{ rules.turns }} {{ lang }}")], None, {}),
    ([_text("{{ card.items }}")], None, {"name": "N"}),
    ([_text("{{ card.pair }}")], None, {"pair": (1, 2)}),
    ([_text("{{ card.list }}")], None, {"list": [1, 2]}),
    ([_text("{{ card.list }}", "card.list")], None, {"list": []}),
    ([_text("{{ range }}")], None, {}),
    ([_text("{{ card.name | upper }}")], None, {"name": "n"}),
    ([_text("{{ card.big }}")], None, {"big": 10**5000}),  # str() refuses: Jinja's error
    ([_text("{{ 'x' }} {{ card.name }}")], None, {"name": "n"}),
    # constants, comparisons, `a if b else c`, items: Python's answer where it is Jinja's
    ([_text("{{ 'on' if card.kind == 'fire' else 'off' }}")], None, {"kind": "fire"}),
    ([_text("{{ 'on' if card.kind != 'fire' else 'off' }}")], None, {"kind": "water"}),
    ([_text("{{ 'on' if card.kind == 'fire' else 'off' }}")], None, {}),  # undefined
    ([_text("{{ card.a if card.b }}")], None, {"a": "x", "b": False}),  # no else
    ([_text("x", "card.n > 1"), _text("y", "card.n <= 1.5")], None, {"n": 2}),
    ([_text("x", "card.n >= card.m"), _text("y", "card.n < card.m")], None, {"n": 1, "m": True}),
    ([_text("x", "card.n > 1")], None, {"n": "a"}),  # Python refuses: Jinja's error
    ([_text("x", "card.n == [1]")], None, {"n": [1]}),  # a list literal
    ([_text("x", "1 < card.n < 3")], None, {"n": 2}),  # chained
    ([_text("x", "card.n in 'abc'"), _text("y", "card.n not in 'abc'")], None, {"n": "a"}),
    ([_text("x", "'a' in card.l"), _text("y", "'b' not in card.l")], None, {"l": ["a"]}),
    ([_text("x", "card.d == card.e"), _text("y", "card.v != card.d")], None, VIEWS),
    ([_text("x", "1 in card.n")], None, {"n": 2}),  # Python refuses: Jinja's error
    ([_text("x", "card.l == 1")], None, {"l": [0] * 100_001}),  # too many to compare
    ([_text("{{ 1.5 }} {{ none }} {{ true }} {{ 7 }} {{ 'é' }}")], None, {}),
    ([_text("{{ rules.by[card.level] }}")], None, {"level": "b"}),
    ([_text("{{ rules.by[card.level] }}")], None, {"level": "z"}),  # not there
    ([_text("{{ rules.by[card.level] }}")], None, {"level": 1}),
    ([_text("{{ rules.row[card.i] }}|{{ rules.row[-1] }}")], None, {"i": 0}),
    ([_text("{{ rules.row[card.i] }}")], None, {"i": 5}),  # out of range
    ([_text("{{ rules.row[card.i] }}")], None, {"i": True}),
    ([_text("{{ rules.row[0:1] }}")], None, {}),  # a slice
    ([_text("{{ glossary['meal'] }} {{ rules['turns'] }} {{ glossary._what }}")], None, {}),
    ([_text("{{ rules.deep[0] }}")], None, {}),  # a tuple: Jinja guards it
    # statements, whitespace control, line breaks, literal text
    ([_text("{% if card.name %}yes{% endif %}")], None, {"name": "n"}),
    ([_text("  {{ card.name }}\n")], None, {"name": "n"}),
    ([_text("A\n{{- card.name -}}\n B {# note #}")], None, {"name": "n"}),
    ([_text("{% raw %}{{ card.name }}{% endraw %}")], None, {"name": "n"}),
    ([_text("{{ card.name }", None)], None, {"name": "n"}),  # does not parse
    (
        [{"kind": "box", "box": {"x": 1, "y": 1, "w": 5, "h": 5}, "when": "card.name"}],
        None,
        {"name": ""},
    ),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_plain_path_gives_what_the_render_gives(case, monkeypatch):
    elements, let, card = CASES[case]
    layout = _layout(elements, let)
    _both(layout, _context(**card), monkeypatch)


def test_a_plain_layout_charges_the_render_budget_as_jinja_does(monkeypatch):
    layout = _layout([_text("{{ card.name }} and more")])
    outer = template_budget = None
    from toolkit.render import template_bounds

    with layouts._cached().bounded():
        template_budget = template_bounds.current()
        assert template_budget is not None
        layouts.resolve(layout, _context(name="N"), 63.0, 88.0)
        outer = template_budget.created
    with monkeypatch.context() as m:
        m.setattr(plain_layout, "evaluate", lambda *a: (_ for _ in ()).throw(plain_layout.NotPlain))
        with layouts._cached().bounded():
            budget = template_bounds.current()
            assert budget is not None
            layouts.resolve(layout, _context(name="N"), 63.0, 88.0)
            assert budget.created == outer == len("N and more")


def test_a_layout_the_plain_path_cannot_read_is_rendered_by_jinja(monkeypatch):
    """However a piece's tree defeats the plain path (here: too deep for it), the layout is
    still resolved, by Jinja, with no error of the plain path's own."""

    def too_deep(node: Any) -> Any:
        raise RecursionError

    monkeypatch.setattr(plain_layout, "_expr", too_deep)
    layout = _layout([_text("{{ card.name }}", "card.name is defined")])
    renders = _renders(monkeypatch)
    found = layouts.resolve(layout, _context(name="N"), 63.0, 88.0)
    assert [r.values for r in found] == [("N",)] and renders[0] == 1


def _peak_resolving(layout: Any, context: dict[str, Any]) -> tuple[int, Any]:
    """The memory resolving the layout takes at most (beyond what it held before), and what
    it gives; compiled first on a small card (compiling takes 8 MB once)."""
    import tracemalloc

    _outcome(layout, _context(s="a"))
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        found = _outcome(layout, context)
        return tracemalloc.get_traced_memory()[1] - before, found
    finally:
        tracemalloc.stop()


def test_a_text_past_the_output_limit_is_refused_before_it_is_joined():
    """Five references to one 1 MB field make 5,000,000 characters: refused (by Jinja, in its
    words) without the plain path building them first (3,000 references took 3 GB)."""
    layout = _layout([_text("{{ t }}" * 5)], {"t": "card.s"})
    peak, found = _peak_resolving(layout, _context(s="a" * 1_000_000))
    assert found[0] == "error" and "passes 4,000,000 characters" in found[2]
    assert peak < 2_000_000


def test_the_texts_of_a_layout_are_charged_element_by_element(monkeypatch):
    """The running total of the texts is checked after each one, as the render's budget is:
    the texts past the limit are never built."""
    from toolkit.render import template_bounds

    monkeypatch.setattr(template_bounds.LAYOUT, "created", 5_000_000)
    layout = _layout([_text("{{ t }}{{ t }}")] * 4, {"t": "card.s"})
    peak, found = _peak_resolving(layout, _context(s="a" * 1_000_000))
    assert found[0] == "error" and "more than 5,000,000 characters" in found[2]
    assert peak < 4_500_000  # the two texts within the limit (all four: 8 MB)
    # under the limit, the plain path charges what the render does
    monkeypatch.setattr(template_bounds.LAYOUT, "created", 8_000_000)
    with layouts._cached().bounded():
        budget = template_bounds.current()
        assert budget is not None
        found = layouts.resolve(layout, _context(s="a" * 1_000_000), 63.0, 88.0)
        assert len(found) == 4 and budget.created == 8_000_000
