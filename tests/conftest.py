"""Shared test helpers: run the CLI in-process, copy fixture games."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from toolkit.cli import app_for

# The suite runs on every core at once (`pytest -n auto`), often beside other work: a slow
# example or a slow draw then says how busy the machine is, not that the test is wrong.
settings.register_profile("playset", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("playset")

# Tests change the code under test (monkeypatch) between runs of `validate` on one game, and
# a findings cache keyed on files would answer for the code as it was: off unless a test
# turns it on (tests/test_validate_cache.py).
os.environ.setdefault("PLAYSET_NO_CACHE", "1")
# Tests count calls and patch the code in this process: `validate` of several games checks
# them here, one after another, unless a test asks for workers (tests/test_validate_games.py).
os.environ.setdefault("PLAYSET_WORKERS", "1")

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent


@pytest.fixture
def run_cli():
    """`playset ARGS` in this process, through the app `playset` itself would run (the one
    command named: the whole command line costs typer ~60 ms of CPU to convert on each run)."""
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app_for(list(args)), list(args), catch_exceptions=False)

    return run


MODELINE = re.compile(r"(# yaml-language-server: \$schema=)\S*?schemas/(\S+)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, the rest in their usual order, so that no worker finishes
    the run alone on the last of them. Under `-n auto` (xdist's default `--dist load`) the
    first worker's opening batch (an eighth of the suite on two workers) holds every slow test
    (~110 s of CPU of ~700), while the other takes the rest batch by batch; the batches shrink
    to a few short tests at the end, and both workers stop within seconds of each other."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def relink_modelines(folder: Path) -> Path:
    """Point the editor modelines of a game copied out of the checkout at the checkout's
    schemas (same lines, so positions do not move): a copy in a temporary folder has no
    schemas beside it, and `validate` warns about modelines that name missing schemas
    (R009)."""
    for path in folder.rglob("*.y*ml"):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        relinked = MODELINE.sub(
            lambda m: (
                m.group(1) + (REPO / "schemas" / m.group(2)).as_posix()
                if (REPO / "schemas" / m.group(2)).is_file()
                else m.group(0)
            ),
            text,
            count=1,
        )
        if relinked != text:
            path.write_text(relinked, encoding="utf-8")
    return folder


def copy_game(source: Path, target: Path) -> Path:
    """Copy a game folder (a bundled game, a fixture) with its modelines relinked."""
    shutil.copytree(source, target)
    return relink_modelines(target)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of the base fixture game for one test to change (a test file's own `game`
    fixture, where it has one, takes its place)."""
    root = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", root)
    return root


def build_case(case_dir: Path, target: Path) -> Path:
    """Copy the base fixture game to `target` and overlay a broken case's files."""
    shutil.copytree(FIXTURES / "base", target)
    for path in case_dir.rglob("*"):
        if path.is_file() and path.name != "expect.json":
            dest = target / path.relative_to(case_dir)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    return relink_modelines(target)


_VALIDATE_IMPORTING = """
import json, sys
prefix = sys.argv[2]
sys.argv = ["-c", "validate", sys.argv[1]]
from toolkit.cli import main
try:
    main()
except SystemExit as done:
    print(done.code)
print(json.dumps(sorted(m for m in sys.modules if m.startswith(prefix))))
"""


def validate_importing(game: Path, prefix: str) -> tuple[list[str], list[str]]:
    """What `validate game` prints in a process of its own, and the modules whose names start
    with `prefix` it imported."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _VALIDATE_IMPORTING, str(game), prefix],
        capture_output=True,
        text=True,
        check=True,
        cwd=game,
    )
    *said, modules = done.stdout.splitlines()
    return said, json.loads(modules)


def diagnostics_json(output: str) -> list[dict]:
    return json.loads(output) if output.strip() else []


@contextmanager
def preview_server_on_free_port(app) -> Iterator[int]:
    """Serve `app` with the preview's own uvicorn settings on a free local port, in a thread,
    so connection tests meet the guards the real preview has; yields the port."""
    from toolkit.preview.connections import PreviewServer, server_config

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    instance = PreviewServer(server_config(app))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not instance.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        instance.should_exit = True
        thread.join(10)
        sock.close()


def new_paused_at_its_third_file(tmp_path: Path, pause: float, preexec_fn=None):
    """`playset new x --engine` in a child process, made to pause `pause` seconds before its
    third file by a sitecustomize hook; returned once two files are written (for the tests
    that stop a command half-way by a signal)."""
    import subprocess
    import sys

    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import time, toolkit.fileio as f\n"
        "real = f.atomic_write_text\n"
        "count = [0]\n"
        "def slow(*a, **k):\n"
        "    count[0] += 1\n"
        "    if count[0] == 3:\n"
        f"        open({str(tmp_path / 'writing')!r}, 'w').close()\n"
        f"        time.sleep({pause!r})\n"
        "    return real(*a, **k)\n"
        "import toolkit.scaffold.new as n\n"
        "n.atomic_write_text = slow\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{hook}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    code = "import sys; from toolkit.cli import main; sys.argv[0] = 'playset'; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "new", "x", "--engine"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=preexec_fn,
    )
    deadline = time.monotonic() + 20
    while not (tmp_path / "writing").exists():
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert any((tmp_path / "x").rglob("*"))  # two files written
    return process
