"""Hyphenation dictionaries read on demand (toolkit/render/hyphenation.py) break every word
where pyphen's own reading of the dictionary breaks it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pyphen
import pytest

from toolkit.render.hyphenation import (
    _lazy_dict,
    _Patterns,
    _positions,
    _window_points,
    break_points,
    dictionary,
)

CONTENT = Path(__file__).resolve().parent.parent / "content"


def _words() -> list[str]:
    """Every word of the bundled games' files, and every pattern's letters as a word."""
    found: set[str] = set()
    for path in sorted(CONTENT.rglob("*.yaml")) + sorted(CONTENT.rglob("*.md")):
        found.update(re.findall(r"[^\W\d_]{4,}", path.read_text(encoding="utf-8")))
    return sorted(found)


WORDS = _words()


@pytest.mark.parametrize("lang", ["fr", "es", "en_GB", "de", "hu"])
def test_a_dictionary_read_on_demand_breaks_every_word_as_pyphen_does(lang: str) -> None:
    path = pyphen.LANGUAGES[pyphen.language_fallback(lang)]
    theirs = pyphen.HyphDict(path)  # pyphen's reading, every pattern at once
    ours = _lazy_dict(path)
    keys = [k.strip(".") for k in theirs.patterns if len(k.strip(".")) >= 3]
    words = WORDS + keys[::7]
    assert len(words) > 1000
    nonstandard = 0  # breaks that change the word (Hungarian `ssz`: `sz-sz`)
    for word in words:
        want = [(int(p), p.data) for p in theirs.positions(word)]
        assert [(int(p), p.data) for p in ours.positions(word)] == want, word
        nonstandard += sum(1 for _, data in want if data)
    assert nonstandard > 0 or lang != "hu"
    assert ours.maxlen >= theirs.maxlen


def test_a_dictionary_is_the_languages_and_none_for_an_unknown_language(monkeypatch) -> None:
    word = "constitutionnellement"
    got = dictionary("fr").inserted(word)
    monkeypatch.setattr(pyphen, "hdcache", {})  # pyphen's own reading, not ours
    assert got == pyphen.Pyphen(lang="fr").inserted(word) == "consti-tu-tion-nel-le-ment"
    assert dictionary("xx-unknown") is None


@pytest.mark.parametrize("lang", ["fr", "es", "en_GB", "de", "hu"])
def test_a_long_words_points_are_pyphens_with_the_lookups_that_cannot_match_left_out(
    lang: str,
) -> None:
    """`_positions` (a long word's window, toolkit.render.hyphenation.break_points) gives
    pyphen's points and data, word for word, over words made of the bundled games' words."""
    path = pyphen.LANGUAGES[pyphen.language_fallback(lang)]
    theirs = pyphen.HyphDict(path)
    ours = _lazy_dict(path)
    rng = random.Random(7)
    for _ in range(400):
        word = "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))
        want = [(int(p), p.data) for p in theirs.positions(word)]
        assert [(p, getattr(p, "data", None)) for p in _positions(ours, word)] == want, word
    assert not ours.cache  # pyphen's cache of words is left alone


def test_a_long_word_is_looked_up_a_few_times_a_letter(monkeypatch) -> None:
    """pyphen looks up every piece of up to `maxlen` (14) letters from each letter of a word:
    ~14 calls of the patterns' `get` a letter, most of a long hyphenated word's fitting
    (probe 22 H1: 1.2 µs a letter). A piece no pattern begins with is not looked up."""
    hyphenator = dictionary("fr")
    syllables = ["con", "ti", "tu", "na", "le", "pro", "mé", "ra", "li", "sé"]
    word = "".join(syllables[int(d)] for d in str(1234**200))
    calls = 0
    get = _Patterns.get

    def counted(self: _Patterns, key: str, default: object = None) -> object:
        nonlocal calls
        calls += 1
        return get(self, key, default)

    monkeypatch.setattr(_Patterns, "get", counted)
    _window_points.cache_clear()
    points = break_points(hyphenator, word, 200)
    assert points and calls < 2 * 215  # ~0.6 a letter (was 14)
