"""Probe 38 M1: a card text aliased into every declared language was walked once per
language, each against its own table (a table per language: one term told them apart), so
20 languages made 20 walks of each distinct text: a 235 kB game took `validate` 5.4 s.
A text read in several languages is now walked once against one table of their terms
(`term_search.together`), and T004's walk of a text is skipped when a word of it is in no
kept name. The walks are counted, not timed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import FIXTURES, copy_game
from toolkit.checks.translation import term_search

_EXTRA = ["qa", "qb", "qc", "qd", "qe"]
_WORDS = 300
_CARDS = 4


def _aliased_game(tmp_path: Path) -> Path:
    """The base game with 8 languages, a glossary of terms 'a', 'a a', ... aliased into
    every language and one term written apart in each (so each language has a table of its
    own), and cards whose text, distinct a card, is aliased into every language."""
    game = copy_game(FIXTURES / "base", tmp_path / "game")
    manifest = game / "game.yaml"
    languages = ["fr", "es", "en", *_EXTRA]
    manifest.write_text(
        manifest.read_text().replace(
            "languages: [fr, es, en]", f"languages: [{', '.join(languages)}]"
        )
    )
    lines = ["terms:", "  - {id: t0, text: {" + ", ".join(f"{x}: y{x}" for x in languages) + "}}"]
    for k in range(1, 11):
        others = ", ".join(f"{x}: *s{k}" for x in languages[1:])
        lines.append(f'  - {{id: t{k}, text: {{fr: &s{k} "{" ".join(["a"] * k)}", {others}}}}}')
    (game / "glossary.yaml").write_text("\n".join(lines) + "\n")
    deck = game / "decks" / "cards.yaml"
    text = " ".join(["a"] * _WORDS)
    head = deck.read_text().split("\n")
    head = head[: head.index("cards:") + 1]
    names = ", ".join(f"{x}: N" for x in languages)
    cards = [
        f"  - {{id: c{n}, name: {{{names}}}, text: {{fr: &b{n} '{text} z{n}', "
        + ", ".join(f"{x}: *b{n}" for x in languages[1:])
        + "}}"
        for n in range(_CARDS)
    ]
    deck.write_text("\n".join(head + cards) + "\n")
    return game


def _counting_walks(monkeypatch: Any) -> list[int]:
    """The words of each walk of a text against a table (glossary and T004's), counted."""
    walked: list[int] = []
    real = term_search._walk

    def counted(table: Any, text: Any, fresh: bool) -> Any:
        walked.append(len(text.words))
        return real(table, text, fresh)

    monkeypatch.setattr(term_search, "_walk", counted)
    return walked


def test_a_text_aliased_into_every_language_is_walked_once_for_them(
    tmp_path, run_cli, monkeypatch
) -> None:
    game = _aliased_game(tmp_path)
    walked = _counting_walks(monkeypatch)
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = json.loads(result.stdout)
    cards = [d for d in found if d["file"].endswith("cards.yaml")]
    assert not [d for d in cards if d["code"] == "T008"], cards  # every language uses them
    long_walks = [words for words in walked if words > _WORDS]
    # each card text: once for the source, once for the 7 translations together (it was 7
    # walks for the translations, and one more for T004's kept names: 9 a card)
    assert len(long_walks) <= 2 * _CARDS, (len(long_walks), walked)
    assert sum(walked) <= 2 * _CARDS * (_WORDS + 1) + 300, (sum(walked), walked)


_VOCABULARY = st.sampled_from(["a", "b", "ab", "ba", "c", "cs", "l'a", "a-b", "«a»", "y"])
_TERM = st.lists(_VOCABULARY, min_size=1, max_size=3).map(" ".join)
_TABLE = st.lists(st.tuples(_TERM, st.integers(0, 5)), max_size=6).map(tuple)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TABLE, min_size=1, max_size=4), st.lists(_VOCABULARY, max_size=12))
def test_one_table_for_several_finds_what_each_table_finds(tables, words) -> None:
    text = " ".join(words)
    joint = term_search.together(tuple(tables))
    each = term_search.untangled(term_search.groups_used(joint, text), len(tables))
    assert each == [term_search.groups_used(term_search.finder(t), text) for t in tables]
    assert term_search.width(tables) == max(joint.ends, default=-1) + 1


def test_one_table_for_several_keeps_what_each_one_keeps(monkeypatch) -> None:
    """Each table keeps its first `MAX_PIECES` pieces: the joint table keeps those of each,
    not the first of all of them (a term each table kept is still found)."""
    monkeypatch.setattr(term_search, "MAX_PIECES", 4)
    first = (("p q", 0), ("r s", 1), ("t u", 2))  # t u is past the 4 pieces: left out
    second = (("t u", 0), ("v w", 1))
    joint = term_search.together((first, second))
    found = term_search.untangled(term_search.groups_used(joint, "p q r s t u v w"), 2)
    assert found == [{0, 1}, {0, 1}]
    assert term_search.width((first, second)) == 8


@settings(max_examples=300, deadline=None)
@given(st.lists(_TERM, max_size=5), st.lists(_VOCABULARY | st.just("1"), max_size=10))
def test_a_word_no_name_has_leaves_a_letter_as_the_walk_does(names, words) -> None:
    text = " ".join(words)
    table = term_search.finder(tuple((name, 0) for name in names))
    assert term_search.piece_forms(tuple((name, 0) for name in names)) == set(table.forms)
    if term_search.strange(table.forms, text):
        assert any(ch.isalpha() for ch in term_search.spaced(table, text))


def test_a_text_set_in_languages_that_do_not_hyphenate_is_fitted_once(monkeypatch) -> None:
    """A card text aliased into 20 languages was fitted for each (18 of them alike: only
    French and Spanish words break at syllables); the fit is kept per setting, and the
    setting of a language that does not hyphenate is English's."""
    from toolkit.render import textfit

    fitted: list[str] = []
    real = textfit._fit

    def counted(text: str, width: float, height: float, setting: Any) -> Any:
        fitted.append(setting.lang)
        return real(text, width, height, setting)

    monkeypatch.setattr(textfit, "_fit", counted)
    textfit.fit.cache_clear()
    text = "un mot " * 50
    found = {
        lang: textfit.fit(text, 120.0, 80.0, textfit.Setting(9.0, 5.0, "regular", lang))
        for lang in ["en", "qa", "qb", "de", "fr", "es"]
    }
    assert sorted(fitted) == ["en", "es", "fr"], fitted
    assert found["qa"] == found["en"] == found["de"]
    textfit.fit.cache_clear()
