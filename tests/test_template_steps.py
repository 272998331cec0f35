"""What a template's step costs follows what it runs and reads: each body counts its nodes
every time it runs, and every text a call, filter or test is given, and what a render
prints, counts as read (toolkit.render.template_bounds: `body_weight`, `charge_read`)."""

from __future__ import annotations

import pytest

from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, TemplateLimitError, TemplateStepError

STEPS = "more than 10,000 steps on one card face"
READ = "more than 200,000 characters and items in all on one card face"


def _render(source: str) -> str:
    """`source` rendered as a card face is (its limits `LAYOUT`)."""
    sandbox = CachedSandbox(keep_trailing_newline=False, limits=LAYOUT)
    return sandbox.render(sandbox.template(source, "steps"), {})


def test_a_loop_body_counts_its_nodes_each_time_it_runs():
    # 3,000 `{{ e }}` printing nothing, 1,999 times: 0.74 s a face for 1,999 steps before
    body = "{{ e }}" * 3000
    with pytest.raises(TemplateStepError, match=STEPS):
        _render(f"{{% set e = '' %}}{{% for i in range(1999) %}}{body}{{% endfor %}}")


def test_a_macro_body_counts_its_nodes_at_each_call():
    body = "{{ '' }}" * 2000
    source = f"{{% macro m() %}}{body}{{% endmacro %}}{{% for i in range(500) %}}{{{{ m() }}}}"
    with pytest.raises(TemplateStepError, match=STEPS):
        _render(source + "{% endfor %}")


def test_a_branch_not_taken_costs_nothing():
    body = "{{ e }}" * 3000
    source = f"{{% for i in range(1999) %}}{{% if false %}}{body}{{% endif %}}{{% endfor %}}x"
    assert _render(source) == "x"


def test_a_small_template_costs_what_it_did():
    assert _render("{{ 'a' ~ 'b' }}{% if 1 %}c{% endif %}") == "abc"


@pytest.mark.parametrize(
    "read",
    [
        "{{ {}.get(s) }}",  # a method's argument (hashed: read whole)
        "{{ 'a'|replace(s, 'b') }}",  # a filter's argument after its value
        "{{ s is lower }}",  # a test's value
    ],
)
def test_every_text_a_call_filter_or_test_is_given_counts_as_read(read):
    source = f"{{% set s = 'a' * 20000 %}}{{% for i in range(150) %}}{read}{{% endfor %}}"
    with pytest.raises(TemplateLimitError, match=READ):
        _render(source)


def test_what_a_template_prints_counts_as_read():
    source = "{% set s = 'a' * 10000 %}{% for i in range(190) %}{{ s }}{% endfor %}"
    with pytest.raises(TemplateLimitError, match=READ):
        _render(source)
