"""A valid file's facts (toolkit.content.walk.collect: declared ids, references, localized
texts) are kept as a unit between `validate` runs, named by the bytes the file was parsed
from: read back, they are the facts a walk finds (each text the model's own mapping, with
the model that holds it), and after one card edit only the edited file is walked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_validate_cache_units import _edit_first_text, _run, cache  # noqa: F401
from toolkit.content import walk
from toolkit.content.game import bundled_games, load_game
from toolkit.content.unit_cache import Units, activated


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_kept_facts_are_the_facts_a_walk_finds(game):
    loaded = load_game(REPO / "content" / game)
    fresh = walk.collect(loaded)
    first = Units()
    with activated(first):
        assert walk.collect(loaded) == fresh
    assert first.used, "no file's facts kept"
    again = Units(dict(first.used))
    with activated(again):
        back = walk.collect(loaded)
    assert again.worked_out == 0, "a file walked again"
    assert back == fresh
    for text, was in zip(back.texts, fresh.texts, strict=True):
        assert text.value is was.value and text.owner is was.owner


def test_kept_facts_of_another_shape_are_walked_afresh():
    loaded = load_game(REPO / "content" / "whisky-game")
    fresh = walk.collect(loaded)
    first = Units()
    with activated(first):
        walk.collect(loaded)
    bad = {name: {"d": [], "r": [], "t": [["nowhere"]]} for name in first.used}
    bad.update(dict.fromkeys(list(first.used)[:1], None))
    units = Units(bad)
    with activated(units):
        assert walk.collect(loaded) == fresh
    assert units.worked_out == len(first.used)


def test_one_card_edit_walks_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    _run(str(copy))
    walked: list[str] = []
    real = walk._Walker.model

    def model(self: walk._Walker, value: object, path: tuple[object, ...]) -> None:
        if not path:
            walked.append(Path(self.file.rel).name)
        real(self, value, path)

    monkeypatch.setattr(walk._Walker, "model", model)
    deck = _edit_first_text(copy)
    edited = _run(str(copy))
    assert walked == [deck.name]
    assert edited == _run(str(copy), "--no-cache")
