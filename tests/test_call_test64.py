"""The sandbox calls the test of `select`, `reject`, `selectattr` and `rejectattr` at each item
without Jinja's `_filter_test_common` (its lookups and argument lists, ~1,500 items a render
of the Whisky Game's English rulebook), with what that gives: the same text, the same error,
the same budget counted."""

from __future__ import annotations

from typing import Any

import pytest
from jinja2 import Environment, pass_context

from toolkit.render import jinja_cache
from toolkit.render import template_bounds as bounds
from toolkit.render.jinja_cache import CachedSandbox

CONTEXT = {
    "cards": [
        {"id": "a", "kind": "x", "n": 1, "tags": ["r"]},
        {"id": "b", "kind": "y", "n": 2, "tags": []},
        {"id": "c", "kind": "x", "n": 3},
    ],
    "numbers": [0, 1, 2, 3, 4, 5],
    "words": ["Go", "stop", "", None],
}

TEMPLATES = [
    "{{ cards | selectattr('kind', 'equalto', 'x') | map(attribute='id') | join(',') }}",
    "{{ cards | rejectattr('kind', 'eq', 'x') | list | length }}",
    "{{ cards | selectattr('n', 'gt', 1) | map(attribute='id') | list }}",
    "{{ cards | selectattr('tags', 'defined') | list | length }}",
    "{{ cards | selectattr('tags') | list | length }}",
    "{{ numbers | select('odd') | list }} {{ numbers | reject('even') | list }}",
    "{{ numbers | select('in', [1, 4, 9]) | list }}",
    "{{ numbers | select('divisibleby', 2) | list }}",
    "{{ words | select('string') | list }} {{ words | select('none') | list }}",
    "{{ words | select('lower') | list }} {{ words | reject('upper') | list }}",
    "{{ words | select('sameas', None) | list }}",
    "{{ numbers | select('ctx') | list }}",
    "{{ numbers | select('nothing') | list }}",
    "{{ numbers | select(undefined_name) | list }}",
    "{{ numbers | select(['a']) | list }}",
    "{{ numbers | select('equalto') | list }}",
    "{{ numbers | select('equalto', 1, 2) | list }}",
    "{{ cards | selectattr('id', 'in', 'abc') | list | length }}",
]


def _rendered(source: str, own: bool) -> tuple[str, Any]:
    """The text (or error) of `source`, and the budget's counts after, with the sandbox's
    `call_test` (`own`) or Jinja's."""
    sandbox = CachedSandbox(keep_trailing_newline=True)

    @pass_context
    def ctx(context: Any, value: Any) -> bool:  # a plugin's test that takes the context
        return bool(value) and "cards" in context

    sandbox.env.tests["ctx"] = ctx
    if not own:
        sandbox.env.call_test = Environment.call_test.__get__(sandbox.env)
    counts = []
    real_leave = bounds.leave

    def leave(outer: Any) -> None:
        budget = bounds.current()
        if outer is None and budget is not None:
            counts.append((budget.ticks, budget.created, budget.iterations))
        real_leave(outer)

    try:
        bounds.leave = leave
        text = sandbox.render(sandbox.template(source, "t"), dict(CONTEXT))
    except Exception as exc:  # noqa: BLE001 - an error is an answer too
        text = f"error {type(exc).__name__}: {exc}"
    finally:
        bounds.leave = real_leave
    return text, counts


@pytest.mark.parametrize("source", TEMPLATES)
def test_a_test_called_at_each_item_gives_what_jinjas_call_gives(source):
    assert _rendered(source, own=True) == _rendered(source, own=False)


def test_a_guarded_test_is_called_without_jinjas_common_path(monkeypatch):
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("_filter_test_common was asked")

    sandbox = CachedSandbox(keep_trailing_newline=True)
    monkeypatch.setattr(sandbox.env, "_filter_test_common", refused)
    template = sandbox.template(TEMPLATES[0], "t")
    assert sandbox.render(template, dict(CONTEXT)) == "a,c"
    assert jinja_cache._Bounded.call_test is not Environment.call_test
