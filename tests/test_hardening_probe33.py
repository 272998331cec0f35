"""Probe 33: checks whose work grew with the product of two parts of a game folder."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.conftest import FIXTURES, copy_game


def _many_kept_names(tmp_path: Path, names: int, cards: int) -> Path:
    """The base game with `names` two-letter glossary names spelt alike in every language,
    and `cards` cards sharing (one YAML alias) one text of all of them, left untranslated."""
    game = copy_game(FIXTURES / "base", tmp_path / "game")
    letters = "abcdefghijklmnopqrstuvwxyz"
    said = [a + b for a in letters for b in letters][:names]
    glossary = game / "glossary.yaml"
    glossary.write_text(
        glossary.read_text()
        + "".join(
            f"  - {{id: k{i}, text: {{fr: {n}, es: {n}, en: {n}}}}}\n" for i, n in enumerate(said)
        )
    )
    text = " ".join(said)
    deck = game / "decks" / "cards.yaml"
    lines = deck.read_text().split("\n")
    head = lines[: lines.index("cards:") + 1]
    said_all = f"{{fr: '{text}', es: '{text}', en: '{text}'}}"
    body = [f"  - {{id: c0, name: {{fr: A, es: A, en: A}}, text: &t {said_all}}}"]
    body += [f"  - {{id: c{i}, name: {{fr: A, es: A, en: A}}, text: *t}}" for i in range(1, cards)]
    deck.write_text("\n".join(head + body) + "\n")
    return game


def test_an_untranslated_text_looks_for_the_kept_names_in_one_walk(tmp_path, run_cli, monkeypatch):
    """H1: one pattern per kept name for each untranslated text: 1,333 names and 330 cards
    sharing one 4,000-character text took validate 96 s. The names are looked for in one
    walk of a text, and a text aliased at many places is looked at once."""
    game = _many_kept_names(tmp_path, 400, 30)
    patterns = [0]
    real = re.sub

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        patterns[0] += sys._getframe(1).f_code.co_filename.endswith("presence.py")
        return real(*args, **kwargs)

    monkeypatch.setattr(re, "sub", counted)
    from toolkit.checks.translation import glossary

    looked = [0]
    unmet = glossary._unmet

    def counted_unmet(*args, **kwargs):  # type: ignore[no-untyped-def]
        looked[0] += 1
        return unmet(*args, **kwargs)

    monkeypatch.setattr(glossary, "_unmet", counted_unmet)
    result = run_cli("validate", str(game), "--no-cache")
    assert "T004" not in result.output  # every word is a kept name: it may stay
    assert patterns[0] == 0  # a pattern per name and text: 24,000 (400 × 30 × 2 languages)
    assert looked[0] < 20  # the glossary check: the shared text once, not once per card
