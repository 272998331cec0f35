"""The positioned YAML loader: values, spans, YAML 1.2 scalars, and refusal of hostile input."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.content.game import load_game
from toolkit.content.source import load_document
from toolkit.diagnostics import Span


def _load(tmp_path: Path, text: str | bytes):
    path = tmp_path / "f.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return load_document(path, "f.yaml")


def test_yaml_12_keeps_spanish_no_and_si_as_strings(tmp_path):
    doc, diags = _load(tmp_path, "a: No\nb: Sí\nc: yes\nd: true\ne: 010\n")
    assert diags == []
    assert doc.data == {"a": "No", "b": "Sí", "c": "yes", "d": True, "e": 10}


def test_spans_of_values_and_keys(tmp_path):
    doc, _ = _load(tmp_path, "cards:\n  - id: x\n    name: {fr: Un}\n")
    assert doc.span(("cards", 0, "id")) == Span(2, 9, 2, 10)
    assert doc.key_span(("cards", 0, "name")).line == 3
    assert doc.span(("cards", 0, "name", "fr")).col == 16


def test_locate_skips_union_tag_segments(tmp_path):
    doc, _ = _load(tmp_path, "effect:\n  kind: add\n  amount: x\n")
    span = doc.locate(("effect", "add", "amount"))
    assert (span.line, span.col) == (3, 11)


def test_merge_keys_are_supported(tmp_path):
    doc, diags = _load(tmp_path, "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n")
    assert diags == []
    assert doc.data["other"] == {"x": 1, "y": 3}


def test_bom_is_accepted(tmp_path):
    doc, diags = _load(tmp_path, "\ufeffa: 1\n".encode())
    assert diags == [] and doc.data == {"a": 1}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_never_raise(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "f.yaml"
    path.write_bytes(data)
    doc, diags = load_document(path, "f.yaml")
    assert (doc is None) == bool(diags)
    for diag in diags:
        assert diag.code.startswith("Y") and diag.line >= 1 and diag.col >= 1


yaml_text = st.text(
    alphabet=st.sampled_from(list("abc:-[]{}&*!|>'\"#\n\t ,?0123456789")), max_size=200
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_text)
def test_random_yaml_like_text_never_raises(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "f.yaml"
    path.write_text(text, encoding="utf-8")
    doc, diags = load_document(path, "f.yaml")
    assert (doc is None) == bool(diags)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_text)
def test_random_manifest_never_raises(tmp_path_factory, text):
    """Whatever game.yaml holds, loading the game gives diagnostics, not a traceback."""
    root = tmp_path_factory.mktemp("game")
    (root / "game.yaml").write_text(text, encoding="utf-8")
    game = load_game(root)
    assert game.manifest is not None or game.diagnostics


def test_huge_flow_nesting_is_refused_before_parsing(tmp_path):
    """The C parser would overflow its stack on this; the pre-scan refuses it first."""
    doc, diags = _load(tmp_path, "k: " + "[" * 200_000 + "]" * 200_000 + "\n")
    assert doc is None and [(d.code, d.line, d.col) for d in diags] == [("Y005", 1, 68)]


def test_huge_block_nesting_is_refused(tmp_path):
    text = "".join(" " * i + "a:\n" for i in range(0, 3000, 2))
    doc, diags = _load(tmp_path, text)
    assert doc is None and diags[0].code == "Y005"


def test_brackets_inside_quotes_and_comments_do_not_count(tmp_path):
    text = "a: '" + "[" * 100 + "'\nb: \"" + "{" * 100 + '"  # ' + "[" * 100 + "\n"
    doc, diags = _load(tmp_path, text)
    assert diags == [] and doc.data["a"] == "[" * 100
