"""A language server killed with SIGKILL never ran its mirror's `close`: its mirror (up to
1 GB of copies for a game on another file system) stayed in the temporary folder for good.
Each mirror is locked while its server lives; the next server removes those no one holds."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.conftest import REPO
from toolkit.lsp import mirror
from toolkit.lsp.mirror import LOCK, PREFIX, Mirror, remove_stale_mirrors
from toolkit.scaffold.new import new_game


def _killed_servers_mirror(tmp: Path, game: Path) -> Path:
    """A mirror made by a process killed with SIGKILL (its `close` never ran)."""
    code = (
        "import os, signal, sys, tempfile\n"
        f"tempfile.tempdir = {str(tmp)!r}\n"
        "from pathlib import Path\n"
        "from toolkit.lsp.mirror import Mirror\n"
        f"m = Mirror(Path({str(game)!r})); m.sync()\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], env=env, timeout=60, check=False)
    assert done.returncode == -9
    [left] = [p for p in tmp.iterdir() if p.name.startswith(PREFIX)]
    assert (left / game.name / "game.yaml").exists()
    return left


def test_the_next_server_removes_a_killed_servers_mirror_and_no_live_one(tmp_path, monkeypatch):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    new_game(tmp_path / "g", "g", ["en"])
    left = _killed_servers_mirror(tmp, tmp_path / "g")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    live = Mirror(tmp_path / "g")  # a server running now
    try:
        assert not left.exists()
        assert live._base.exists()
        assert remove_stale_mirrors(tmp) == []  # held: left alone
        assert live._base.exists()
    finally:
        live.close()
    assert not live._base.exists()


def test_only_plain_folders_of_ours_past_the_grace_are_removed(tmp_path, monkeypatch):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / LOCK).write_text("")
    (tmp / f"{PREFIX}link").symlink_to(outside)  # a link named as a mirror: not followed
    fresh = tmp / f"{PREFIX}fresh"  # no lock yet: its server may be about to take it
    fresh.mkdir()
    old = tmp / f"{PREFIX}old"  # no lock and old: an earlier version's
    old.mkdir()
    past = time.time() - mirror.UNLOCKED_GRACE_S - 60
    os.utime(old, (past, past))
    assert remove_stale_mirrors(tmp) == [old]
    assert outside.exists() and (outside / LOCK).exists() and fresh.exists()
