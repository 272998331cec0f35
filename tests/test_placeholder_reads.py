"""A card text's placeholders are read once per text and language, without a search where
none can be: the references check (R006), translation parity (T005) and print-fit ask for
them on every text of every card (~2 M instructions a check on 100 cards); likewise a text's
inline icon names (`:name:`), which P007 looks for."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.conftest import copy_game
from toolkit.checks import references
from toolkit.checks.translation import parity, views
from toolkit.content import templating
from toolkit.content.game import load_game
from toolkit.content.walk import collect

CONTENT = Path(__file__).parent.parent / "content"


def _lone_braces_by_tokens(text: str) -> list[str]:
    """`lone_braces` as it read every text with a brace: each token, then the words."""
    tokens = [
        (m.start(), m.end(), m.group(0), m.group(1))
        for m in templating._TOKEN_OR_LONE.finditer(text)
    ]
    found: list[str] = []
    at = 0
    for word in re.finditer(r"\S+", text):
        while at < len(tokens) and tokens[at][0] < word.start():
            at += 1
        inside = []
        while at < len(tokens) and tokens[at][0] < word.end():
            inside.append(tokens[at])
            at += 1
        lone = any(token in ("{", "}") for _, _, token, _ in inside)
        if lone and any(name is not None for _, _, _, name in inside):
            shown = word.group(0)
            found.append(shown if len(shown) <= 40 else shown[:40] + "…")
    return list(dict.fromkeys(found))


def test_placeholders_and_lone_braces_read_as_the_tokens_say() -> None:
    """Over texts of braces, names and spaces (doubled, nested, unclosed), both give what
    reading every token gives."""
    pieces = ["{", "}", "{{", "}}", "n", "points", " ", "{n}", "x.y", ":", "é"]
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 9)))
        assert templating.lone_braces(text) == _lone_braces_by_tokens(text), text
        every = [m.group(1) for m in templating._TOKEN.finditer(text) if m.group(1) is not None]
        assert templating.placeholders(text) == every, text


class _Spy:
    """A compiled pattern whose searches are counted."""

    def __init__(self, real: re.Pattern[str]) -> None:
        self.real, self.calls = real, 0

    def finditer(self, *args: object) -> object:
        self.calls += 1
        return self.real.finditer(*args)  # type: ignore[arg-type]

    def sub(self, *args: object) -> object:
        return self.real.sub(*args)  # type: ignore[arg-type]


def test_a_text_without_a_lone_brace_is_not_cut_into_tokens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = _Spy(templating._TOKEN_OR_LONE)
    monkeypatch.setattr(templating, "_TOKEN_OR_LONE", spy)
    assert templating.lone_braces("Move {steps} spaces, {{twice}} if {n} is odd") == []
    assert spy.calls == 0
    assert templating.lone_braces("gain {n}} coins") == ["{n}}"]  # a lone brace: read
    assert spy.calls == 1


def test_a_text_without_an_opening_brace_is_not_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = _Spy(templating._TOKEN)
    monkeypatch.setattr(templating, "_TOKEN", spy)
    assert templating.placeholders("Draw a card, then pass} it") == []
    assert spy.calls == 0
    assert templating.placeholders("Draw {n} cards") == ["n"]
    assert spy.calls == 1


def test_parity_counts_no_placeholder_of_a_text_whose_languages_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """T005 compares each language's placeholders with the source's; they are counted
    (a Counter each) only for a finding's message."""
    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "game"))
    made: list[object] = []

    class Counted(parity.Counter):  # type: ignore[type-arg]
        def __init__(self, *args: object) -> None:
            made.append(args)
            super().__init__(*args)

    monkeypatch.setattr(parity, "Counter", Counted)
    texts = views(game, collect(game))
    with_names = [v for v in texts if "{" in v.values.get(v.source, "")]
    assert with_names  # the game's cards name their parameters
    found = [d for v in texts for d in parity._placeholders(v, v.values.get(v.source, ""))]
    assert found == [] and made == []


def test_references_look_up_no_place_for_a_bound_placeholder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R006: where a text is written is looked up for a finding only, not for each of its
    placeholders that names a parameter."""
    from toolkit.content.source import Document

    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "game"))
    facts = collect(game)
    asked: list[object] = []
    real = Document.span

    def span(self: Document, path: tuple) -> object:
        asked.append(path)
        return real(self, path)

    monkeypatch.setattr(Document, "span", span)
    found = list(references._placeholders(facts))
    assert found == [] and asked == []


def test_inline_icons_search_only_a_text_with_a_colon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P007's search for unknown icon names (`:name:`) reads only the texts that hold a
    colon: every icon's name opens with one."""
    from toolkit.checks import inline_icons

    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "game"))
    facts = collect(game)
    spy = _Spy(inline_icons.INLINE_ICON)
    monkeypatch.setattr(inline_icons, "INLINE_ICON", spy)
    assert [d.code for d in inline_icons.check(game, facts)] == []
    values = [v for text in facts.texts for v in text.value.values()]
    assert spy.calls == sum(1 for v in values if ":" in v) < len(values)


def test_a_run_of_the_checks_works_out_each_cards_parameter_names_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The references check (R006), parity (T005) and print-fit's own letters all ask which
    names a card's text may use: in one run of the checks they are worked out once per
    card (the card's texts filled in a language are another question, asked apart)."""
    from collections import Counter

    from toolkit.checks import run_checks

    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "game"))
    asked: Counter[int] = Counter()
    real = templating.parameter_values

    def counted(owner: object, lang: str | None = None) -> dict[str, str]:
        if lang is None:
            asked[id(owner)] += 1
        return real(owner, lang)  # type: ignore[arg-type]

    monkeypatch.setattr(templating, "parameter_values", counted)
    run_checks(game, errors_only=True)
    assert asked and max(asked.values()) == 1
