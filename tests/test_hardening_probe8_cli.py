"""Eighth probe of issue 33, commands, engines and servers: an engine writing to the
process's stdout by other paths than print() (a file descriptor, sys.__stdout__, a child
process, at exit), names the report cannot encode, an engine switching the time bound
off through SIGALRM, tune ranges past the float range, a language-server client sending
header lines by the hundred thousand, and the preview's exit code on Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from tests.starter_games import engine_game as _game

APPLY = "        seat, game = self.seat, self.game\n"
EVENTS = '    event_names = ("reshuffles", "extra_draws")\n'
FIGURES = '        return {"winning_margin": float(ranked[0] - ranked[1])}\n'


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolkit", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


NOISY_TOP = (
    "import atexit\nimport os\nimport subprocess\nimport sys\n\n"
    "os.write(1, b'FD NOISE\\n')\n"
    "print('DUNDER NOISE', file=sys.__stdout__)\n"
    "subprocess.run(['echo', 'CHILD NOISE'], check=False)\n"
    "atexit.register(lambda: print('ATEXIT NOISE'))\n\n\n"
    "class _Talker:\n    def __del__(self):\n        print('DEL NOISE')\n\n\n"
    "_KEPT = _Talker()\n"
)


def test_an_engine_writing_to_stdout_by_any_path_leaves_the_json_readable(tmp_path):
    # print() was redirected, but os.write(1, …), sys.__stdout__, a child process and
    # prints at exit reached the report: `check -f json` was not JSON any more
    game = _game(tmp_path, NOISY_TOP, old=APPLY, new=APPLY + "        os.write(1, b'MOVE\\n')\n")
    done = _cli("check", str(game), "-n", "10", "-p", "2", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
    for noise in ("FD NOISE", "DUNDER NOISE", "CHILD NOISE", "ATEXIT NOISE", "DEL NOISE"):
        assert noise in done.stderr  # still shown, beside the report


def test_pool_workers_writing_to_stdout_leave_the_sarif_readable(tmp_path):
    game = _game(
        tmp_path,
        "import os\n",
        old=APPLY,
        new=APPLY + "        os.write(1, b'WORKER NOISE\\n')\n",
    )
    done = _cli("check", str(game), "-n", "10", "-p", "2", "--format", "sarif", "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["version"] == "2.1.0"
    assert "WORKER NOISE" not in done.stdout


def test_names_the_report_cannot_encode_are_the_engines_finding(tmp_path, run_cli):
    # a lone surrogate in an event or figure name was a UnicodeEncodeError traceback when
    # the JSON was written (simulate --json, sweep --json)
    cases = {
        "event": (EVENTS, '    event_names = ("re" + chr(0xDC80), "extra")\n', "E002"),
        "figure": (FIGURES, '        return {"w" + chr(0xDC80): 1.0}\n', "E004"),
    }
    for name, (old, new, code) in cases.items():
        game = _game(tmp_path, old=old, new=new)
        out = tmp_path / f"{name}.json"
        result = run_cli("simulate", str(game), "-n", "5", "-p", "2", "--json", str(out))
        assert result.exit_code == 1, (name, result.output)
        assert code in result.output and "engine.py" in result.output, name


def test_engine_figures_and_event_names_are_bounded(tmp_path, run_cli):
    # a million-value figure, or names by the hundred thousand, cost minutes and GB
    cases = {
        "values": (FIGURES, "        return {'w': tuple(range(1_000_000))}\n", "E004"),
        "figures": (FIGURES, "        return {f'f{i}': 1.0 for i in range(100_000)}\n", "E004"),
        "long name": (FIGURES, "        return {'f' * 100_000: 1.0}\n", "E004"),
        "events": (EVENTS, "    event_names = tuple(f'e{i}' for i in range(100_000))\n", "E002"),
    }
    for name, (old, new, code) in cases.items():
        game = _game(tmp_path, old=old, new=new)
        # CPU time, not wall: on 2 shared cores under xdist the wall time doubles
        started = time.process_time()
        result = run_cli("simulate", str(game), "-n", "20", "-p", "2")
        assert result.exit_code == 1, (name, result.output[-500:])
        assert code in result.output, (name, result.output[-500:])
        assert time.process_time() - started < 6, name
        assert len(result.output) < 20_000, name


def test_an_engine_touching_sigalrm_still_meets_the_game_bound(tmp_path, run_cli, monkeypatch):
    # the bound was a SIGALRM timer only: an engine that ignored SIGALRM, cancelled the
    # timer or set an alarm of its own, then looped, ran for ever
    from toolkit.sim import deadline

    monkeypatch.setattr(deadline, "GAME_SECONDS", 0.5)
    monkeypatch.setattr(deadline, "WATCH_GRACE", 0.5)
    loops = {
        "ignored": "signal.signal(signal.SIGALRM, signal.SIG_IGN)",
        "cancelled": "signal.setitimer(signal.ITIMER_REAL, 0)",
        "own": "signal.signal(signal.SIGALRM, lambda *a: None)\n            signal.alarm(100)",
    }
    try:
        for name, line in loops.items():
            body = (
                f"{APPLY}        if self.turns > 3:\n            {line}\n"
                "            while True:\n                pass\n"
            )
            game = _game(tmp_path, "import signal\n", old=APPLY, new=body)
            started = time.monotonic()
            result = run_cli("simulate", str(game), "-n", "3", "-p", "2")
            assert result.exit_code == 1, (name, result.output)
            assert "E005" in result.output and "still not over" in result.output, name
            # the bound is 1 s a game; 20 s of wall leaves room for a loaded machine and
            # still fails an engine that runs for ever
            assert time.monotonic() - started < 20, name
    finally:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_tune_ranges_past_the_float_range_are_usage_errors(tmp_path, run_cli, monkeypatch):
    # nan passed the LO < HI test; ±inf and a range wider than the float range reached the
    # sampler: numpy's OverflowError traceback
    monkeypatch.chdir(_game(tmp_path))
    for spec in ("nan..4", "-inf..4", "2..inf", "-1e308..1e308", "0..1" + "0" * 400):
        result = run_cli(
            "tune",
            "--param",
            f"hand_size={spec}",
            "--objective",
            "turns_median=12",
            "--budget",
            "2",
            "-n",
            "10",
            "-p",
            "2",
        )
        assert result.exit_code == 2, (spec, result.output)
        assert "--param" in result.output, spec


def test_the_language_server_reads_many_header_lines_quickly():
    # pygls read each header line through its thread pool, ~0.4 ms a line: 200,000 lines
    # (1.2 MB) kept the server busy 80 s
    import io

    from toolkit.lsp.server import _BoundedInput

    noise = b"X-Noise: y\r\n" * 100_000 + b"\r\n" * 100_000
    stream = _BoundedInput(io.BytesIO(noise + b"Content-Length: 2\r\n\r\n{}"))
    lines = []
    while line := stream.readline():
        lines.append(line)
        if not line.strip() and len(lines) > 1:
            break
    assert lines == [b"Content-Length: 2\r\n", b"\r\n"]
    assert stream.read(2) == b"{}"


def test_preview_says_its_address_at_once_and_exits_130_on_ctrl_c(tmp_path):
    # the address line stayed in the buffer of a piped stdout (a program starting
    # `preview --port 0` could not learn the port), and Ctrl-C ended it with exit 0
    import threading

    game = _game(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "preview", str(game), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a terminal's Ctrl-C: background jobs inherit SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.default_int_handler),
    )
    lines: list[str] = []
    assert process.stdout is not None
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()))
    reader.start()
    try:
        reader.join(60)  # generous: at load 12 on 2 cores the start alone took seconds
        assert lines and "Preview of" in lines[0], lines
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "preview stopped" in err


def test_a_starter_engine_refuses_a_hand_size_past_its_deck(tmp_path, run_cli):
    # `--vary hand_size=1e308` made the starter engine draw until the 600 s game bound
    game = _game(tmp_path)
    started = time.process_time()  # CPU, not wall: the machine may be loaded
    result = run_cli("replay", str(game), "-p", "2", "--set", "hand_size=1e308")
    assert result.exit_code == 1, result.output
    assert "hand_size" in result.output and "E001" in result.output
    assert time.process_time() - started < 5
