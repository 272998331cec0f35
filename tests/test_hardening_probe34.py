"""Probe 34: the glossary check (T008) after its walk was rewritten."""

from __future__ import annotations

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
