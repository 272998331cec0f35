"""The LSP's `rules.` completion on a game.yaml whose `rules:` alias a mapping into itself
(probe 39 L2: 1 kB, ~65,000 paths, 3–6 s a request): the first paths in order, each shown by
the start of its value, written no further than it is shown."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from toolkit.lsp import names


class Leaf:
    """A value that counts how often it is written out."""

    written = 0

    def __repr__(self) -> str:
        Leaf.written += 1
        return "1"


def _aliased(depth: int) -> dict[str, Any]:
    """`l0: &l0 {a: 1, b: 2}`, `l1: &l1 {a: *l0, b: *l0}`, …: 2**depth leaves."""
    rules: dict[str, Any] = {"hand_size": 3}
    level: Any = {"a": Leaf(), "b": Leaf()}
    rules["l0"] = level
    for n in range(1, depth + 1):
        level = {"a": level, "b": level}
        rules[f"l{n}"] = level
    return rules


def _complete(rules: dict[str, Any], typed: str) -> list[names.Item]:
    state = SimpleNamespace(game=SimpleNamespace(manifest=SimpleNamespace(rules=rules)))
    line = f'text: "{{{{ rules.{typed}'
    return names.completions(state, Path("layouts/plain.yaml"), [line], 0, len(line))


def test_a_rules_completion_lists_the_first_paths_in_order() -> None:
    rules = _aliased(14)  # 65,000 paths
    Leaf.written = 0
    items = _complete(rules, "")
    assert Leaf.written <= 60 * 1_000  # not the 2**14 leaves of each subtree
    assert len(items) == 1_000
    everything = [path for path, _ in names.rule_paths(rules)]
    assert [item.label for item in items] == everything[:1_000]
    typed = _complete(rules, "l14.a.b")
    assert [i.label for i in typed] == [p for p in everything if p.startswith("l14.a.b")][:1000]


def test_a_value_is_shown_as_its_repr_starts() -> None:
    for value in (
        3,
        "it's",
        "x" * 500,
        {"a": 1, "b": [1, (2,), ()], "c": {"d": None, "e": 'say "hi"'}},
        {"a": {"b": {"c": {"d": "f" * 100}}}},
        [],
        {},
        1.5,
        True,
        {1: 2},
    ):
        assert names.preview(value) == repr(value)[: names.PREVIEW]
    Leaf.written = 0
    assert names.preview(_aliased(16)["l16"]).startswith("{'a': {'a': {'a'")
    assert Leaf.written <= names.PREVIEW
    assert [i.detail for i in _complete({"k": {"a": 1}}, "")] == ["{'a': 1}", "1"]
