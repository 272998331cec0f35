"""Seventh probe of issue 33, command flows with hostile or buggy engines and options: an
engine thread's prints in a machine-readable report, invariant messages kept whole or by
the million, an engine error inside a tune trial, a handler for Ctrl-C an engine switched
off, a repeated --objective, and a language-server message of 10¹¹ bytes."""

from __future__ import annotations

import json
import logging
import os
import signal
import threading

from tests.starter_games import engine_game as _game

INVARIANTS = "        total = len(self.game.deck)\n"


def test_an_engine_threads_prints_stay_out_of_the_machine_readable_report(tmp_path, run_cli):
    # a thread started at import printed whenever no redirect was in place (between hooks,
    # while the report was written): `check --format json` began with its lines
    stop = tmp_path / "stop"
    extra = (
        "import os\nimport sys\nimport threading\nimport time\n\n\ndef _talk():\n"
        f"    while not os.path.exists({str(stop)!r}):\n"
        "        if sys.stdout is not sys.stderr:  # outside the toolkit's redirect\n"
        "            print('THREAD NOISE')\n"
        "        time.sleep(0.001)\n\n\n"
        "threading.Thread(target=_talk, daemon=True).start()\n"
    )
    game = _game(tmp_path, extra)
    try:
        result = run_cli("check", str(game), "-n", "10", "-p", "2", "--format", "json")
    finally:
        stop.touch()
    assert "THREAD NOISE" not in result.stdout
    assert json.loads(result.stdout) == []


def test_invariant_messages_are_cut_short(tmp_path, run_cli):
    # a 10 MB message was printed whole in each E006: 50 MB of output for -n 10
    game = _game(tmp_path, old=INVARIANTS, new="        return ['x' * 1_000_000]\n")
    result = run_cli("check", str(game), "--contract", "-n", "10", "-p", "2")
    assert result.exit_code == 1 and "E006" in result.output
    assert len(result.output) < 20_000, len(result.output)


def test_invariant_messages_by_the_thousand_stop_the_game(tmp_path):
    # every entry of every invariant_errors() call of a game was kept: a million per call
    # ran for minutes and gigabytes before the 20-problem stop between games
    from toolkit.content.game import load_game
    from toolkit.sim.contract import contract_problems
    from toolkit.sim.engine import GameSetup
    from toolkit.sim.engines import compile_checked, engine_of

    folder = _game(tmp_path, old=INVARIANTS, new="        return [object()] * 5000\n")
    game = load_game(folder)
    engine = engine_of(game)
    assert engine is not None
    compiled = compile_checked(engine, game)
    problems = contract_problems(compiled, GameSetup(2), 5)
    assert 0 < len(problems) <= 1100, len(problems)  # 20 are reported


def test_an_engine_error_in_a_tune_trial_is_told_without_optunas_traceback(
    tmp_path, run_cli, monkeypatch
):
    # compile_game refusing a tried value went through study.optimize: Optuna logged
    # "Trial 0 failed …" with the whole traceback before the finding
    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    handler = Keep(logging.WARNING)
    logging.getLogger("optuna").addHandler(handler)
    try:
        game = _game(tmp_path)
        monkeypatch.chdir(game)
        result = run_cli(
            "tune",
            "-p",
            "2",
            "--param",
            "hand_size=a,b,c",
            "--objective",
            "turns_median=12",
            "--budget",
            "20",
            "-n",
            "10",
        )
    finally:
        logging.getLogger("optuna").removeHandler(handler)
    assert result.exit_code == 1 and "E001" in result.output, result.output
    assert "Traceback" not in result.output
    assert not [r for r in seen if "failed" in r.getMessage()], [r.getMessage() for r in seen]


def test_a_repeated_objective_is_refused(tmp_path, run_cli, monkeypatch):
    # the last --objective was kept silently: the first target was never searched
    monkeypatch.chdir(_game(tmp_path))
    result = run_cli(
        "tune",
        "--param",
        "hand_size=2..4",
        "--objective",
        "turns_median=12",
        "--objective",
        "turns_median=30",
    )
    assert result.exit_code == 2 and "--objective is given 2 times" in result.output


def test_an_engine_that_switches_ctrl_c_off_gets_it_back(tmp_path, run_cli):
    # signal.signal(SIGINT, SIG_IGN) at import left Ctrl-C ignored for the whole run
    record = tmp_path / "handlers.txt"
    extra = (
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "_apply = PlayState.apply\n\n\n"
        "def _apply_and_note(self, action):\n"
        f"    with open({str(record)!r}, 'a') as out:\n"
        "        ignored = signal.SIG_IGN in (signal.getsignal(signal.SIGINT),"
        " signal.getsignal(signal.SIGTERM))\n"
        "        out.write(f'{ignored}\\n')\n"
        "    _apply(self, action)\n\n\n"
        "PlayState.apply = _apply_and_note\n"
    )
    game = _game(tmp_path, extra)
    assert threading.current_thread() is threading.main_thread()
    # live, as in a terminal: a job started in the background (CI) inherits SIGINT ignored,
    # and putting back what was there then puts back SIG_IGN
    live = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        before = signal.getsignal(signal.SIGINT)
        result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    finally:
        after = signal.signal(signal.SIGINT, live)
    assert result.exit_code == 0, result.output
    noted = record.read_text().split()
    assert noted and set(noted) == {"False"}, set(noted)
    assert after is before  # the run put back the handler it found


def test_a_language_server_message_of_a_huge_length_ends_the_session_quietly(monkeypatch):
    # pygls allocated what Content-Length said: 10**11 bytes was a MemoryError traceback
    import io

    from toolkit.lsp.server import serve

    read, write = os.pipe()
    os.write(write, b"Content-Length: 1000000000000000\r\n\r\n{}")
    os.close(write)
    with open(read, "rb") as stdin:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(stdin))
        monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO()))
        serve()  # returns: no MemoryError
