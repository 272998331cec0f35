"""A layout's pieces (its `let`, `when` and texts) are parsed once, then read back from the
template cache on the next runs (toolkit.render.jinja_trees): the same trees, the same
resolved cards; an entry that is not what the toolkit writes is parsed afresh."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys

from jinja2 import nodes

from toolkit.render import jinja_cache, jinja_trees
from toolkit.render import layout as layouts

_RUN = """
from toolkit.render import jinja_cache, jinja_trees
from toolkit.render import layout as layouts
from toolkit.render.context import View

parsed = []
own = jinja_cache.CachedSandbox.parse
jinja_cache.CachedSandbox.parse = lambda self, source: parsed.append(source) or own(self, source)
text = {"kind": "text", "box": {"x": 1, "y": 1, "w": -1, "h": 9}, "size": {"max": 9, "min": 6}}
layout = layouts.layout_model().model_validate({
    "id": "probe",
    "let": {"big": "card.cost is defined and card.cost > 2"},
    "elements": [
        {**text, "text": "{{ card.name }} · {{ deck.name }}"},
        {**text, "text": "{% for i in range(2) %}{{ i }}{% endfor %}{{ card.cost|string }}",
         "when": "big"},
        {**text, "text": "{{ 'none' if card.cost is none else card.cost }}",
         "when": "not big"},
    ],
})
for cost in (1, 3):
    card = View(name="Carte", cost=cost).named("card 'c'")
    context = {"card": card, "deck": View(name="Deck").named("deck 'd'"), "lang": "fr"}
    print(repr(layouts.resolve(layout, context, 60, 80)))
print(len(parsed))
"""


def _run(cache: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "PLAYSET_NO_CACHE"}
    env["PLAYSET_CACHE"] = cache
    done = subprocess.run([sys.executable, "-c", _RUN], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_layouts_pieces_are_parsed_in_the_first_run_only(tmp_path) -> None:
    first = _run(str(tmp_path / "cache"))
    second = _run(str(tmp_path / "cache"))
    assert int(first[-1]) == 6  # let, two whens, three texts
    assert int(second[-1]) == 0
    assert first[:-1] == second[:-1]
    assert "Carte · Deck" in first[0] and "013" in first[1]


def _same_nodes(one: nodes.Node, other: nodes.Node) -> None:
    assert one == other
    pairs = zip(one.find_all(nodes.Node), other.find_all(nodes.Node), strict=True)
    for a, b in [(one, other), *pairs]:
        assert type(a) is type(b)
        assert a.lineno == b.lineno
        assert a.environment is b.environment


def test_trees_read_back_are_the_trees_parsed() -> None:
    sandbox = layouts._cached()
    env = sandbox.env
    sources = [
        "{{ card.name }}",
        "{% for x in range(3) %}\n{{ x | upper }}{% else %}none{% endfor %}",
        "{{ (1, 2.5, true, none, 'a', [1], {'k': -3}) }}",
        "{% macro m(a=1) %}{{ a ~ caller() }}{% endmacro %}\n{% call m(2) %}x{% endcall %}",
        "{% set n = 4 %}{% if n is odd and not card.x is defined %}{{ n // 2 }}{% endif %}",
        "{{ card['a'][1:2] if card.b else rules.c(1, *d, k=2, **e) }}",
    ]
    for source in sources:
        parsed = sandbox.parse(source)
        again = jinja_trees.tree(jinja_trees.data(parsed, env), env)
        _same_nodes(parsed, again)
        assert env._generate(again, None, None) == env._generate(parsed, None, None)
    loops = sandbox.parse(sources[1])  # the loop's guard: made after the parse, no environment
    assert any(n.environment is None for n in loops.find_all(nodes.EnvironmentAttribute))


def test_an_entry_the_toolkit_did_not_write_is_parsed_afresh(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False, immutable=True)
    store = sandbox.env.bytecode_cache.store
    sources = ["{{ card.name }}", "{{ 1 + 2 }}"]
    sandbox.parse_all(sources)  # kept
    (name,) = [p.name for p in store.folder.glob("trees-*")]
    for wrong in (
        [("Name", ("card", "load"), 1, True)],  # one tree for two sources
        [("Template", ([],), 1, True), ("Expr", (), 1, True)],  # an abstract node
        [("operator", (), 1, True), None],  # no node class
        [("Template", ([],), "1", True), None],
        {"not": "a list"},
    ):
        store.write(name, marshal.dumps(wrong, 4))
        trees = sandbox.parse_all(sources)
        assert trees == [sandbox.parse(source) for source in sources]
