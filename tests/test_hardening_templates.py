"""Hardening: rulebook and layout templates are bounded (loop iterations, sizes, output,
time) with positioned diagnostics, read their own copy of the content, and huge or
non-UTF-8 rulebook files are refused without being read whole."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from jinja2.exceptions import SecurityError

from tests.conftest import REPO
from toolkit.render import jinja_cache


@pytest.fixture
def heroes(tmp_path: Path) -> Path:
    root = tmp_path / "dh"
    shutil.copytree(REPO / "content" / "drinking-heroes", root)
    return root


def _append(root: Path, text: str) -> int:
    """Add `text` at the end of the English rulebook; the line it starts on."""
    path = root / "rulebook" / "en.md"
    before = path.read_text(encoding="utf-8")
    path.write_text(before + "\n" + text + "\n", encoding="utf-8")
    return before.count("\n") + 2


def _r010(run_cli, root: Path) -> list[dict]:
    result = run_cli("validate", str(root), "--format", "json", "--select", "R010")
    assert result.exit_code == 1, result.output
    return [d for d in json.loads(result.stdout) if d["code"] == "R010"]


HOSTILE = [
    (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "iterations",
    ),
    ("{{ ([1] * 10**9)|length }}", "would build more than"),
    ("{{ 'a' * 10**8 }}", "would build more than"),
    ("{{ lipsum(100000) }}", "lipsum"),
    ("{{ 2 ** 100000000 }}", "too large"),
    ("{{ 'a'|center(10**9) }}", "width"),
    ("{{ '%999999999s' % 'a' }}", "width"),
    ("{{ '{:999999999}'.format('a') }}", "width"),
    ("{% for i in range(90000) %}{{ '0123456789' * 10 }}{% endfor %}", "output passes"),
]


@pytest.mark.parametrize(("source", "why"), HOSTILE)
def test_hostile_rulebook_templates_are_positioned_r010(heroes, run_cli, source, why):
    line = _append(heroes, source)
    found = _r010(run_cli, heroes)
    assert len(found) == 1 and found[0]["file"].endswith("rulebook/en.md")
    assert found[0]["line"] == line
    assert why in found[0]["message"]


def test_a_slow_rulebook_template_hits_the_time_limit(heroes, run_cli, monkeypatch):
    monkeypatch.setattr(jinja_cache, "MAX_SECONDS", 0.3)
    source = "{% for c in 'a' * 900000 %}{% for d in 'a' * 900000 %}{% endfor %}{% endfor %}"
    line = _append(heroes, source)
    found = _r010(run_cli, heroes)
    assert found[0]["line"] == line and "longer than 0.3 s" in found[0]["message"]


def test_build_reports_a_hostile_rulebook_and_keeps_the_language_unbuilt(heroes, run_cli, tmp_path):
    _append(heroes, "{{ 'a' * 10**8 }}")
    out = tmp_path / "out"
    result = run_cli("build", str(heroes), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1
    assert "rulebook/en.md:" in result.stderr and "would build more than" in result.stderr
    assert not list(out.rglob("*.pdf"))  # cards.pdf is not written without its rulebook


def test_limits_hold_outside_a_rulebook_too():
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False)
    with pytest.raises(jinja_cache.TemplateLimitError):
        sandbox.render(sandbox.template("{{ 'ab' * 10**7 }}", "t"), {})
    template = sandbox.template("{% for i in range(3) %}{{ i }}{% endfor %}", "t")
    assert sandbox.render(template, {}) == "012"  # ordinary templates are untouched


def test_a_rulebook_cannot_change_the_glossary_layouts_read(heroes):
    from toolkit.content.game import load_game
    from toolkit.render.context import glossary_terms
    from toolkit.render.rulebook_source import render_markdown

    game = load_game(heroes)
    before = dict(glossary_terms(game, "en"))
    assert before
    term = next(iter(before))
    render_markdown(game, "en", f"{{{{ glossary.update({{'{term}': 'x'}}) }}}}")
    render_markdown(game, "en", "{{ decks.clear() }}{{ rules.clear() }}")
    assert glossary_terms(game, "en") == before
    assert render_markdown(game, "en", f"{{{{ glossary['{term}'] }}}}") == before[term]


def test_a_layout_cannot_change_what_other_cards_read():
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False, immutable=True)
    shared = {"a": "1"}
    with pytest.raises(SecurityError):
        sandbox.render(
            sandbox.template("{{ glossary.update({'a': '2'}) }}", "layout"), {"glossary": shared}
        )
    assert shared == {"a": "1"}


def test_a_huge_sparse_rulebook_is_refused_without_reading_it(heroes, run_cli):
    path = heroes / "rulebook" / "en.md"
    with open(path, "r+b") as handle:
        handle.truncate(1 << 30)  # 1 GB, sparse
    found = _r010(run_cli, heroes)
    assert found[0]["file"].endswith("rulebook/en.md") and "larger than" in found[0]["message"]


def test_a_non_utf8_rulebook_is_a_clear_message_in_validate_and_build(heroes, run_cli, tmp_path):
    path = heroes / "rulebook" / "en.md"
    path.write_bytes(path.read_bytes() + b"\nbad \xff byte\n")
    found = _r010(run_cli, heroes)
    assert "0xff is not valid UTF-8" in found[0]["message"] and found[0]["col"] == 5
    result = run_cli("build", str(heroes), "--lang", "en", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1 and "not valid UTF-8" in result.stderr
    assert "Traceback" not in result.output
    assert os.path.exists(path)
