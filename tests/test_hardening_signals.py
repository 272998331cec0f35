"""Hardening: Ctrl-C and SIGTERM stop `simulate` with workers cleanly, on a real process.

The first Ctrl-C stops the workers and prints the report of the games finished so far,
marked partial, exit 130; a second one ends at once; SIGTERM leaves no orphan worker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GAME = ["simulate", "muckle-stoater", "-n", "400000"]


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _as_in_a_terminal() -> None:
    """The child hears Ctrl-C as a command run in a terminal does. A job a non-interactive
    shell starts in the background (`.ci/run &`) inherits SIGINT ignored, and the simulation
    rightly leaves an ignored SIGINT ignored (as nohup asks)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _start(
    tmp_path: Path, *extra: str, wait: float = 1.0
) -> tuple[subprocess.Popen[str], set[int]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", *GAME, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=_as_in_a_terminal,
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    want = 2 if "--workers" in extra else 0
    while time.monotonic() < deadline and len(workers) < want:
        workers = _children(process.pid)
        time.sleep(0.1)
    assert len(workers) >= want, "the workers never started"
    if want:
        time.sleep(wait)  # some games finish
    else:  # on a loaded machine imports alone take seconds: wait for play, by CPU time
        while time.monotonic() < deadline and _cpu_seconds(process.pid) < 1.5 + wait:
            time.sleep(0.1)
    return process, workers


def _cpu_seconds(pid: int) -> float:
    """CPU time a process has used (user + system), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _finish(process: subprocess.Popen[str], workers: set[int]) -> tuple[int, str, str]:
    try:
        # 90 s: a hang, not a loaded machine (CI runs this beside the heaviest tests)
        out, err = process.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        process.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        pytest.fail("the simulation did not stop")
    time.sleep(0.2)
    assert not [pid for pid in workers if _alive(pid)], "orphaned workers"
    return process.returncode, out, err


def _check_partial(code: int, out: str, err: str, expect: int) -> None:
    assert code == expect, err
    assert "Traceback" not in err
    if "before any game finished" not in err:
        assert "interrupted: partial report of" in err
        assert "partial=" in out and "of 400000 games" in out


def test_first_ctrl_c_stops_workers_and_prints_a_partial_report(tmp_path):
    process, workers = _start(tmp_path, "--workers", "2", "--json", "r.json", wait=4)
    process.send_signal(signal.SIGINT)
    code, out, err = _finish(process, workers)
    _check_partial(code, out, err, 130)
    if "partial=" in out:
        assert '"partial"' in (tmp_path / "r.json").read_text()


def test_ctrl_c_without_workers_prints_a_partial_report(tmp_path):
    process, workers = _start(tmp_path)
    process.send_signal(signal.SIGINT)
    code, out, err = _finish(process, workers)
    _check_partial(code, out, err, 130)


def test_sigterm_leaves_no_orphan_workers(tmp_path):
    process, workers = _start(tmp_path, "--workers", "2")
    process.send_signal(signal.SIGTERM)
    code, out, err = _finish(process, workers)
    _check_partial(code, out, err, 128 + signal.SIGTERM)


def test_a_second_ctrl_c_ends_at_once(tmp_path):
    process, workers = _start(tmp_path, "--workers", "2")
    process.send_signal(signal.SIGINT)
    process.send_signal(signal.SIGINT)
    code, _, err = _finish(process, workers)
    assert code == 130 and "Traceback" not in err


def test_a_killed_main_process_takes_its_workers_with_it(tmp_path):
    process, workers = _start(tmp_path, "--workers", "2")
    process.kill()
    process.communicate(timeout=30)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)], "orphaned workers"


def test_a_closed_terminal_stops_the_run_as_sigterm_does(tmp_path):
    # SIGHUP (the terminal closed, an ssh session dropped) reaches the main process and its
    # workers (the terminal's process group): it killed the run where it stood, no report;
    # now the workers leave it to the main process, which stops as for SIGTERM (exit 129)
    process, workers = _start(tmp_path, "--workers", "2")
    for pid in (*workers, process.pid):
        os.kill(pid, signal.SIGHUP)
    code, out, err = _finish(process, workers)
    assert "E004" not in err, err
    _check_partial(code, out, err, 128 + signal.SIGHUP)
