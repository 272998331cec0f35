"""The game bound's watch: one thread per process, not one per game (a thread started per
game cost a fast engine a sixth of its games on a loaded machine), and still working in a
forked worker and for a game in a thread."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from toolkit.sim import deadline


def test_a_game_bound_starts_no_thread_per_game():
    with deadline.game_deadline():  # the process's watch thread, started once
        pass
    before = threading.enumerate()
    for _ in range(3):
        with deadline.game_deadline():
            assert threading.enumerate() == before


def test_a_bound_that_passes_raises_in_the_thread_and_never_after_its_block():
    with pytest.raises(deadline.GameTimeout), deadline._raise_in_thread_after(0.1):
        while True:
            pass
    with deadline._raise_in_thread_after(0.05):
        pass
    time.sleep(0.2)  # past that bound, outside its block: nothing raised


def test_an_earlier_bound_than_the_watch_waits_for_still_fires():
    with (
        deadline._raise_in_thread_after(600),  # the watch now sleeps ~600 s
        pytest.raises(deadline.GameTimeout),
        deadline._raise_in_thread_after(0.1),
    ):
        while True:
            pass


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_the_bound_holds_in_a_forked_worker():
    with deadline.game_deadline():  # the parent's watch thread exists before the fork
        pass
    pid = os.fork()
    if pid == 0:  # the child: threads do not survive a fork, the watch must start again
        code = 1
        try:
            with deadline._raise_in_thread_after(0.1):
                while True:
                    pass
        except deadline.GameTimeout:
            code = 0
        finally:
            os._exit(code)
    end = time.monotonic() + 5
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child's loop was never stopped")


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX bounds")


def _toy_game():
    from tests.toy_game import ToyGame
    from toolkit.sim.bots import RandomBot
    from toolkit.sim.engine import GameSetup

    return ToyGame(), GameSetup(2), [RandomBot(), RandomBot()]


def test_a_game_in_the_main_thread_reads_no_clock_between_moves(monkeypatch):
    # the timer signal and the watch thread bound it: a clock read per move was a Python
    # call each move for nothing
    from toolkit.sim import runner

    def clock_read(end: float) -> None:
        raise AssertionError("check_deadline called in the main thread")

    monkeypatch.setattr(runner, "check_deadline", clock_read)
    compiled, setup, bots = _toy_game()
    record = runner.play_one(compiled, setup, bots, 0, 0)
    assert record.failure is None and record.moves > 0


def test_a_game_in_a_thread_is_still_checked_between_moves(monkeypatch):
    from toolkit.sim import runner

    checks: list[float] = []
    monkeypatch.setattr(runner, "check_deadline", checks.append)
    compiled, setup, bots = _toy_game()
    records: list[object] = []
    worker = threading.Thread(
        target=lambda: records.append(runner.play_one(compiled, setup, bots, 0, 0))
    )
    worker.start()
    worker.join(10)
    (record,) = records
    assert len(checks) == record.moves > 0  # type: ignore[attr-defined]
