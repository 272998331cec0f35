"""The translation checks' patterns run only on texts with the characters they cannot match
without (Python's regular expressions try every position of a text, ~10 µs for a card's):
a text without them is not searched, and every text gives what the patterns alone give."""

from __future__ import annotations

import re

import pytest

from toolkit.checks import printfit
from toolkit.checks.translation import parity, typography

TEXTS = [
    "",
    "Avancez de trois cases\u202f; piochez une carte.",
    "Move 3 spaces, then draw a card; if you pass a pub, trade two tokens.",
    "Gagnez -2 :coin: et -{amount} points",
    "Voir https://example.org/a:b ou www.exemple.fr : ici",
    "Deux  espaces,\u00a0\u202fmélangés\u202f\u202fici ! Et là ?",
    "¿Robas una carta ? ¡Sí !",
    "Hora 12:30, chiffres \u0663\u0664 et \uff17 et \U0001d7d8",  # Arabic, fullwidth, math digits
    "{steps} cases, {{literal}} 4,5 et 10.25 et x2",
    "  leading and trailing  ",
    "Word word WORD, signe \u2212 et trait-d'union - 3",
]


class Untouchable:
    """A pattern that must not run."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"pattern run ({name}) on a text it cannot match")


def test_a_text_without_the_characters_a_pattern_needs_is_not_searched(monkeypatch) -> None:
    for name in ("URL", "ICON", "SPACE_RUN", "HYPHEN_SIGN"):
        monkeypatch.setattr(typography, name, Untouchable())
    monkeypatch.setattr(parity, "NUMBER", Untouchable())
    monkeypatch.setattr(parity, "PLACEHOLDER_TEXT", Untouchable())
    monkeypatch.setattr(printfit, "_DIGITS", Untouchable())
    plain = "Avancez de trois cases, puis piochez une carte."
    assert typography.spacing_fixes(plain) == []
    assert typography.minus_fixes(plain) == []
    assert typography._masked(plain) == plain
    assert typography.english_fixes(plain.replace(",", "")) == []
    assert typography.spanish_fixes(plain) == []
    assert parity.numbers(plain) == []


def _reference_masked(text: str) -> str:
    return typography.ICON.sub(typography._blank, typography.URL.sub(typography._blank, text))


@pytest.mark.parametrize("text", TEXTS)
def test_every_text_gives_what_the_patterns_alone_give(text: str) -> None:
    assert typography._masked(text) == _reference_masked(text)
    runs = [(m.start(), m.end()) for m in typography.SPACE_RUN.finditer(text)]
    assert [
        (f.start, f.end) for f in typography.spacing_fixes(text) if f.why == "double space"
    ] == runs
    signs = [(m.start(), m.end()) for m in typography.HYPHEN_SIGN.finditer(_reference_masked(text))]
    assert [(f.start, f.end) for f in typography.minus_fixes(text)] == signs
    english = [
        (m.start(), m.start(1))
        for m in re.finditer(r"[ \u00a0\u202f]+([;:!?])", _reference_masked(text))
    ]
    assert [(f.start, f.end) for f in typography.english_fixes(text)] == english
    after = [(m.start(1) + 1, m.end()) for m in re.finditer(r"([¿¡])[ \u00a0\u202f]+", text)]
    before = [(m.start(), m.start(1)) for m in re.finditer(r"[ \u00a0\u202f]+([?!])", text)]
    assert [(f.start, f.end) for f in typography.spanish_fixes(text)] == after + before
    bare = parity.PLACEHOLDER_TEXT.sub(" ", text)
    assert parity.numbers(text) == [n.replace(",", ".") for n in parity.NUMBER.findall(bare)]
