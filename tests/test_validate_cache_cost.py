"""What the findings cache costs a run: the code part (the toolkit's files, the templates,
the packages) is hashed once per game and once after its checks, not twice per game: a
lookup starts from the code part the save before it (or an answered lookup) hashed, since
nothing runs between them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.content import validate_cache


@pytest.mark.usefixtures("cache")
def test_the_code_part_is_hashed_once_per_game_and_after_its_checks(tmp_path, monkeypatch):
    games = [
        str(build_case(FIXTURES / "base", tmp_path / "one")),
        str(build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "two")),
        str(build_case(FIXTURES / "broken" / "double-space", tmp_path / "three")),
    ]
    hashed = [0]
    real = validate_cache.code_part

    def counted(stats):
        hashed[0] += 1
        return real(stats)

    monkeypatch.setattr(validate_cache, "code_part", counted)
    cold = _run(*games, "-f", "json")
    assert hashed[0] == 1 + len(games), "the first lookup, then each game's save"
    hashed[0] = 0
    assert _run(*games, "-f", "json") == cold
    assert hashed[0] == 1, "every game answered from the cache: one hash for all"
    assert cold == _run(*games, "-f", "json", "--no-cache")
    # a game edited between runs: checked again, with the same findings as without the cache
    deck = Path(games[1]) / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8") + "\n", "utf-8")
    hashed[0] = 0
    assert _run(*games, "-f", "json") == cold
    assert hashed[0] == 2, "one lookup's and the edited game's save"
