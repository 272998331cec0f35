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
    assert Leaf.written <= 60 * names.MAX_RULE_ITEMS  # not the 2**14 leaves of each subtree
    assert len(items) == names.MAX_RULE_ITEMS
    everything = [path for path, _ in names.rule_paths(rules)]
    assert [item.label for item in items] == everything[: names.MAX_RULE_ITEMS]
    typed = _complete(rules, "l14.a.b")
    wanted = [p for p in everything if p.startswith("l14.a.b")]
    assert [i.label for i in typed] == wanted[: names.MAX_RULE_ITEMS]


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


def _walked(rules: Any, prefix: str = "", want: str = "") -> list[tuple[str, Any]]:
    """Every path as the walk over each key found it (each mapping's keys in order)."""
    out: list[tuple[str, Any]] = []
    if isinstance(rules, dict):
        for key in sorted(rules, key=str):
            path = f"{prefix}{key}"
            if path.startswith(want):
                out.append((path, rules[key]))
            elif not want.startswith(path + "."):
                continue
            out += _walked(rules[key], path + ".", want)
    return out


def test_the_paths_asked_for_are_those_of_the_walk_over_every_key() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    names_ = st.sampled_from(["a", "a.b", "ab", "b", "a.c", "c", "1", "ba", "a."])
    tree = st.recursive(
        st.integers(0, 3), lambda inner: st.dictionaries(names_, inner), max_leaves=20
    )
    wanted = st.sampled_from(["", "a", "a.", "a.b", "a.b.", "a.b.c", "ab", "b", "x", "a.c.a", "1"])

    @settings(max_examples=300, deadline=None)
    @given(tree, wanted)
    def check(rules: Any, want: str) -> None:
        kept: dict[int, Any] = {}
        for _ in range(2):
            assert list(names.rule_paths(rules, want=want, kept=kept)) == _walked(rules, want=want)

    check()


def test_a_mappings_keys_are_put_in_order_once_for_many_requests() -> None:
    # probe 65-5: `rules.zzz` looked at each of 60,000 top-level keys at each request
    class Counted(dict):
        listed = 0

        def __iter__(self):
            Counted.listed += 1
            return super().__iter__()

    rules = Counted({f"k{i}": i for i in range(60_000)})
    kept: dict[int, Any] = {}
    for _ in range(50):
        assert list(names.rule_paths(rules, want="zzz", kept=kept)) == []
        assert list(names.rule_paths(rules, want="k5999", kept=kept)) == [
            ("k5999", 5999),
            *[(f"k5999{i}", 59990 + i) for i in range(10)],
        ]
    assert Counted.listed == 1


def test_a_rules_graph_of_aliases_is_walked_once_a_mapping_and_depth() -> None:
    # probe 67-4: `x_k: &Lk {'a': *Lk+1, 'a.a': *Lk+1}` chained 15 deep (578 bytes) made
    # 2**16 mappings on the way to `rules.x0.a.a…zzz`: 16 s a request
    level: dict[str, Any] = {"end": 1}
    for _ in range(16):
        level = {"a": level, "a.a": level}
    rules = {"x0": level}
    walked: list[int] = []
    real = names._in_order
    names_in_order = lambda r, kept: walked.append(1) or real(r, kept)  # noqa: E731
    try:
        names._in_order = names_in_order
        line = "x: {{ rules.x0." + "a." * 160 + "zzz"
        state = SimpleNamespace(game=SimpleNamespace(manifest=SimpleNamespace(rules=rules)))
        assert names.completions(state, Path("game.yaml"), [line], 0, len(line)) == []
    finally:
        names._in_order = real
    assert len(walked) <= names.MAX_RULE_MAPPINGS
    assert len(walked) < 17 * 170, len(walked)  # each mapping once at each depth at most


def test_a_rules_completion_previews_no_more_paths_than_an_answer_holds(monkeypatch) -> None:
    # probe 67-8: 1,000 paths were listed and previewed at each request, 100 answered
    previewed: list[int] = []
    real = names.preview
    monkeypatch.setattr(names, "preview", lambda v, *a: previewed.append(1) or real(v, *a))
    items = _complete({f"k{i}": i for i in range(1_200)}, "")
    assert len(items) == names.MAX_ITEMS + 1 and len(previewed) == len(items)
