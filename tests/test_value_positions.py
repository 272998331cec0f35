"""A character inside a text is found where it is written in the file (T010 points at the
'!' itself), in every scalar style YAML has, over several lines too; a double-quoted text
with escapes falls back to the text's start."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.content.source import parse_document
from toolkit.diagnostics import Span


def doc_of(source: str):
    doc, diags = parse_document(Path("t.yaml"), "t.yaml", source.encode())
    assert doc is not None, diags
    return doc


def char_at(source: str, span: Span) -> str:
    return source.split("\n")[span.line - 1][span.col - 1]


CASES = {
    "plain": "text:\n  fr: Avancez de 2 cases !\n",
    "plain over lines": "text:\n  fr: Avancez de 2\n    cases ! Puis\n    ? non; oui\n",
    "single quoted": "text:\n  fr: 'L''eau monte : fuyez !'\n",
    "double quoted": 'text:\n  fr: "Avancez : vite !"\n',
    "literal block": "text:\n  fr: |\n    Avancez !\n    Encore ; puis : stop ?\n",
    "folded block": "text:\n  fr: >-\n    Marquez 3\n    points !\n\n    Puis ; rien\n",
    "folded keep": "text:\n  fr: >+\n      Marquez 3\n      points ! ?\n",
}


@pytest.mark.parametrize("source", CASES.values(), ids=CASES.keys())
def test_every_mark_is_found_where_it_is_written(source):
    doc = doc_of(source)
    value = doc.get(("text", "fr"))
    marks = [i for i, ch in enumerate(value) if ch in "!?;:'"]
    assert marks, value
    seen = set()
    for offset in marks:
        span = doc.position_in(("text", "fr"), offset)
        assert char_at(source, span) == value[offset] or (value[offset] == "'"), (offset, span)
        seen.add((span.line, span.col))
    quotes = sum(1 for i in marks if value[i] == "'")
    assert len(seen) == len(marks) - max(quotes - 1, 0)  # distinct marks, distinct places


def test_exact_places():
    doc = doc_of(CASES["plain over lines"])
    value = doc.get(("text", "fr"))
    assert doc.position_in(("text", "fr"), value.index("!")) == Span(3, 11)
    assert doc.position_in(("text", "fr"), value.index(";")) == Span(4, 10)
    doc = doc_of(CASES["folded block"])
    value = doc.get(("text", "fr"))
    assert doc.position_in(("text", "fr"), value.index("!")) == Span(4, 12)


def test_double_quoted_with_escapes_falls_back_to_the_start():
    doc = doc_of('text:\n  fr: "Pio\\u00e9chez !"\n')
    value = doc.get(("text", "fr"))
    assert doc.position_in(("text", "fr"), value.index("!")) == doc.span(("text", "fr"))


def test_an_offset_outside_the_value_is_the_start():
    doc = doc_of(CASES["plain"])
    assert doc.position_in(("text", "fr"), 999) == doc.span(("text", "fr"))


WORDS = st.lists(
    st.sampled_from(["mot", "deux", "!", "?", ";", ":", "«", "»", "a", "cartes"]),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(words=WORDS, style=st.sampled_from(["plain", "'", '"', "|", ">"]), width=st.integers(1, 4))
def test_property_marks_map_back_to_themselves(words, style, width):
    lines = [" ".join(words[i : i + width]) for i in range(0, len(words), width)]
    if style == "plain":
        body = "\n    ".join(lines)
        if body[0] in "!?:;«»" or ": " in body or body.endswith(":") or " #" in body:
            return  # not a plain scalar YAML reads as written
        source = f"text:\n  fr: {body}\n"
    elif style in "'\"":
        source = f"text:\n  fr: {style}" + "\n    ".join(lines) + f"{style}\n"
    else:
        source = f"text:\n  fr: {style}\n" + "".join(f"    {line}\n" for line in lines)
    doc, _ = parse_document(Path("t.yaml"), "t.yaml", source.encode())
    if doc is None:
        return
    value = doc.get(("text", "fr"))
    for offset, ch in enumerate(value):
        if ch in "!?;:«»":
            assert char_at(source, doc.position_in(("text", "fr"), offset)) == ch
