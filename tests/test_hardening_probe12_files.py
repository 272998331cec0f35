"""Twelfth hostile probe (issue #33), files surface: what it found, each test red before its
fix."""

from __future__ import annotations

import os
import shutil
import tempfile

from toolkit.lsp.mirror import Mirror


def test_the_editor_s_mirror_clears_no_file_through_a_link_the_game_brings(
    tmp_path, monkeypatch
) -> None:
    # a folder of the game replaced by a relative link (a branch checked out while the
    # editor is open): dangling in the game, the same text named a folder of the user's
    # from the mirror, which sits at another depth, and the mirror removed the files it had
    # seen in the old folder through it (the user's `docs/notes.txt`)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "t"))
    (tmp_path / "t").mkdir()
    victim = tmp_path / "t" / "vhome" / "docs"
    victim.mkdir(parents=True)
    (victim / "notes.txt").write_text("precious")
    game = tmp_path / "a" / "b" / "game"
    (game / "zz" / "docs").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\n")
    (game / "zz" / "docs" / "notes.txt").write_text("old")
    mirror = Mirror(game)
    try:
        mirror.sync()
        assert (mirror.path / "zz" / "docs" / "notes.txt").read_text() == "old"
        shutil.rmtree(game / "zz")
        os.symlink("../../vhome", game / "zz")  # from the mirror: tmp_path/t/vhome
        assert not (game / "zz").exists()  # dangling in the game
        mirror.sync()
        assert (victim / "notes.txt").read_text() == "precious"
        # the mirror's link leads where the game's does: nowhere
        assert os.path.realpath(mirror.path / "zz") == os.path.realpath(game / "zz")
    finally:
        mirror.close()
    assert (victim / "notes.txt").exists()
