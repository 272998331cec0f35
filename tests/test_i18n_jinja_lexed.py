"""The PO import compares a rulebook unit's Jinja code as Jinja's lexer reads it (probe66-4):
a closer inside a string literal or inside brackets does not end an expression, so a msgstr
cannot carry code of its own behind the msgid's `{{ "}}"` and have it pass the check."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.content.game import load_game
from toolkit.i18n.placeholders import jinja_problem
from toolkit.i18n.po import export_po
from toolkit.scaffold.new import new_game

SENTENCE = 'Braces look like {{ "}}" }} here.'
FAITHFUL = 'Accolades {{ "}}" }} ici.'
SMUGGLED = 'Accolades {{ "}}" ~ (range(5)|list|string) ~ "" }} ici.'


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A new game whose English rulebook holds a closer inside a string literal."""
    root = tmp_path / "demo"
    new_game(root, "demo", ["en", "fr"])
    book = root / "rulebook" / "en.md"
    text = book.read_text(encoding="utf-8")
    assert text.endswith("then\ndraw.\n")
    book.write_text(text.replace("\ndraw.\n", f"\ndraw. {SENTENCE}\n"), encoding="utf-8")
    return root


def _po(game: Path, tmp_path: Path, sentence: str) -> tuple[Path, str]:
    """The French PO file as exported, the unit that holds the sentence translated with
    `sentence` in its place."""
    po = export_po(load_game(game), "fr")
    turn = next(e for e in po if SENTENCE in e.msgid)
    assert all(e.msgstr for e in po if e.msgctxt.startswith("rulebook/") and e is not turn)
    turn.msgstr = turn.msgid.replace(SENTENCE, sentence)
    path = tmp_path / "fr.po"
    path.write_text(str(po) + "\n", encoding="utf-8")
    return path, turn.msgctxt


def test_a_translation_keeping_a_closer_inside_a_string_imports(game, run_cli, tmp_path):
    path, _ = _po(game, tmp_path, FAITHFUL)
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 0, result.stderr
    assert FAITHFUL in (game / "rulebook" / "fr.md").read_text(encoding="utf-8")


def test_code_carried_behind_a_closer_inside_a_string_is_refused(game, run_cli, tmp_path):
    path, key = _po(game, tmp_path, SMUGGLED)
    book = game / "rulebook" / "fr.md"
    before = book.read_bytes()
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 1
    said = result.stderr.replace("\n", " ")
    assert f"refused {key}" in said
    assert "range(5)" in said and "Jinja code must stay as written" in said
    assert book.read_bytes() == before
    assert "range(5)" not in book.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("source", "smuggled"),
    [
        ('A {{ "}}" }} b', 'A {{ "}}" ~ x ~ "" }} b'),
        ("A {{ '}}' }} b", "A {{ '}}' ~ x ~ '' }} b"),
        ('A {{ "\\"}}" }} b', 'A {{ "\\"}}" ~ x ~ "" }} b'),  # an escaped quote stays inside
        ('A {% set s = "%}" %} b', 'A {% set s = "%}" ~ x ~ "" %} b'),
        ('A {{ {"a": {"b": 1}} }} b', 'A {{ {"a": {"b": 1}} ~ x }} b'),  # closer in braces
        ("A {{ f({}) }} b", "A {{ f({}) }} b {{ x }}"),
        ('A {{ "a\n}}" }} b', 'A {{ "a\n}}" ~ x ~ "" }} b'),  # a string spans lines
    ],
)
def test_the_entry_check_reads_strings_and_brackets_as_jinja_does(source, smuggled):
    assert jinja_problem(source, source) is None
    problem = jinja_problem(source, smuggled)
    assert problem is not None and "x" in problem


@pytest.mark.parametrize(
    ("source", "translation"),
    [
        ('A {{ "}}" }} b', 'Un {{ "}}" }} bé'),
        ("{# }} #} A {{ x }}", "Un {{ x }} {# }} #}"),  # a comment ends at its first #}
        ("A {{ x }} b {{ y", "Un {{ x }} bé {{ y"),  # an unclosed opener: prose, as before
        ('A {{ "x', 'Un {{ "x'),  # an unfinished string: not code either
    ],
)
def test_a_faithful_translation_passes(source, translation):
    assert jinja_problem(source, translation) is None


def test_raw_text_is_prose_but_its_tags_are_code():
    source = "A {% raw %}{{ x }}{% endraw %} b"
    assert jinja_problem(source, "Un {% raw %}{{ y }} ici{% endraw %} bé") is None
    moved = jinja_problem(source, "Un {% raw %}{% endraw %}{{ x }} bé")
    assert moved is not None and "adds {{ x }}" in moved
