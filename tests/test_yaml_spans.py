"""Reading a YAML file makes a span for every value and key (~2,300 for a 100-card deck): they
are made without the frozen dataclass's per-field `object.__setattr__`, and are the very spans
`Span(...)` makes."""

from __future__ import annotations

import dataclasses

from toolkit.content import source
from toolkit.diagnostics import Span
from toolkit.diagnostics.diagnostic import span_at


def _fields(span: Span) -> tuple[object, ...]:
    return tuple(getattr(span, f.name) for f in dataclasses.fields(Span))


def test_a_span_made_fast_is_the_span_of_its_class() -> None:
    for args in [(1, 1, None, None), (3, 7, 3, 12), (10**6, 2, 10**6 + 1, 1)]:
        fast, made = span_at(*args), Span(*args)
        assert type(fast) is Span
        assert fast == made and hash(fast) == hash(made) and repr(fast) == repr(made)
        assert _fields(fast) == _fields(made)
        try:
            fast.line = 2  # type: ignore[misc]
        except dataclasses.FrozenInstanceError:
            pass
        else:
            raise AssertionError("a span made fast must stay frozen")


def test_a_document_s_spans_are_those_of_its_nodes() -> None:
    text = "id: deck\ncards:\n  - id: a\n    name: {fr: Un, en: One}\n  - &b {id: b}\n  - *b\n"
    built = source._build(text)
    assert not isinstance(built, source._Refusal)
    data, spans, keys, shared, styles, *_ = built
    assert data == {
        "id": "deck",
        "cards": [{"id": "a", "name": {"fr": "Un", "en": "One"}}, {"id": "b"}, {"id": "b"}],
    }
    assert spans[("id",)] == Span(1, 5, 1, 9)
    assert keys[("cards", 0, "name")] == Span(4, 5, 4, 9)
    assert spans[("cards", 0, "name", "en")] == Span(4, 24, 4, 27)
    assert spans[("cards", 2)] == spans[("cards", 1)]  # an alias: the node it names
    assert shared == {("cards", 2), ("cards", 2, "id")}
    assert all(type(span) is Span for span in [*spans.values(), *keys.values()])
    assert all(_fields(span)[4:] == (None, None) for span in spans.values())
    assert styles[("id",)] is None
