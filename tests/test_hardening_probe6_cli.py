"""Sixth probe of issue 33, whole command flows with hostile or buggy engines and options:
results the report cannot count, engine output and folders, threads and loops outside a
game, concurrent printer saves, and arguments that named no file."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.starter_games import engine_game as _game

RETURNS = (
    "        return [1.0 / len(winners) if s in winners else 0.0 "
    "for s in range(len(self.points))]\n"
)


def test_returns_of_the_wrong_length_or_range_are_findings_not_a_balanced_report(tmp_path, run_cli):
    # returns() of one entry at a 3-player table: a report of "fair share 100%", balance
    # 1.00, and `check` said clean; NaN or ±1e308 made "-inf%" win rates, exit 0
    short = _game(tmp_path, old=RETURNS, new="        return [1.0]\n")
    result = run_cli("simulate", str(short), "-n", "5", "-p", "3")
    assert result.exit_code == 1 and "returns() has 1 entries for 3 players" in result.output
    result = run_cli("check", str(short), "-n", "10", "-p", "3")
    assert result.exit_code == 1 and "E004" in result.output
    for bad, said in (("float('nan')", "not a number"), ("-1e308", "1/k for k winners")):
        game = _game(tmp_path, old=RETURNS, new=f"        return [{bad}] * 3\n")
        result = run_cli("simulate", str(game), "-n", "5", "-p", "3")
        assert result.exit_code == 1 and said in result.output, result.output


def test_end_of_game_values_of_the_wrong_type_are_findings_not_tracebacks(tmp_path, run_cli):
    # each was a TypeError or OverflowError traceback from the report's totals
    cases = {
        "turns": ("", "        self.turns += 1\n", "        self.turns = None\n"),
        "roles": ("PlayState.roles = lambda self: [1, None]", "", ""),
        "first": ("PlayState.first_player = lambda self: 'x'", "", ""),
        "figure": ("PlayState.figures = lambda self: {'a': 10**400}", "", ""),
        "nan": ("PlayState.figures = lambda self: {'a': float('nan')}", "", ""),
    }
    for name, (extra, old, new) in cases.items():
        game = _game(tmp_path, extra, old, new)
        result = run_cli("simulate", str(game), "-n", "3", "-p", "2", "--json", str(tmp_path / "r"))
        assert result.exit_code == 1 and "E004" in result.output, (name, result.output)


def test_an_engines_prints_stay_out_of_the_machine_readable_report(tmp_path, run_cli):
    # print() at import and in apply came first in `check --format json|sarif`: unparseable
    extra = (
        "print('IMPORT SAYS hi')\n_apply = PlayState.apply\n\n\n"
        "def _noisy(self, action):\n    print('MOVE', action)\n    _apply(self, action)\n\n\n"
        "PlayState.apply = _noisy\n"
    )
    game = _game(tmp_path, extra)
    for args in (("-n", "10"), ("--contract", "-n", "30")):
        result = run_cli("check", str(game), *args, "--format", "json")
        json.loads(result.stdout)
        assert "MOVE" not in result.stdout and "IMPORT SAYS" not in result.stdout


def test_an_engine_that_changes_folder_does_not_move_the_report(tmp_path, run_cli, monkeypatch):
    # os.chdir() in compile_game wrote `--json rep.json` into the engine's folder
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    extra = (
        "import os\n_compile = compile_game\n\n\n"
        f"def compile_game(content):\n    os.chdir({str(elsewhere)!r})\n"
        "    return _compile(content)\n"
    )
    game = _game(tmp_path, extra)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = run_cli("simulate", os.path.relpath(game), "-n", "3", "--json", "rep.json")
    assert result.exit_code == 0, result.output
    assert (here / "rep.json").is_file() and not (elsewhere / "rep.json").exists()
    assert Path.cwd() == here
    result = run_cli(
        "sweep", os.path.relpath(game), "-n", "3", "--vary", "hand_size=2,3", "--json", "s.json"
    )
    assert result.exit_code == 0 and (here / "s.json").is_file(), result.output


def test_an_engine_thread_left_running_does_not_hang_the_command(tmp_path):
    # a non-daemon thread started at import: the report printed, then the process waited on
    # the thread for ever, deaf to Ctrl-C
    extra = (
        "import threading\nimport time\n\n\ndef _spin():\n    while True:\n"
        "        time.sleep(0.2)\n\n\nthreading.Thread(target=_spin).start()\n"
    )
    game = _game(tmp_path, extra)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "simulate", str(game), "-n", "3", "-p", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "thread(s) still running" in done.stderr
    assert time.monotonic() - started < 30


def test_a_huge_or_unprintable_engine_exception_is_said_short(tmp_path, run_cli):
    # a 20 MB message was kept and printed whole (4 GB, 200 MB of output); an exception whose
    # str() raises, or a BaseException, was a traceback
    cases = {
        "huge": "raise ValueError('x' * 1_000_000)",
        "nostr": "raise Evil()",
        "base": "raise Base('boom')",
    }
    classes = (
        "class Evil(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\n\n\n"
        "class Base(BaseException):\n    pass\n\n\n"
    )
    for name, statement in cases.items():
        extra = (
            f"{classes}def _apply(self, action):\n    {statement}\n\n\nPlayState.apply = _apply\n"
        )
        game = _game(tmp_path, extra)
        result = run_cli("simulate", str(game), "-n", "20", "-p", "2")
        assert result.exit_code == 1 and "E004" in result.output, (name, result.output[-500:])
        assert len(result.output) < 50_000, name
        assert name != "nostr" or "cannot be shown" in result.output
    compile_raises = _game(tmp_path, classes + "def compile_game(content):\n    raise Evil()\n")
    result = run_cli("simulate", str(compile_raises), "-n", "3")
    assert result.exit_code == 1 and "E001" in result.output


def test_engine_setup_hooks_that_raise_are_findings(tmp_path, run_cli):
    # cards_in_play raising or of the wrong type, a BOTS maker raising: tracebacks
    raising = _game(tmp_path, "Game.cards_in_play = lambda self, setup: 1 / 0\n")
    result = run_cli("simulate", str(raising), "-n", "3")
    assert result.exit_code == 1 and "E002" in result.output and "ZeroDivision" in result.output
    wrong = _game(tmp_path, "Game.cards_in_play = lambda self, setup: 5\n")
    result = run_cli("simulate", str(wrong), "-n", "3")
    assert result.exit_code == 1 and "E002" in result.output
    bots = _game(tmp_path, "BOTS = {'evil': lambda seat: 1 / 0}\n")
    for command in ("simulate", "replay"):
        result = run_cli(command, str(bots), "--bots", "evil")
        assert result.exit_code == 1 and "E001" in result.output, (command, result.output)
        assert "making the bot of seat 0" in result.output


def test_an_engine_that_loops_outside_a_game_is_stopped_at_its_line(tmp_path, run_cli, monkeypatch):
    # `while True: pass` at import, in compile_game or in cards_in_play hung for ever
    import toolkit.sim.deadline as deadline

    monkeypatch.setattr(deadline, "GAME_SECONDS", 0.5)
    cases = {
        "import": "while True:\n    pass\n",
        "compile": "def compile_game(content):\n    while True:\n        pass\n",
        "hook": "def _hook(self, setup):\n    while True:\n        pass\n\n\n"
        "Game.cards_in_play = _hook\n",
    }
    for name, extra in cases.items():
        game = _game(tmp_path, extra)
        result = run_cli("simulate", str(game), "-n", "3")
        assert result.exit_code == 1, (name, result.output)
        assert "still running after 0.5 s" in result.output, (name, result.output)


def _save_after_a_pause(folder: str, name: str) -> None:
    import toolkit.render.printers as printers

    read = printers.load_printers

    def slow(path=None):
        found = read(path)
        time.sleep(0.3)  # every saver has read the file before any writes it
        return found

    printers.load_printers = slow  # type: ignore[assignment]
    printers.save_printer(name, (1.0, 2.0), Path(folder) / "printers.yaml")


def test_printers_saved_at_once_are_all_kept(tmp_path):
    # eight `calibrate --save` at once: each said "saved", the file kept 4 of them
    context = multiprocessing.get_context("fork")
    savers = [
        context.Process(target=_save_after_a_pause, args=(str(tmp_path), f"p{i}")) for i in range(4)
    ]
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join(30)
    from toolkit.render.printers import load_printers

    assert sorted(load_printers(tmp_path / "printers.yaml")) == ["p0", "p1", "p2", "p3"]


def test_arguments_that_name_no_file_are_usage_errors(tmp_path, run_cli, monkeypatch):
    # convert --out '' or '.', a game name too long for the file system, add-language with
    # an empty game: ValueError / OSError tracebacks
    game = _game(tmp_path)
    monkeypatch.chdir(tmp_path)
    deck = str(game / "decks" / "cards.yaml")
    for out in ("", ".", "/"):
        result = run_cli("convert", deck, "--to", "csv", "--out", out)
        assert result.exit_code == 2 and "names no file" in result.output, (out, result.output)
    for command in ("validate", "build", "simulate", "list"):
        result = run_cli(command, "q" * 300)
        assert result.exit_code == 2 and "no bundled game or folder" in result.output, command
    result = run_cli("i18n", "add-language", "de", "")
    assert result.exit_code == 2 and "name the game" in result.output


def test_a_vary_path_below_a_number_is_a_finding(tmp_path, run_cli):
    # --vary hand_size.x=2,3: len() of an int, a TypeError traceback
    game = _game(tmp_path)
    result = run_cli("sweep", str(game), "-n", "3", "--vary", "hand_size.x=2,3")
    assert result.exit_code == 1 and "B101" in result.output
    result = run_cli("replay", str(game), "--set", "hand_size.x=3")
    assert result.exit_code == 1 and "B101" in result.output


def test_new_refuses_the_id_of_an_installed_game(tmp_path, run_cli):
    # `playset new whisky-game` wrote a game that the installed plugin's schema failed at once
    result = run_cli("new", "tokaido", "--into", str(tmp_path))
    assert result.exit_code == 2 and "id of an installed game" in result.output
    assert not (tmp_path / "tokaido").exists()


def test_ctrl_c_while_the_command_loads_is_no_traceback(tmp_path):
    # SIGINT in the first second (typer's and the toolkit's imports) printed a
    # KeyboardInterrupt traceback; here it arrives as typer starts to import
    script = (
        "import os, signal, sys\n"
        # as in a terminal: a process started in the background (CI's job) ignores SIGINT
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "sys.argv = ['playset', 'list']\n"
        "class Hook:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'typer':\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Hook())\n"
        "from toolkit.cli import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 130


def test_an_empty_preview_host_is_a_usage_error_not_every_address(tmp_path, run_cli):
    # `preview --host ''` listened on every address (the socket layer reads '' so), with only
    # a warning naming an empty host
    game = _game(tmp_path)
    result = run_cli("preview", str(game), "--host", " ", "--port", "0")
    assert result.exit_code == 2 and "--host is empty" in result.output, result.output
