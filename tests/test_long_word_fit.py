"""Probe 19 H2 (each test red before its fix): a very long word in a French or Spanish text
was hyphenated by asking pyphen for every point of every tail the word left, trying them
from the word's end, at each of the sizes tried: a 1,000-letter word took 27 s, three
9,600-letter layout words over 15 minutes and 4.5 GB. A fit now measures a bounded number
of heads a line, asks pyphen about the letters a line can hold, keeps no tail in pyphen's
cache and passes the sizes a text's words are too wide for; the lines are the same."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from toolkit.render import fonts, textfit
from toolkit.render.fonts import overflow_length, text_width
from toolkit.render.hyphenation import break_points, dictionary
from toolkit.render.textfit import Setting, _fit, wrap
from toolkit.scaffold.new import new_game

WORD = "anticonstitutionnellement"
CONTENT = Path(__file__).resolve().parent.parent / "content"


def _spy_measures(monkeypatch) -> list[int]:
    """The letters of each string the fonts measure (heads, tails, words, lines)."""
    measured: list[int] = []
    real = fonts._plain_width

    def spy(word: str, style: str) -> float:
        measured.append(len(word))
        return real(word, style)

    monkeypatch.setattr(fonts, "_plain_width", spy)
    return measured


def _spy_pyphen(monkeypatch, lang: str) -> list[int]:
    """The letters of each word pyphen computes the points of."""
    asked: list[int] = []
    hd = dictionary(lang).hd
    real = hd.positions

    def spy(word: str):
        asked.append(len(word))
        return real(word)

    monkeypatch.setattr(hd, "positions", spy)
    return asked


def test_a_long_word_is_wrapped_with_a_bounded_number_of_measures(monkeypatch) -> None:
    word = (WORD * 80)[:2_000]
    widths: list[str] = []
    real = textfit.text_width

    def spy(text: str, *args, **kwargs) -> float:
        widths.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(textfit, "text_width", spy)
    measured = _spy_measures(monkeypatch)
    asked = _spy_pyphen(monkeypatch, "fr")
    lines = wrap(word, 142.0, 9.0, "regular", "fr")
    assert lines is not None and len(lines) > 50
    assert "".join(line.removesuffix("-") for line in lines) == word
    assert len(widths) < 10 * len(lines)  # 3 a line; was ~350, tried from the word's end
    assert sum(measured) < 50 * len(word)  # letters measured: 36,000; was 4 million
    assert sum(asked) < 3 * len(word)  # letters pyphen read: 3,100; was every tail's, 68,000


def test_pyphen_keeps_no_tail_of_a_long_word(monkeypatch) -> None:
    cache = dictionary("es").hd.cache
    monkeypatch.setattr(dictionary("es").hd, "cache", dict(cache))  # this test's own
    cache = dictionary("es").hd.cache
    before = len(cache)
    word = ("otorrinolaringologicamente" * 40)[:1_000]
    assert wrap(word, 100.0, 8.0, "regular", "es")
    assert len(cache) - before <= 2  # the last tail or two, short: was one a line (42)
    assert all(len(kept) < 100 for kept in cache)


def test_a_text_too_long_for_its_box_is_not_wrapped_at_every_size(monkeypatch) -> None:
    wrapped: list[float] = []
    real = textfit._wrap

    def spy(text, width, size, *args, **kwargs):
        wrapped.append(size)
        return real(text, width, size, *args, **kwargs)

    monkeypatch.setattr(textfit, "_wrap", spy)
    found = _fit((WORD * 40)[:1_000], 142.0, 22.7, Setting(96.0, 3.0, "regular", "fr"))
    assert not found.fits and found.size == 3.0
    assert len(wrapped) <= 2  # the lines at 3 pt: was 2 wraps at each of 373 sizes


def test_a_card_text_of_one_4000_letter_french_word_is_a_quick_p001(
    run_cli, tmp_path, monkeypatch
) -> None:
    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    deck = game / "decks" / "cards.yaml"
    word = (WORD * 160)[:4_000]
    deck.write_text(deck.read_text().replace("fr: Avancez de {steps} cases.", f"fr: {word}"))
    measured = _spy_measures(monkeypatch)
    asked = _spy_pyphen(monkeypatch, "fr")
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P001"]
    assert len(found) == 1 and "(fr)" in found[0]["message"], found
    assert "4000 characters" in found[0]["message"]
    assert sum(asked) < 10 * len(word)  # letters pyphen read: 5,500; was 3.5 million
    assert sum(measured) < 100 * len(word)  # letters measured: 67,000; was 30 million


# --- the same lines as before: each shortcut checked against the long way ---------------


def _old_hyphenate(word, before, width, size, style, lang):
    """`_hyphenate` as it was: every point of the word, tried from its end."""
    hyphenator = textfit._hyphenator(lang) if lang else None
    if hyphenator is None or len(word) < 5 or ":" in word:
        return "", word
    prefix = f"{before} " if before else ""
    for head, tail in hyphenator.iterate(word):
        if text_width(f"{prefix}{head}-", size, style) <= width:
            return f"{head}-", tail
    return "", word


def _corpus() -> list[str]:
    found: set[str] = set()
    for path in sorted(CONTENT.rglob("*.yaml")):
        found.update(re.findall(r"[^\W\d_]{5,}", path.read_text(encoding="utf-8")))
    return sorted(found)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_break_points_are_pyphens_own_before_the_limit(lang: str) -> None:
    hyphenator = dictionary(lang)
    rng = random.Random(19)
    words = _corpus()
    for _ in range(600):
        word = "".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
        below = rng.randint(0, len(word) + 3)
        want = [p for p in hyphenator.positions(word) if p < below]
        assert break_points(hyphenator, word, below) == want, (word, below)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_word_is_broken_where_it_was(lang: str) -> None:
    rng = random.Random(49)
    words = _corpus()
    for _ in range(1_500):
        word = "".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
        before = rng.choice(["", "Le", "Avancez de deux"])
        width, size = rng.uniform(20.0, 200.0), rng.choice([6.0, 8.5, 12.0, 24.0])
        args = (word, before, width, size, "regular", lang)
        assert textfit._hyphenate(*args) == _old_hyphenate(*args), args


def test_overflow_length_is_the_first_head_too_wide() -> None:
    rng = random.Random(3)
    for _ in range(500):
        word = "".join(rng.choice("aeilmnorstuWé") for _ in range(rng.randint(0, 40)))
        width, size = rng.uniform(-1.0, 200.0), rng.uniform(2.0, 30.0)
        want = next(
            (n for n in range(len(word) + 1) if text_width(word[:n], size) > width),
            len(word) + 1,
        )
        assert overflow_length(word, width, size, "regular") == want


@pytest.mark.parametrize(
    "text",
    [
        WORD * 12,
        f"Un {WORD * 8} et {WORD}\nencore",
        "Avancez de deux cases puis piochez une carte.\n\nDéfaussez-en une.",
        "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz mot",
        ":die: " + "desoxirribonucleico " * 12,
        "",
    ],
)
@pytest.mark.parametrize("box", [(40.0, 15.0), (142.0, 22.7), (142.0, 80.0), (300.0, 300.0)])
def test_passing_sizes_fits_as_wrapping_at_every_size(text, box, monkeypatch) -> None:
    for lang in ("fr", "en"):
        for sizes in ((9.0, 6.0), (30.0, 3.0)):
            setting = Setting(*sizes, "regular", lang)
            quick = _fit(text, *box, setting)
            with monkeypatch.context() as patched:
                patched.setattr(textfit, "_too_high", lambda *_: False)
                assert _fit(text, *box, setting) == quick, (lang, sizes)
