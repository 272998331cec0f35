"""A kept render's parts hold the indexes of their reads (rulebook_source._parts): after a
card edit, the edited deck's reads are taken by them (`_same_parts`), not by parting every
read of the render again; a kept value whose indexes are not its reads' is worked out
afresh."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_rulebook_reads import _game, _renders
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.render import rulebook_reads as reads
from toolkit.render import rulebook_source


@pytest.mark.usefixtures("cache")
def test_an_edited_deck_s_reads_are_taken_by_their_indexes(tmp_path, monkeypatch) -> None:
    game = _game(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    assert _run(str(game), "-f", "json")[0] == 0
    parted: list[int] = []
    real = reads.part_indexes

    def counted(made: list[Any], decks: set[str]) -> dict[str, list[int]]:
        parted.append(len(made))
        return real(made, decks)

    monkeypatch.setattr(reads, "part_indexes", counted)
    renders = _renders(monkeypatch)
    deck.write_text(text.replace("en: Move {steps} spaces.", "en: Move {steps} squares."), "utf-8")
    cached = _run(str(game), "-f", "json")
    assert renders == ["en"], "the French rulebook read back by its parts"
    assert len(parted) == 1, "parted once: the English render's reads, to keep them"
    assert cached == _run(str(game), "-f", "json", "--no-cache")


def _kept(parts: Any, made: int = 3) -> Any:
    return {"reads": [[[], "o", None]] * made, "digest": "d", "text": "t", "parts": parts}


@pytest.mark.parametrize("at", [[0, 3], [-1], [True], [0.0], "0", None, [[0]]], ids=repr)
def test_a_part_whose_indexes_are_not_its_reads_is_not_read_back(at) -> None:
    assert rulebook_source._kept_render(_kept({"d": ["f", "g", [0, 2]]}))[3] == {
        "d": ["f", "g", [0, 2]]
    }
    assert rulebook_source._kept_render(_kept({"d": ["f", "g", []]}))
    with pytest.raises(ValueError):
        rulebook_source._kept_render(_kept({"d": ["f", "g", at]}))
    with pytest.raises(ValueError):
        rulebook_source._kept_render(_kept({"d": ["f", "g"]}))
