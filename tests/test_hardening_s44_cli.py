"""Session 44, issue #33 (hardening), commands and signals: the twelfth probe's findings on
the commands surface (a Dask worker stuck in one C call, SIGHUP), each test red before its
fix."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.conftest import new_paused_at_its_third_file
from toolkit.scaffold.new import new_game

HEAD = "    def apply(self, action: int) -> None:\n"
SHORT_BOUND = (
    "from toolkit.sim import deadline as _dl\n\n_dl.GAME_SECONDS = 0.5\n_dl.WATCH_GRACE = 0.2\n"
)


def _engine_game(tmp_path, name, body, header=""):
    """A starter engine game whose apply runs `body` first; `header` goes at the top of
    engine.py (the bound is set from there, so that it holds in a Dask worker too)."""
    game = tmp_path / name
    new_game(game, name, ["en"], engine=True)
    engine = game / "engine.py"
    text = engine.read_text()
    text = text.replace(HEAD, HEAD + body, 1)
    text = text.replace("import random\n", "import random\n" + header, 1)
    engine.write_text(text)
    return game


def _playset(*args, timeout=60, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "toolkit", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        **kwargs,
    )


@pytest.mark.slow  # a LocalCluster's start (a few seconds) and the stuck worker's CPU bound
def test_a_dask_worker_stuck_in_one_c_call_is_stopped_and_reported(tmp_path):
    # `sum(range(10**15))` holds the interpreter in one C call: the watch thread never runs,
    # and the profiling timer that ends such a process was armed on the main thread only;
    # a Dask worker plays in a thread, so `simulate --dask local:1` ran for ever
    pytest.importorskip("distributed")
    body = "        if self.turns > 3:\n            sum(range(10**15))\n"
    game = _engine_game(tmp_path, "cc", body, SHORT_BOUND)
    start = time.monotonic()
    done = _playset("simulate", game, "-n", "3", "-p", "2", "--dask", "local:1", timeout=40)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "Traceback" not in said and "KilledWorker" not in said, said
    assert said.count("E004") == 1, said
    assert time.monotonic() - start < 30


def test_the_profiling_bound_is_held_while_any_thread_plays_and_cancelled_after_the_last():
    # one timer per process, several games at once in a threaded worker: armed in a thread
    # too (it was armed on the main thread only), cancelled only when the last game ends
    import signal
    import threading

    from toolkit.sim.deadline import game_deadline

    first_in, second_in, first_out, second_done = (threading.Event() for _ in range(4))
    seen = {}

    def first():
        with game_deadline(30):
            first_in.set()
            second_in.wait(5)
            seen["both"] = signal.getitimer(signal.ITIMER_PROF)[0]
        first_out.set()

    def second():
        first_in.wait(5)
        with game_deadline(30):
            second_in.set()
            first_out.wait(5)
            seen["second alone"] = signal.getitimer(signal.ITIMER_PROF)[0]
        second_done.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen["both"] > 0 and seen["second alone"] > 0, seen
    assert signal.getitimer(signal.ITIMER_PROF)[0] == 0


def test_an_engine_with_its_own_profiling_handler_stuck_in_one_c_call_is_stopped(tmp_path):
    # a sampling profiler's SIGPROF handler set at import: the fault handler chained to it
    # (a Python handler, which runs only between bytecodes), so the profiling timer never
    # ended the process: 13 minutes until SIGKILL
    header = SHORT_BOUND + "import signal\n\nsignal.signal(signal.SIGPROF, lambda *a: None)\n"
    _stuck_run_ends(tmp_path, "ph", header)


def _stuck_run_ends(tmp_path, name, header):
    """A run whose engine gets stuck in one C call (`header`: its bounds) ends with an error
    naming the engine's line, within 30 s."""
    body = "        if self.turns > 3:\n            sum(range(10**15))\n"
    game = _engine_game(tmp_path, name, body, header)
    try:
        done = _playset("simulate", game, "-n", "3", "-p", "2", timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("still running after 30 s (the bound is 0.5 s)")
    assert done.returncode != 0, done.stderr
    assert "engine.py" in done.stderr and "apply" in done.stderr, done.stderr


@pytest.mark.parametrize("ignored", [False, True])
def test_sighup_in_a_command_undoes_what_it_staged_as_sigterm_does(tmp_path, ignored):
    # a closed terminal (SIGHUP) killed every command where it stood: `playset new --engine`
    # hung up between two files left a half-made game the next `new` refused; it now stops
    # as SIGTERM does (exit 129, what was written taken back), unless SIGHUP is ignored, as
    # under `nohup`: then the command goes on to its end
    import signal

    def nohup():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    process = new_paused_at_its_third_file(tmp_path, 2, nohup if ignored else None)
    process.send_signal(signal.SIGHUP)
    _, err = process.communicate(timeout=20)
    assert b"Traceback" not in err
    if ignored:
        assert process.returncode == 0, err
        assert (tmp_path / "x" / "engine.py").is_file()
    else:
        assert process.returncode == 129, err
        assert not (tmp_path / "x").exists() or not any((tmp_path / "x").rglob("*"))


def test_a_percentage_target_for_a_game_figure_is_refused_with_both_readings():
    # `tune --objective figure.winning_margin=10%` tuned towards 0.1: a figure is the game's
    # own number, and Playset cannot know whether it is a share; `turns_median=10 %` said
    # "e.g. 10 " (the space kept)
    from toolkit.sim.options import SetupError
    from toolkit.sim.tune import parse_objective, parse_tolerance

    with pytest.raises(
        SetupError, match=r"figure.winning_margin is a figure .* \(10 as given, or 0.1"
    ):
        parse_objective("figure.winning_margin=10%")
    with pytest.raises(SetupError, match=r"figure"):
        parse_tolerance("figure.winning_margin", "5%")
    assert parse_objective("figure.winning_margin=0.1") == ("figure.winning_margin", 0.1)
    with pytest.raises(SetupError, match=r"e\.g\. 10$"):
        parse_objective("turns_median=10 %")


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_process_the_engine_forks_that_never_comes_back_ends_at_the_game_bound(tmp_path):
    # a fork in engine code whose child loops: the child kept its game's bound entry but no
    # watch thread ran in it and timers do not survive a fork, so it ran for ever, parented
    # to init, after the command exited 0
    pids = tmp_path / "pids"
    header = SHORT_BOUND + "import os\nimport time\n"
    body = (
        "        if self.turns == 3 and os.fork() == 0:\n"
        f"            with open({str(pids)!r}, 'a') as f:\n"
        "                f.write(f'{os.getpid()}\\n')\n"
        "            while True:\n"
        "                time.sleep(0.05)\n"
    )
    game = _engine_game(tmp_path, "fk", body, header)
    done = _playset("simulate", game, "-n", "2", "-p", "2", timeout=30)
    assert done.returncode == 0, done.stderr
    children = [int(pid) for pid in pids.read_text().split()]
    assert children
    end = time.monotonic() + 6
    try:
        while any(map(_alive, children)) and time.monotonic() < end:
            time.sleep(0.1)
        assert not [pid for pid in children if _alive(pid)], "the engine's children run on"
    finally:
        for pid in children:
            if _alive(pid):
                os.kill(pid, 9)


@pytest.mark.parametrize("signum", [2, 15])
def test_a_second_stop_ends_a_game_stuck_in_one_c_call(tmp_path, signum):
    # Python's handlers run between bytecodes only: an engine stuck in one C call held every
    # Ctrl-C and SIGTERM until the profiling bound (twenty minutes with the real bound)
    import signal

    stuck = tmp_path / "stuck"
    body = (
        "        if self.turns > 3:\n"
        f"            open({str(stuck)!r}, 'w').close()\n"
        "            sum(range(10**15))\n"
    )
    game = _engine_game(tmp_path, "c2", body)
    code = "import sys; from toolkit.cli import main; sys.argv[0] = 'playset'; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "simulate", str(game), "-n", "3", "-p", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    try:
        end = time.monotonic() + 30
        while not stuck.exists() and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(0.3)  # in the C call now
        process.send_signal(signum)
        time.sleep(0.5)
        assert process.poll() is None  # the first is Python's: it waits (as before)
        process.send_signal(signum)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail("a second signal did not end it")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode in (-signum, 128 + signum)


def test_an_engine_stuck_in_one_c_call_is_stopped_within_the_step_bound(tmp_path):
    # probe 21 M3: the last resort's CPU bound was twice the game's (600 s), not the step's
    # (60 s): an engine stuck in `sum(range(10**15))` ran twenty minutes, SIGTERM unheeded
    header = (
        "from toolkit.sim import deadline as _dl\n\n_dl.CALL_SECONDS = 0.5\n_dl.WATCH_GRACE = 0.2\n"
    )
    _stuck_run_ends(tmp_path, "st", header)
