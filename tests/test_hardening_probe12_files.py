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


def test_the_editor_takes_no_game_another_user_planted_in_a_shared_folder(
    tmp_path, monkeypatch
) -> None:
    # a one-line game.yaml another user put in /tmp made every document of the user's below
    # it part of "their" game: its files and links mirrored and checked (the commands pass
    # such a game.yaml over already)
    from toolkit.lsp.workspace import game_root

    shared = tmp_path / "ww"
    (shared / "mine").mkdir(parents=True)
    (shared / "game.yaml").write_text("id: x\n")
    document = shared / "mine" / "todo.yaml"
    document.write_text("k: v\n")
    assert game_root(document) == shared  # the user's own folder: a game
    os.chmod(shared, 0o1777)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(shared / "game.yaml").st_uid + 1)
    assert game_root(document) is None  # anyone's folder, another's game.yaml: not a game


def test_ctrl_c_during_a_set_s_renames_leaves_the_whole_new_set(tmp_path, monkeypatch) -> None:
    # Ctrl-C (or SIGTERM, made one) between two renames of an export's images left the set
    # part new, part old, and every staged file not yet renamed (531 of 543)
    import signal

    from toolkit import fileio

    out = tmp_path / "out"
    (out / "png").mkdir(parents=True)
    for n in range(30):
        (out / "png" / f"c{n}.png").write_bytes(b"old")
    real, renames = os.replace, []

    def interrupted(*args, **kwargs):
        renames.append(args)
        if len(renames) == 5:
            signal.raise_signal(signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(fileio.os, "replace", interrupted)
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C raises
    try:
        with fileio.StagedSet(out) as staged:
            for n in range(30):
                staged.add(out / "png" / f"c{n}.png", b"new")
    except KeyboardInterrupt:
        pass  # after the renames: the interrupt is acted on
    else:
        raise AssertionError("the interrupt was lost")
    finally:
        signal.signal(signal.SIGINT, handler)
    monkeypatch.undo()
    assert sorted(p.name for p in (out / "png").iterdir()) == sorted(f"c{n}.png" for n in range(30))
    assert {(out / "png" / f"c{n}.png").read_bytes() for n in range(30)} == {b"new"}
