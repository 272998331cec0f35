"""Probe 34: the glossary check (T008) after its walk was rewritten."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import FIXTURES, copy_game


def _game_of_terms(tmp_path: Path, terms: int) -> Path:
    """The base game with `terms` glossary terms its first card's French text uses and its
    English and Spanish texts do not."""
    game = copy_game(FIXTURES / "base", tmp_path / "game")
    words = [f"mot{i}" for i in range(terms)]
    glossary = game / "glossary.yaml"
    glossary.write_text(
        glossary.read_text()
        + "".join(
            f"  - {{id: t{i}, text: {{fr: {w}, es: palabra{i}, en: word{i}}}}}\n"
            for i, w in enumerate(words)
        )
    )
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("fr: Avancez de {steps} cases.", f"fr: {' '.join(words)}")
    )
    return game


def test_a_text_lacking_many_terms_is_one_finding_a_language(tmp_path, run_cli):
    """H2: one T008 for each term a translation lacked: 1,500 terms and 450 cards made 1.35
    million findings (26 s, 924 MB) before the first 50 were printed. One finding a
    language names the first three."""
    result = run_cli("validate", str(_game_of_terms(tmp_path, 40)), "--no-cache")
    found = [line for line in result.output.splitlines() if "T008" in line]
    assert len(found) == 2, found  # es and en
    assert "fr uses 40 glossary terms whose en terms it lacks: 'mot0' ('word0'), " in found[-1]
    assert found[-1].endswith("'mot2' ('word2') and 37 more"), found[-1]


def test_one_lacking_term_is_said_as_before(tmp_path, run_cli):
    result = run_cli("validate", str(_game_of_terms(tmp_path, 1)), "--no-cache")
    found = [line for line in result.output.splitlines() if "T008" in line]
    assert found[-1].endswith("(en): fr uses 'mot0'; the glossary's en term is 'word0'"), found


def test_a_term_written_again_is_one_term_of_the_table(monkeypatch):
    """Probe 36 H2: one 2,000-word form aliased by 900 terms was 1.8 million pieces, each
    added to a bit set as wide as the pieces before it (49 s, 930 MB). A term written again
    is laid out once, for all the terms that say it."""
    from toolkit.checks.translation import term_search

    added = [0]
    real = term_search._added

    def counted(*args):  # type: ignore[no-untyped-def]
        added[0] += 1
        return real(*args)

    monkeypatch.setattr(term_search, "_added", counted)
    table = term_search.finder(tuple(("a " * 1_000, group) for group in range(19)))
    assert added[0] <= 6 * 1_000  # its forms and what precedes it: 95,000 before (19×)
    assert list(table.ends.values()) == [(tuple(range(19)), 1_000)]
    assert term_search.groups_used(table, "a " * 1_000) == set(range(19))


def test_a_glossary_past_the_words_limit_is_looked_for_in_part_and_says_so(tmp_path, run_cli):
    from toolkit.checks.translation import term_search

    table = term_search.finder(tuple((f"w{i} x{i}", i) for i in range(15_000)))
    assert (table.words, table.left_out) == (30_000, 5_000)
    assert max(table.ends) < term_search.MAX_PIECES
    assert term_search.groups_used(table, "w9999 x9999 w10000 x10000") == {9_999}


def test_a_source_text_shared_by_many_cards_is_searched_once(tmp_path, run_cli, monkeypatch):
    """Probe 37 M1: 480 cards sharing one long source text (an alias), each with its own
    translations, searched the source 480 times (8 s). Each (language, text) once a run."""
    from toolkit.checks.translation import term_search  # the glossary check's walk

    game = _game_of_terms(tmp_path, 3)
    deck = game / "decks" / "cards.yaml"
    lines = deck.read_text().split("\n")
    head = lines[: lines.index("cards:") + 1]
    body = ["  - {id: c0, name: {fr: A, es: A, en: A}, text: {fr: &s mot0 mot1, es: a, en: a}}"]
    body += [
        f"  - {{id: c{i}, name: {{fr: A, es: A, en: A}}, text: {{fr: *s, es: b{i}, en: c{i}}}}}"
        for i in range(1, 40)
    ]
    deck.write_text("\n".join(head + body) + "\n")
    searched: list[str] = []
    real = term_search.groups_used

    def counted(table, text):  # type: ignore[no-untyped-def]
        searched.append(text)
        return real(table, text)

    monkeypatch.setattr(term_search, "groups_used", counted)
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    assert [d["code"] for d in json.loads(result.stdout)].count("T008") > 50  # 50 listed, and more
    assert searched.count("mot0 mot1") == 1, searched.count("mot0 mot1")  # 40 before
