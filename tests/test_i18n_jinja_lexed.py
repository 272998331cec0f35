"""The PO import compares a rulebook unit's Jinja code as Jinja's lexer reads it (probe66-4):
a closer inside a string literal or inside brackets does not end an expression, so a msgstr
cannot carry code of its own behind the msgid's `{{ "}}"` and have it pass the check."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# --- the finder against Jinja's own lexer and against a plain reference ------------------

PIECES = [
    "{{", "}}", "{%", "%}", "{#", "#}", "{", "}", "%", "'", '"', "\\", "(", ")", "[", "]",
    "x", " ", "\n", "-", " raw ", "endraw", "~",
]  # fmt: skip


def _lexer_spans(text: str) -> list[tuple[int, int]] | None:
    """The tags Jinja's lexer finds in `text` (from its tokens, laid back on the text), or
    None where it stops with an error, or ends inside a tag (the parser's error)."""
    from jinja2 import Environment, TemplateSyntaxError

    try:
        tokens = list(Environment(keep_trailing_newline=True).lexer.tokeniter(text, None))
    except TemplateSyntaxError:
        return None
    spans, cursor, start = [], 0, None
    for _, kind, value in tokens:
        while not text.startswith(value, cursor):  # whitespace a `-` took from the text
            assert text[cursor].isspace(), (text, value, cursor)
            cursor += 1
        end = cursor + len(value.rstrip())  # not the whitespace a `-}}` takes after it
        if kind.startswith("raw_"):
            spans.append((cursor, end))
        elif kind.endswith("_begin"):
            start = cursor
        elif kind.endswith("_end"):
            assert start is not None
            spans.append((start, end))
            start = None
        cursor += len(value)
    return None if start is not None else spans  # a tag left open: the parser stops there


def _reference_end(text: str, start: int) -> int | None:
    """Where the tag opened at `start` ends, read one character at a time."""
    closer = {"{": "}}", "%": "%}", "#": "#}"}[text[start + 1]]
    if closer == "#}":
        found = text.find("#}", start + 2)
        return None if found < 0 else found + 2
    owed: list[str] = []
    at = start + 2
    while at < len(text):
        char = text[at]
        if char in "'\"":
            at += 1
            while at < len(text) and text[at] != char:
                at += 2 if text[at] == "\\" else 1
            if at >= len(text):
                return None
        elif not owed and text.startswith(closer, at):
            return at + 2
        elif char in "([{":
            owed.append({"(": ")", "[": "]", "{": "}"}[char])
        elif char in ")]}" and (not owed or owed.pop() != char):
            return None
        at += 1
    return None


def _raw_tag(text: str, at: int, word: str) -> int | None:
    """The end of `{% word %}` (with Jinja's whitespace controls) written at `at`, or None."""
    if not text.startswith("{%", at):
        return None
    at += 2
    if text[at : at + 1] in ("-", "+"):
        at += 1
    while at < len(text) and text[at].isspace():
        at += 1
    if not text.startswith(word, at):
        return None
    at += len(word)
    while at < len(text) and text[at].isspace():
        at += 1
    if text[at : at + 1] in ("-", "+"):
        if word == "raw" and text[at] == "+":
            return None
        at += 1
    return at + 2 if text.startswith("%}", at) else None


def _reference(text: str) -> list[tuple[int, int]]:
    import re

    from toolkit.render.jinja_cache import TEMPLATE_CODE

    spans: list[tuple[int, int]] = []
    at = 0
    while at < len(text) - 1:
        if text[at] != "{" or text[at + 1] not in "{%#":
            at += 1
            continue
        raw = _raw_tag(text, at, "raw")
        end: int | None = None
        if raw is not None:
            close = next((i for i in range(raw, len(text)) if _raw_tag(text, i, "endraw")), None)
            if close is not None:
                end = _raw_tag(text, close, "endraw")
                assert end is not None
                spans += [(at, raw), (close, end)]
                at = end
                continue
        else:
            end = _reference_end(text, at)
        if end is None:
            return spans + [
                m.span() for m in re.compile(TEMPLATE_CODE, re.DOTALL).finditer(text, at)
            ]
        spans.append((at, end))
        at = end
    return spans


LEXED = [
    'a {{ "}}" }} b {% set s = "%}" %} c',
    "{{ {'a': {'b': 1}} }} {{ f([1, (2)]) }}",
    "{{ \"\\\"}}\" ~ '\\'}}' }}",
    "{#- {{ #} {%- raw -%} {{ x }} {% endraw %} {{ y -}}  z",
    "{% raw %}{% endraw %}{%+ raw %}{{{%- endraw +%}",
    "{{ x }}\n{{ 'a\n}}' }}",
]


@pytest.mark.parametrize("text", LEXED)
def test_the_tags_are_the_ones_jinja_s_lexer_finds(text):
    from toolkit.i18n.jinja_tags import jinja_tags

    assert _lexer_spans(text) is not None, text
    assert jinja_tags(text) == _lexer_spans(text) == _reference(text)


INSIDE = [
    " ", "x", "~", "1", '"}}"', "'%}'", '"#}"', "'\\''", '"\\\\"', '"{{"', "(", ")", "[", "]",
    "{", "}", "}}", "%}", ",", ":", "\n", "-", '"', "'",
]  # fmt: skip
TAG = st.builds(
    lambda opener, inside, closer: opener + "".join(inside) + closer,
    st.sampled_from(["{{", "{%", "{#", "{{-", "{%-"]),
    st.lists(st.sampled_from(INSIDE), max_size=6),
    st.sampled_from(["}}", "%}", "#}", "-}}", "-%}"]),
)
PROSE = st.sampled_from(["a", " ", "\n", "{% raw %}", "{% endraw %}", "}}", '"'])
TEXTS = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=14).map("".join),  # mostly broken
    st.lists(st.one_of(TAG, PROSE), max_size=6).map("".join),  # a third or so lexed
)


@settings(max_examples=800, deadline=None, derandomize=True)
@given(TEXTS)
def test_the_tags_match_the_lexer_and_the_reference(text):
    from toolkit.i18n.jinja_tags import jinja_tags

    found = jinja_tags(text)
    assert found == _reference(text)
    lexed = _lexer_spans(text)
    if lexed is not None:  # the text is one Jinja reads: its tags, exactly
        assert found == lexed


# --- linear work on hostile text, counted, not timed --------------------------------------

MB = 1_000_000


class _Counted:
    """A compiled pattern that adds to `work` the characters each call could have read:
    from where it starts to where its match ends, or to the end of the text; past the
    budget it stops the test (a quadratic finder fails at once, not after hours)."""

    def __init__(self, pattern, work: list[int], budget: int) -> None:
        self.pattern, self.work, self.budget = pattern, work, budget

    def _charge(self, found, text: str, pos: int):
        self.work[0] += 1
        self.work[1] += (found.end() if found is not None else len(text)) - pos
        assert self.work[0] <= self.budget and self.work[1] <= self.budget, self.work
        return found

    def search(self, text: str, pos: int = 0):
        return self._charge(self.pattern.search(text, pos), text, pos)

    def match(self, text: str, pos: int = 0):
        return self._charge(self.pattern.match(text, pos), text, pos)


@pytest.mark.parametrize(
    "text",
    [
        "{{ " * (MB // 3),  # many openers, none closed
        '{{ "' * (MB // 4),  # strings closing and opening across them
        "{{ '" + "\\'" * (MB // 2),  # an unfinished string of escaped quotes
        '{{ "' + "\\" * MB + '" }}',  # a long run of backslashes
        "'" * MB,  # quotes outside any tag
        "{{ " + "'" * MB,  # a run of quotes in a tag, the last one unfinished
        '{{ "}}" }}' * (MB // 10),  # many tags, each with a closer in a string
        "{% raw %}" * (MB // 9),  # raw blocks never ended
        "{% raw %}{% endraw %}" * (MB // 21),
        "{{ )" * (MB // 4),  # a bracket closing nothing, after every opener
        "{{ (" * (MB // 4) + "}}" * (MB // 4),
        "{#" * (MB // 2),
        "{%" + " " * MB + "raw",
    ],
    ids=lambda text: repr(text[:12]),
)
def test_hostile_text_is_read_in_linear_work(monkeypatch, text):
    from toolkit.i18n import jinja_tags as module

    work = [0, 0]  # calls, characters read
    budget = 6 * len(text)
    for name in ("_OPENER", "_COMMENT_END", "_RAW_END", "_STOP"):
        monkeypatch.setattr(module, name, _Counted(getattr(module, name), work, budget))
    strings = {q: _Counted(p, work, budget) for q, p in module._STRING.items()}
    monkeypatch.setattr(module, "_STRING", strings)
    cut = module.template_code

    def template_code(part: str) -> list[tuple[int, int]]:
        work[0] += 1
        work[1] += len(part)
        return cut(part)

    monkeypatch.setattr(module, "template_code", template_code)
    found = module.jinja_tags(text)
    assert work[0] <= budget and work[1] <= budget, work
    assert all(a < b <= c for (a, b), (c, _) in zip(found, found[1:], strict=False))
