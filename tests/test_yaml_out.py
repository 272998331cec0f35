"""The fast YAML writer of `convert --to yaml` (toolkit/content/sheets/yaml_out.py): for any
card of plain values it writes exactly what ruamel writes (or leaves the card to ruamel), and
what it writes reads back, with the project's own YAML reader, as the same card."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.content.sheets import yaml_out
from toolkit.content.sheets.yaml_out import dump, dump_rows
from toolkit.content.source import parse_document

# fmt: off
TRICKY = [
    "", " ", "  x", "x ", " x ", "-", "- x", "-x", "?", "? ", "? x", "?x", ":", ": x", "x: y",
    "x:y", "x:", "#", "# x", "x #y", "x#y", "'", "''", "'x'", '"', '"x"', "x'y", 'x"y', "\\",
    "x\\y", "\\n", "yes", "no", "on", "off", "y", "n", "Yes", "NO", "true", "False", "TRUE",
    "null", "Null", "~", "1", "-1", "+1", "01", "0o17", "0x1F", "0b101", "1_000", "1e3", "1E3",
    "-1e-3", "1.5", ".5", "5.", ".inf", "-.inf", ".nan", ".NaN", "1:30", "12:30:00", "2024-01-01",
    "2024-01-01 10:00:00", "<<", "=", "!", "!x", "&a", "*a", "|", ">", "%", "@", "`", "[", "]",
    "{", "}", "[x]", "{x: y}", ",", "x, y", "a\tb", "\t", "x\t", "\tx", "a\nb", "a\n", "\n",
    "a\n\nb", "a\r\nb", "\x00", "a\x07b", "\x1b[0m", "\x7f", "\x85", "\u2028", "\ufeff",
    "\ue000", "é", "Ärger", "日本語", "😀", "—", "\u00a0", "x\u00a0", "---", "...", "--- x",
    "... x", "x" * 122, "x" * 123, "x" * 200, "x" * 5000,
    ("word " * 830).strip(), ("word " * 900).strip(),  # lines near and past the 4,096 width
]
# fmt: on

ALPHABET = st.sampled_from(
    list("ab xyz09-_.:#?'\"\\,[]{}&*!|>%@`~=+<\t\n\r")
    + ["\x00", "\x01", "\x7f", "\x85", "\u2028", "\ufeff", "é", "日", "😀", "\u00a0", "\ud7ff"]
)
TEXTS = st.one_of(
    st.sampled_from(TRICKY),
    st.text(ALPHABET, max_size=12),
    st.text(max_size=8),
    st.builds(lambda a, b: a + b, st.sampled_from(TRICKY), st.sampled_from(TRICKY)),
)
KEYS = st.one_of(
    st.sampled_from(["id", "name", "fr", "en", "es", "cost", "effect", "kind"]),
    TEXTS.filter(lambda k: k != "<<"),  # a merge key reads back merged, as with ruamel
    st.integers(min_value=-(2**70), max_value=2**70),
)
SCALARS = st.one_of(
    TEXTS,
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)
CARDS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=6)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _read_back(text: str) -> Any:
    doc, diags = parse_document(Path("cards.yaml"), "cards.yaml", text.encode("utf-8"))
    assert doc is not None, diags
    return doc.data


def _same(a: Any, b: Any) -> bool:
    """Equal, a -0.0 and a 0.0 apart (YAML keeps the sign)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _own(card: dict[str, Any]) -> str | None:
    """The emitter's own text for `card`, None when it leaves the card to ruamel."""
    writer = yaml_out._Writer(yaml_out._Scalars())
    try:
        writer.items([card], 2)
    except yaml_out._Defer:
        return None
    return "cards:\n" + "".join(writer.lines)


@SETTINGS
@given(st.lists(st.one_of(TEXTS, SCALARS), min_size=1, max_size=3), KEYS)
def test_texts_as_ruamel_writes_them(values: list[Any], key: str) -> None:
    card = {key: values[0], "id": values, "name": {key: values[-1]}}
    _check(card)


@pytest.mark.parametrize("text", TRICKY)
def test_each_tricky_text(text: str) -> None:
    _check({"id": text, "name": {"fr": text}, "tags": [text, text]})
    _check({"id": 1, "name": {text: 1}})
    _check({"id": 1, "name": {text[:127]: 1}})
    _check({text: text})


@SETTINGS
@given(CARDS)
def test_cards_as_ruamel_writes_them(card: dict[str, Any]) -> None:
    _check(card)


@SETTINGS
@given(st.lists(CARDS, min_size=1, max_size=5))
def test_decks_as_ruamel_writes_them(cards: list[dict[str, Any]]) -> None:
    """Cards the emitter writes and cards it leaves to ruamel, one after the other. (What
    ruamel writes does not always read back: a NEL, U+0085, comes back a space, as ruamel
    writes it: only the emitter's own text is read back.)"""
    text = dump_rows("cards", cards)
    assert text == dump({"cards": cards})
    for card in cards:
        own = _own(card)
        if own is not None:
            assert _same(_read_back(own)["cards"], [card])


def _check(card: dict[str, Any]) -> None:
    expected = dump({"cards": [card]})
    own = _own(card)
    if own is not None:
        assert own == expected
        assert _same(_read_back(own)["cards"], [card])
    assert dump_rows("cards", [card]) == expected


def test_plain_and_single_quoted_texts_are_its_own() -> None:
    """The emitter writes the usual texts itself (not all left to ruamel), quoting those a
    plain scalar would misread, as ruamel does."""
    card = {
        "id": "c1",
        "name": {"fr": "Épée", "en": "yes", "es": "1e3"},  # YAML 1.2: `yes` is a text
        "text": ": x #y",
        "cost": 3,
        "rate": 1.5,
        "hidden": False,
        "note": None,
        "tags": ["~", "", "0x1F", "on", "True", "- x", "x: y", "a'b c"],
    }
    own = _own(card)
    assert own == (
        "cards:\n  - id: c1\n    name:\n      fr: Épée\n      en: yes\n      es: '1e3'\n"
        "    text: ': x #y'\n    cost: 3\n    rate: 1.5\n    hidden: false\n    note:\n"
        "    tags:\n      - '~'\n      - ''\n      - '0x1F'\n      - on\n"
        "      - 'True'\n      - '- x'\n      - 'x: y'\n      - a'b c\n"
    )
    assert own == dump({"cards": [card]})


def test_shared_values_are_left_to_ruamel() -> None:
    """A value two cards share (a YAML deck's alias) is written as ruamel writes it, with
    its anchor."""
    name = {"fr": "A", "en": "A"}
    cards = [{"id": "a", "name": name}, {"id": "b", "name": name}]
    text = dump_rows("cards", cards)
    assert "&id001" in text
    assert text == dump({"cards": cards})


def test_a_large_deck_is_written_without_ruamel(monkeypatch: pytest.MonkeyPatch) -> None:
    """7,800 cards of 20 plain values each: ruamel's dump took 8.5 s of a 10 s conversion;
    the emitter writes every card itself (ruamel is never asked to dump one)."""
    dumped: list[Any] = []
    real = yaml_out.dump
    monkeypatch.setattr(yaml_out, "dump", lambda data: dumped.append(data) or real(data))
    cards = [
        {"id": f"c{i}", "name": {"fr": "A", "es": "A", "en": "A"}}
        | {"params": {f"k{j}": j for j in range(16)}}
        for i in range(7800)
    ]
    text = dump_rows("cards", cards)
    assert dumped == []
    assert text.count("\n") == 7800 * 22 + 1


def test_a_sheet_of_7800_cards_converts_back_without_ruamel_dumping_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`convert cards.csv --to yaml` of a deck at the sheet's cell bound: 9 s of CPU (8 of them
    in ruamel's dump) before the emitter, about 1.2 s with it: ruamel writes the deck's own
    keys, the emitter every card; its text is ruamel's (the tests above)."""
    from toolkit.content.sheets import convert
    from toolkit.content.sheets.convert import plan

    dumped: list[Any] = []
    real = convert.dump
    monkeypatch.setattr(convert, "dump", lambda data: dumped.append(data) or real(data))
    monkeypatch.setattr(yaml_out, "dump", lambda data: dumped.append(data) or real(data))

    (tmp_path / "cards.deck.yaml").write_text("id: cards\nkind: actions\n", encoding="utf-8")
    head = ",".join(["id", "name.fr", "name.es", "name.en"] + [f"params.k{j}" for j in range(16)])
    values = ",".join(str(j) for j in range(16))
    rows = "".join(f"c{i},A,A,A,{values}\n" for i in range(7800))
    (tmp_path / "cards.csv").write_text(f"{head}\n{rows}", encoding="utf-8")
    back = plan(tmp_path / "cards.csv", "cards.csv", "yaml", tmp_path / "back.yaml")
    assert all("cards" not in data for data in dumped)  # the keys only
    text = back.files[0][1].decode("utf-8")
    assert text.endswith(
        "  - id: c7799\n    name:\n      fr: A\n      es: A\n      en: A\n"
        "    params:\n      k0: 0\n" + "".join(f"      k{j}: {j}\n" for j in range(1, 16))
    )
