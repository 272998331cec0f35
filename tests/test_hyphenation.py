"""Hyphenation dictionaries read on demand (toolkit/render/hyphenation.py) break every word
where pyphen's own reading of the dictionary breaks it."""

from __future__ import annotations

import re
from pathlib import Path

import pyphen
import pytest

from toolkit.render.hyphenation import _lazy_dict, dictionary

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
