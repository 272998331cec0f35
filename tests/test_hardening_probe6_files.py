"""Findings of the sixth hostile-input probe of the file system (issue #33's re-probe): what a
game folder could still make Playset read, run or hold, each with its test."""

from __future__ import annotations

import os
from pathlib import Path

# --- F1: the caches' walk of the game folder ------------------------------------------------


def test_a_file_that_reads_past_its_size_is_not_read_on():
    # /proc files say size 0 and give bytes: /proc/self/pagemap linked into a game made
    # validate's findings cache read 6.6 GB in 30 s (and on); the build cache's walk the same
    from toolkit.content.validate_cache import StatCache, _Budget
    from toolkit.render.build_inputs import _tag

    assert StatCache().facts("/proc/self/status", _Budget()).tag.startswith("V")
    assert _tag("/proc/self/status")[0].startswith("V")


def test_a_regular_file_is_still_read_whole(tmp_path):
    from toolkit.content.validate_cache import StatCache, _Budget
    from toolkit.render.build_inputs import _tag

    path = tmp_path / "x.yaml"
    path.write_bytes(b"output: 1\n" * 300_000)  # 3 MB: more than one read
    facts = StatCache().facts(str(path), _Budget())
    assert facts.tag.startswith("F") and facts.mentions_output
    assert _tag(str(path)) == (facts.tag, True)


def _linked_out(tmp_path: Path) -> tuple[Path, Path]:
    """A game folder with a link to a folder of the user's and one to a file in it."""
    game, private = tmp_path / "game", tmp_path / "private"
    game.mkdir()
    private.mkdir()
    (game / "game.yaml").write_text("id: x\n")
    (private / "secret.txt").write_text("one")
    (game / "home").symlink_to(private)
    (game / "notes.txt").symlink_to(private / "secret.txt")
    (game / "fonts").mkdir()
    (game / "fonts" / "face.ttf").symlink_to(private / "secret.txt")
    return game, private


def test_the_caches_neither_follow_nor_read_a_link_out_of_the_game(tmp_path, monkeypatch):
    from toolkit.content import validate_cache
    from toolkit.render.build_inputs import game_files

    game, private = _linked_out(tmp_path)
    opened: list[str] = []
    real_open = os.open

    def spy(path, *args, **kwargs):
        opened.append(os.path.realpath(path) if isinstance(path, str | Path) else str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    stats = validate_cache.StatCache()
    before = validate_cache.inputs_digest(game, (), stats)
    units = validate_cache.units_digest(game, stats)
    files = game_files(game)
    monkeypatch.setattr(os, "open", real_open)
    assert before is not None and units is not None
    assert not [p for p in opened if p.startswith(str(private.resolve()))]
    assert "home/secret.txt" not in files
    assert "outside" in files["notes.txt"][1] and "outside" in files["home"][1]
    # what the user's file holds is no input: the keys stay as they were
    (private / "secret.txt").write_text("two")
    (private / "more.txt").write_text("three")
    assert validate_cache.inputs_digest(game, (), validate_cache.StatCache()) == before
    assert validate_cache.units_digest(game, validate_cache.StatCache()) == units
    assert game_files(game) == files
    # where the link leads is one
    (game / "notes.txt").unlink()
    (game / "notes.txt").symlink_to(private / "more.txt")
    assert validate_cache.inputs_digest(game, (), validate_cache.StatCache()) != before


def test_a_link_that_stays_inside_the_game_is_still_read(tmp_path):
    from toolkit.content import validate_cache

    game = tmp_path / "game"
    (game / "decks").mkdir(parents=True)
    (game / "decks" / "a.yaml").write_text("one")
    (game / "alias.yaml").symlink_to(game / "decks" / "a.yaml")
    before = validate_cache.inputs_digest(game, (), validate_cache.StatCache())
    (game / "decks" / "a.yaml").write_text("two")
    assert validate_cache.inputs_digest(game, (), validate_cache.StatCache()) != before
