"""`validate` of several games checks them at once, each in a worker process forked from the
command (toolkit.validate_games, toolkit.forks): the same output, byte for byte, as
one game after another, with the cache and without, over the bundled games and every broken
fixture; a worker that dies or a check that raises is reported as without workers; Ctrl-C
and SIGTERM stop the workers with the command (no traceback, no process left)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from tests.test_check_plugins import _e008, _game, _installed
from tests.test_hardening_signals import _alive, _as_in_a_terminal, _children
from toolkit import forks, validate_games
from toolkit.content.game import bundled_games

BROKEN = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def broken_games(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Every broken fixture built once, as tests/test_fixtures.py builds it."""
    root = tmp_path_factory.mktemp("broken")
    return [str(build_case(case, root / case.name)) for case in BROKEN]


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Workers on (two, as on a 2-core machine, even inside a test runner's threads); each
    game's checks write the id of the process that ran them to the file returned."""
    monkeypatch.setenv("PLAYSET_WORKERS", "2")
    monkeypatch.setattr(forks, "available", lambda: True)
    monkeypatch.setattr(forks, "cores", lambda: 2)
    pids = tmp_path / "pids"
    real = validate_games._check

    def check(folder, *args, **kwargs):
        with pids.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {folder}\n")
        return real(folder, *args, **kwargs)

    monkeypatch.setattr(validate_games, "_check", check)
    return pids


def _checked_by(pids: Path) -> dict[str, int]:
    """Each game checked since the last call (its folder's name): the process that did."""
    lines = pids.read_text(encoding="utf-8").splitlines() if pids.exists() else []
    pids.unlink(missing_ok=True)
    return {Path(line.split(" ", 1)[1]).name: int(line.split(" ", 1)[0]) for line in lines}


def _both(run_cli, pids: Path, *args: str) -> tuple[tuple[int, str], tuple[int, str], dict]:
    """(exit code, output) with two workers, then one game after another; and who checked
    each game in the first run."""
    many = run_cli("validate", *args)
    checked = _checked_by(pids)
    one = run_cli("validate", *args, "--workers", "1")
    _checked_by(pids)
    return (many.exit_code, many.output), (one.exit_code, one.output), checked


def test_several_games_are_checked_in_worker_processes(run_cli, workers):
    games = sorted(bundled_games())
    result = run_cli("validate", *games, "--no-cache", "--format", "json")
    assert result.exit_code == 0, result.output
    checked = _checked_by(workers)
    assert sorted(checked) == games
    assert os.getpid() not in checked.values(), "checked in the command's own process"
    assert len(set(checked.values())) == 2, "two workers, one per core"


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_bundled_games_same_findings_as_one_after_another(run_cli, workers, fmt, monkeypatch):
    many, one, _ = _both(run_cli, workers, "--no-cache", "--format", fmt)
    assert many == one
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(workers.parent / "cache"))
    cold = run_cli("validate", "--format", fmt)
    assert (cold.exit_code, cold.output) == one
    assert len(set(_checked_by(workers).values()) - {os.getpid()}) == 2
    warm = run_cli("validate", "--format", fmt)
    assert (warm.exit_code, warm.output) == one
    assert not _checked_by(workers), "the warm run checked a game again"


@pytest.mark.slow  # ~10 s of CPU: 63 broken games checked four times
def test_broken_fixtures_same_findings_as_one_after_another(
    run_cli, workers, broken_games, monkeypatch
):
    many, one, checked = _both(run_cli, workers, *broken_games, "--no-cache", "--format", "json")
    assert many == one and one[0] == 1
    assert len(checked) == len(BROKEN) and os.getpid() not in checked.values()
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(workers.parent / "cache"))
    cold = run_cli("validate", *broken_games, "--format", "json")
    assert (cold.exit_code, cold.output) == one
    warm = run_cli("validate", *broken_games, "--format", "json")
    assert (warm.exit_code, warm.output) == one


def test_a_game_given_twice_is_checked_once_and_shown_twice(run_cli, workers, tmp_path):
    one = build_case(FIXTURES / "broken" / "double-space", tmp_path / "one")
    two = build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "two")
    args = (str(one), str(two), str(one), "--no-cache", "--format", "json")
    many, alone, checked = _both(run_cli, workers, *args)
    assert many == alone
    assert sorted(checked) == ["one", "two"]


def test_a_worker_that_dies_leaves_its_game_to_the_command(run_cli, workers, monkeypatch):
    # a check that ends its process (a crash, a plugin's os._exit) in a worker: the game is
    # checked again in the command's own process, with the same findings
    from toolkit.checks import run_checks

    command = os.getpid()

    def dying(game, *args, **kwargs):
        if os.getpid() != command and game.id == "tokaido":
            os._exit(3)
        return run_checks(game, *args, **kwargs)

    monkeypatch.setattr("toolkit.checks.run_checks", dying)
    many, one, checked = _both(run_cli, workers, "--no-cache", "--format", "json")
    assert many == one
    assert checked["tokaido"] == command
    assert checked["whisky-game"] != command


def test_a_check_that_raises_in_a_worker_is_the_same_e008(run_cli, workers, tmp_path, monkeypatch):
    first = _game(tmp_path / "a")
    second = _game(tmp_path / "b")
    body = "    print('said by the plugin')\n    raise RuntimeError('boom')\n"
    _installed(tmp_path, monkeypatch, body)
    many, one, checked = _both(run_cli, workers, str(first), str(second), "--no-cache")
    assert many == one
    assert many[0] == 1 and "Traceback" not in many[1]
    assert len(_e008(many[1])) == 2 and many[1].count("said by the plugin") == 2
    assert len(checked) == 1 and os.getpid() not in checked.values()


def test_one_worker_or_one_game_checks_in_the_command(run_cli, workers):
    assert run_cli("validate", "tokaido", "--no-cache").exit_code == 0
    assert list(_checked_by(workers).values()) == [os.getpid()]
    run_cli("validate", "tokaido", "muckle-stoater", "--no-cache", "--workers", "1")
    assert set(_checked_by(workers).values()) == {os.getpid()}


_SAYS_FORKS = """
import atexit, runpy, sys
sys.argv = ["__main__.py", *sys.argv[1:]]
atexit.register(lambda: print("forks imported:", "toolkit.forks" in sys.modules, file=sys.stderr))
runpy.run_module("toolkit", run_name="__main__")
"""


def test_a_validate_of_one_game_does_not_import_the_forks_module(tmp_path):
    """One game is checked in the command, whatever the workers asked: the module that
    starts children (and pickle, which it imports) is not imported for it."""
    env = {**os.environ, "PLAYSET_NO_CACHE": "1"}
    said = []
    for games in (["tokaido"], ["tokaido", "muckle-stoater"]):
        done = subprocess.run(
            [sys.executable, "-c", _SAYS_FORKS, "validate", *games, "--workers", "2"],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        said.append(done.stderr.strip().splitlines()[-1])
    assert said == ["forks imported: False", "forks imported: True"]


def _start(tmp_path: Path, games: list[str]) -> tuple[subprocess.Popen[str], set[int]]:
    """A real `playset validate` of `games` on two workers, once its workers run."""
    env = {k: v for k, v in os.environ.items() if k != "PLAYSET_WORKERS"}
    env["PLAYSET_NO_CACHE"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "validate", *games, "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
        preexec_fn=_as_in_a_terminal,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < 2 and process.poll() is None:
        workers = _children(process.pid)
        time.sleep(0.05)
    if len(workers) < 2:
        process.kill()
        process.communicate()
        pytest.fail("the workers never started")
    return process, workers


def _gone(workers: set[int]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    return not any(_alive(pid) for pid in workers)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("how", "code"),
    [("ctrl-c", 130), ("sigterm", 128 + signal.SIGTERM)],
)
def test_a_stop_ends_the_workers_with_the_command(tmp_path, broken_games, how, code):
    process, workers = _start(tmp_path, broken_games)
    if how == "ctrl-c":  # the terminal signals its whole foreground group
        os.killpg(process.pid, signal.SIGINT)
    else:  # `timeout`, `kill`: the command alone
        process.send_signal(signal.SIGTERM)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert process.returncode == code, err
    assert "Traceback" not in err, err
    assert _gone(workers), "workers left running"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_command_takes_its_workers_with_it(tmp_path, broken_games):
    process, workers = _start(tmp_path, broken_games)
    process.kill()
    process.communicate(timeout=30)
    assert _gone(workers), "orphaned workers"


def test_workers_are_bounded_by_the_cores_and_none_on_a_busy_machine(monkeypatch):
    monkeypatch.setattr(forks, "cores", lambda: 2)
    assert forks.workers(8) == 2 and forks.workers(1) == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 1.0, 1.0))
    assert forks.workers(None) == 2, "half a core idle or more: one worker per core"
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 3.0, 3.0))
    assert forks.workers(None) == 1, "a busy machine: one game after another"
    assert forks.workers(2) == 2, "unless asked for"


def test_the_modules_imported_before_forking_exist():
    import importlib.util

    missing = [m for m in validate_games.SHARED_MODULES if importlib.util.find_spec(m) is None]
    assert not missing


def test_a_workers_first_game_takes_the_code_part_the_lookups_hashed(run_cli, workers, monkeypatch):
    # each worker's first game reads and keeps its units under the code part that the
    # command's lookups hashed just before forking (nothing ran in the worker since); its
    # save, and any later game in that worker, hash it afresh. The cache's output and its
    # next (warm) run are as before.
    from toolkit.content import validate_cache

    hashed = workers.parent / "hashed"
    real = validate_cache.code_part

    def counted(stats):  # taken afresh: walked, or its record's stamps checked
        with hashed.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return real(stats)

    monkeypatch.setattr(validate_cache, "code_part", counted)
    one = run_cli("validate", "--no-cache", "--workers", "1", "--format", "json")
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(workers.parent / "cache"))
    hashed.unlink(missing_ok=True)
    cold = run_cli("validate", "--format", "json")
    assert (cold.exit_code, cold.output) == (one.exit_code, one.output)
    checked = _checked_by(workers)
    by_worker: dict[int, int] = {}
    for pid in checked.values():
        by_worker[pid] = by_worker.get(pid, 0) + 1
    assert len(by_worker) == 2 and os.getpid() not in by_worker
    counts = [int(line) for line in hashed.read_text(encoding="utf-8").split()]
    assert counts.count(os.getpid()) == 1, "the command hashes the code part once"
    for pid, games in by_worker.items():
        # its save hashes each game's code part; only the games after its first take it
        # afresh for their units (2 × games - 1, not 2 × games)
        assert counts.count(pid) == 2 * games - 1, (pid, games, counts)
    warm = run_cli("validate", "--format", "json")
    assert (warm.exit_code, warm.output) == (one.exit_code, one.output)
    assert not _checked_by(workers), "the warm run checked a game again"


def test_each_game_checked_is_handed_on_the_one_before_let_go_first(tmp_path: Path):
    """`validate` frees no game it checked last (the CLI's `outlive` holds it to the process's
    end, which frees nothing one object at a time); the game before is let go before the
    next is loaded, so one game at a time is held."""
    from toolkit.diagnostics import RuleSelection

    held: list[object] = []
    loaded: list[str] = []
    games = [bundled_games()[name] for name in ("whisky-game", "muckle-stoater")]
    from toolkit.content import game as game_module

    real_load = game_module.load_game

    def load(folder: Path, *args: object) -> object:
        loaded.append(f"load {folder.name} holding {len(held)}")
        return real_load(folder, *args)

    def outlive(value: object) -> None:
        held[:] = [] if value is None else [value]
        loaded.append(f"hand {getattr(value, 'root', None) and value.root.name}")

    mp = pytest.MonkeyPatch()
    mp.setattr(game_module, "load_game", load)
    try:
        validate_games.validate_games(
            games, RuleSelection(), ("select", "ignore"), None, 1, outlive=outlive
        )
    finally:
        mp.undo()
    assert loaded == [
        "hand None",
        "load whisky-game holding 0",
        "hand whisky-game",
        "hand None",
        "load muckle-stoater holding 0",
        "hand muckle-stoater",
    ]
    assert len(held) == 1 and held[0].root.name == "muckle-stoater"  # type: ignore[attr-defined]
