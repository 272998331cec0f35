"""Twelfth hostile probe (issue #33), commands surface: what it found, each test red before
its fix."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from toolkit.scaffold.new import new_game

pytest.importorskip("distributed")


def test_a_dask_worker_killed_by_the_engine_is_one_finding_not_a_traceback(tmp_path):
    # an engine that ends its process (a crash, SIGKILL) in a Dask worker: distributed's
    # KilledWorker reached the user as a 59-line traceback, after three retries
    game = tmp_path / "dk"
    new_game(game, "dk", ["en"], engine=True)
    engine = game / "engine.py"
    head = "    def apply(self, action: int) -> None:\n"
    kill = "        import os, signal\n\n        os.kill(os.getpid(), signal.SIGKILL)\n"
    engine.write_text(engine.read_text().replace(head, head + kill, 1))
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "simulate", str(game), "-n", "3", "-p", "2"]
        + ["--dask", "local:1"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 1, done.stderr
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "KilledWorker" not in said, said
    assert said.count("E004") == 1 and "worker process ended abruptly" in said, said
