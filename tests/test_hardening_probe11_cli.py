"""Eleventh hostile probe of issue #33, the commands surface."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.starter_games import engine_game as _game

APPLY = "        seat, game = self.seat, self.game\n"

SHORT_BOUND = (
    "import sys\n"
    "sys.argv[0] = 'playset'\n"
    "from toolkit.sim import deadline\n"
    "deadline.GAME_SECONDS = 0.5\n"
    "deadline.WATCH_GRACE = 0.2\n"
    "from toolkit.cli import main\n"
    "main()\n"
)


def _short_bound(*args: str, timeout: float = 40) -> subprocess.CompletedProcess[str]:
    """The CLI in its own process with a 0.5 s game bound (the hard stop ends a process)."""
    return subprocess.run(
        [sys.executable, "-c", SHORT_BOUND, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# An engine that retries with a bare `except:` swallowed the bound's GameTimeout (and
# Ctrl-C, and SIGTERM): simulate ran for ever. The watch thread raised once and gave up.
SWALLOWERS = {
    "sleep": "            try:\n                time.sleep(0.01)\n"
    "            except BaseException:\n                pass\n",
    "call": "            try:\n                sum(i for i in range(1000))\n"
    "            except:  # noqa: E722\n                pass\n",
}


@pytest.mark.parametrize(("name", "workers"), [("sleep", "1"), ("call", "1"), ("sleep", "2")])
def test_an_engine_that_swallows_the_time_bound_is_stopped(tmp_path, name, workers):
    body = f"{APPLY}        if self.turns > 3:\n          while True:\n{SWALLOWERS[name]}"
    game = _game(tmp_path, "import time\n", old=APPLY, new=body)
    started = time.monotonic()
    try:
        result = _short_bound("simulate", str(game), "-n", "3", "-p", "2", "--workers", workers)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: still running after 40 s (the bound is 0.5 s)")
    assert result.returncode == 1, (name, result.stdout, result.stderr)
    assert "E005" in result.stderr, result.stderr
    assert "engine.py:" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert time.monotonic() - started < 30, name


def test_an_engine_stuck_in_one_c_call_is_stopped(tmp_path):
    # sum() over a huge range is one C call that never looks at signals nor lets another
    # thread run: neither the timer signal nor the watch thread could stop it (hours)
    body = f"{APPLY}        if self.turns > 3:\n            sum(range(10**15))\n"
    game = _game(tmp_path, old=APPLY, new=body)
    try:
        result = _short_bound("simulate", str(game), "-n", "3", "-p", "2")
    except subprocess.TimeoutExpired:
        pytest.fail("still running after 40 s (the bound is 0.5 s)")
    assert result.returncode != 0, (result.stdout, result.stderr)
    # the interpreter's fault handler names where the engine was (no Python code can run)
    assert "engine.py" in result.stderr and "apply" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("command", "made"),
    [("validate", ""), ("simulate", ""), ("icons", ""), ("validate", "templates")],
)
def test_a_playset_home_without_templates_is_one_line(tmp_path, command, made):
    # PLAYSET_HOME naming a folder without the toolkit's templates was a FileNotFoundError
    # traceback (validate, build, simulate, export, i18n, icons: the fonts are read first);
    # an empty templates/ too (probe 12)
    game = _game(tmp_path)
    home = tmp_path / "home"
    (home / made).mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PLAYSET_HOME": str(home)}
    result = subprocess.run(
        [sys.executable, "-m", "toolkit", command, *([] if command == "icons" else [str(game)])],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    assert "PLAYSET_HOME" in result.stderr, result.stderr
