"""Findings of the eleventh hostile probe of the file system (issue #33): what a game folder, a
local process racing a command, or a stop signal could still make Playset do, each with its
test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import new_paused_at_its_third_file
from toolkit.scaffold.new import new_game


def _game(folder: Path, languages: list[str] | None = None) -> Path:
    new_game(folder, "demo", languages or ["en"])
    return folder


# --- H1: an export's prune deleted files through a folder switched to a link -----------------
# `prune` listed the stale images of an export's folder, then removed each by its path: a
# folder of that listing switched to a link to a folder of the user's (a synced output folder,
# a local process) between the two had the user's files of the same names deleted
# (reproduced from the CLI: 3 of 2,000 pictures of a folder outside the output deleted by
# `export png` while a process swapped `png/old` for a link to it).


def _swap_after_listing(monkeypatch, folder: Path, victim: Path) -> None:
    """Switch `folder` for a link to `victim` once prune's walk has listed it."""
    from toolkit import fileio

    walk = fileio.walk_inside  # prune lists from descriptors (probe 15)

    def walk_then_swap(root, top):
        yield from walk(root, top)
        folder.rename(folder.with_name(folder.name + ".was"))
        folder.symlink_to(victim, target_is_directory=True)

    monkeypatch.setattr(fileio, "walk_inside", walk_then_swap)


def test_an_export_prune_deletes_nothing_through_a_folder_switched_to_a_link(
    tmp_path, run_cli, monkeypatch
):
    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    args = ["export", "png", str(game), "--out", str(out), "--dpi", "30", "--page-dpi", "30"]
    stale = out / "demo" / "en" / "png" / "old"
    stale.mkdir(parents=True)
    victim = tmp_path / "pictures"
    victim.mkdir()
    for name in ("holiday.png", "notes.json", "empty"):
        (stale / name).write_bytes(b"stale")
        (victim / name).write_bytes(b"the user's own")
    (victim / "empty").unlink()
    (victim / "empty").mkdir()  # an empty folder of the user's: not removed either
    (stale / "empty").unlink()
    (stale / "empty").mkdir()
    _swap_after_listing(monkeypatch, stale, victim)
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    assert (victim / "holiday.png").read_bytes() == b"the user's own"
    assert (victim / "notes.json").read_bytes() == b"the user's own"
    assert (victim / "empty").is_dir()


# --- H2: the layouts' labels were read again without the game folder's bound ----------------
# `i18n export/import/status` read each layout of `layouts/` for its `labels:` with
# `load_document(path)`, no `inside=`: a layout switched to a link out of the game after the
# listing was read (reproduced from the CLI with a process flipping the file: `i18n export`
# ended 6 times in 30 with "error: '/tmp/…/victim/lay.yaml' is not in the subpath of …", the
# outside file read, its path in an internal error).


def test_the_labels_of_a_layout_switched_to_a_link_are_not_read(tmp_path, monkeypatch):
    from toolkit.content import assets
    from toolkit.content.game import load_game
    from toolkit.i18n.units import labels

    game = _game(tmp_path / "game", ["en", "fr"])
    layout = game / "layouts" / "example-card.yaml"
    layout.write_text(layout.read_text() + "labels:\n  mine:\n    en: Mine\n    fr: Mienne\n")
    secret = tmp_path / "secret.yaml"
    secret.write_text("id: example-card\nlabels:\n  secret:\n    en: SECRET\n    fr: SECRET\n")
    loaded = load_game(game)
    listed = assets.in_game

    def list_then_swap(kind, root):
        found = listed(kind, root)
        layout.unlink()
        layout.symlink_to(secret)
        return found

    monkeypatch.setattr(assets, "in_game", list_then_swap)
    read = labels._layouts(loaded)  # neither a ValueError nor the secret file's labels
    assert all("SECRET" not in str(doc.data) for _, doc in read)


# --- M1: SIGTERM left what Ctrl-C takes back ----------------------------------------------------
# Ctrl-C (SIGINT) in `export png` removes the images it staged, in `playset new` the half-made
# game; SIGTERM (what `timeout`, a CI job's cancel, an editor's stop button or `kill` send)
# killed the process where it stood: `export png` of the Whisky Game stopped after 12 s left
# 368 staged `.…png.<8 hex>.tmp` files in the output folder (from the CLI); `playset new`
# stopped between two of its files (a window of milliseconds, widened here by a test hook)
# left a half-made game that the next `playset new` refused ("already exists"). Every
# command now takes SIGTERM as Ctrl-C and exits 143.


def _playset(*args: str, cwd: Path) -> subprocess.Popen:
    code = "import sys; from toolkit.cli import main; sys.argv[0] = 'playset'; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_sigterm_in_a_command_undoes_what_it_staged_as_ctrl_c_does(tmp_path):
    """A command that has started writing (here `new`, made slow at its 3rd file by a test
    hook) stopped by SIGTERM takes back what it wrote, exit 143, no traceback."""
    process = new_paused_at_its_third_file(tmp_path, 30)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=20)
    assert process.returncode == 143, err
    assert b"Traceback" not in err
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").rglob("*"))


def test_sigterm_before_a_command_loads_ends_it_quietly(tmp_path):
    """A guard (green before the fix too): while the modules load, SIGTERM keeps its default."""
    process = _playset("validate", cwd=tmp_path)
    time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=20)
    assert process.returncode in (143, -signal.SIGTERM), err
    assert b"Traceback" not in err


# --- M2: a full disk under the user cache ended every command in a traceback ---------------
# `folder_key` made a store's key with O_EXCL and wrote it: on a full disk (or a file size
# limit) the write failed at close and the OSError reached the user (`playset validate` and
# `build`: "OSError: [Errno 28] No space left on device", a tmpfs of 4 kB as PLAYSET_CACHE),
# and the empty key file it left was refused by every later run: that store stayed off for
# good, even with room again.


def _no_room() -> None:  # a child process: any file write past 0 bytes fails (EFBIG)
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_full_disk_under_the_user_cache_is_no_traceback(tmp_path):
    game = _game(tmp_path / "game")
    env = {**os.environ, "PLAYSET_CACHE": str(tmp_path / "cache")}
    env.pop("PLAYSET_NO_CACHE", None)
    code = "import sys; from toolkit.cli import main; sys.argv[0] = 'playset'; main()"
    command = [sys.executable, "-c", code, "validate", str(game)]
    full = subprocess.run(command, env=env, capture_output=True, text=True, preexec_fn=_no_room)
    assert "Traceback" not in full.stderr, full.stderr
    assert full.returncode == 0, full.stderr


def test_a_key_file_left_empty_by_a_full_disk_is_made_afresh(tmp_path):
    from toolkit import usercache

    folder = tmp_path / "store"
    folder.mkdir(mode=0o700)
    (folder / usercache.KEY_FILE).touch(mode=0o600)  # what the failed write left
    key = usercache.folder_key(folder)
    assert key is not None and len(key) == usercache.KEY_BYTES
    assert usercache.folder_key(folder) == key
    link = tmp_path / "linked"
    link.mkdir(mode=0o700)
    (link / usercache.KEY_FILE).symlink_to(folder / usercache.KEY_FILE)
    assert usercache.folder_key(link) is None  # a link is never followed nor replaced


# --- Low: `i18n import` deleted a designer's file named like a staged temporary --------------
# `journal.recover` (run by every i18n import, fix and add-language) removed any file of the
# game named `.<x>.<8 letters or digits>.tmp` older than ten minutes: `art/.sketch.20241201.tmp`
# was deleted silently (reproduced from the CLI). A staged file lies beside the file it
# replaces; one with nothing of that name beside it is left alone.


def test_recover_keeps_a_designers_file_named_like_a_temporary(tmp_path):
    from toolkit import journal

    old = time.time() - 3600
    art = tmp_path / "art"
    art.mkdir()
    mine = art / ".sketch.20241201.tmp"
    mine.write_text("my sketch")
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "cards.yaml").write_text("id: cards\n")
    staged = tmp_path / "decks" / ".cards.yaml.0a1b2c3d.tmp"  # a killed import's
    staged.write_text("half")
    for path in (mine, staged):
        os.utime(path, (old, old))
    journal.recover(tmp_path)
    assert mine.read_text() == "my sketch"
    assert not staged.exists()
