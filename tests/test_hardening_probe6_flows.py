"""Sixth probe of issue 33, what the fifth left open: a game a killed import left half
changed read as the game, engine names printed as markup, an engine's os._exit(0) taken
for a pass, the language server's traceback for a negative position, a looping engine in a
thread worker never stopped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import polib
import pytest

from tests.conftest import REPO
from tests.starter_games import edit_engine as _engine_edit
from toolkit.journal import JOURNAL
from toolkit.scaffold.new import new_game


def _new_game(tmp_path: Path, languages: list[str] | None = None, engine: bool = False) -> Path:
    new_game(tmp_path / "demo", "demo", languages or ["en"], engine=engine)
    return tmp_path / "demo"


class _Killed(Exception):
    """Stands for kill -9: the import stops between two renames, nothing cleans up."""


def _killed_import(tmp_path: Path, run_cli, monkeypatch) -> tuple[Path, dict[str, str]]:
    """A two-language game whose `i18n import` of three changed files was stopped after
    the journal and one file were put in place; the new texts, by msgctxt."""
    game = _new_game(tmp_path, ["en", "fr"])
    po_path = tmp_path / "fr.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    po = polib.pofile(str(po_path))
    new = {
        "game.yaml:title": "Démo NOUVEAU",
        "decks/cards.yaml:cards[treasure].name": "Trésor NOUVEAU",
    }
    for entry in po:
        if entry.msgctxt in new:
            entry.msgstr = new[entry.msgctxt]
    po.save(str(po_path))
    real = os.replace
    calls = []

    def replace(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:  # 1: the journal, 2: a first file, 3: killed here
            raise _Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(_Killed):
        run_cli("i18n", "import", str(po_path), "--game", str(game))
    monkeypatch.setattr(os, "replace", real)
    return game, new


def _texts(game: Path) -> str:
    return "".join(
        p.read_text(encoding="utf-8")
        for p in sorted(game.rglob("*.yaml"))
        if "schemas" not in p.parts
    )


def test_a_game_a_killed_import_left_half_changed_is_refused_until_recovered(
    tmp_path, run_cli, monkeypatch
):
    # kill -9 between the journal's renames: validate said clean and build printed the mix
    # of new and old files until the next import finished the change
    game, new = _killed_import(tmp_path, run_cli, monkeypatch)
    journal = game / JOURNAL
    assert journal.is_file()
    texts = _texts(game)
    assert sum(text in texts for text in new.values()) == 1  # half: one file new, the rest old

    result = run_cli("validate", str(game))
    assert result.exit_code == 1
    assert f"{JOURNAL}:1:1: R011" in result.stdout
    assert f"playset i18n recover {game}" in result.stdout  # what to run

    result = run_cli("i18n", "recover", str(game))
    assert result.exit_code == 0, result.output
    assert "finished an interrupted write" in result.output
    assert not journal.exists()
    assert not list(game.rglob(".*.tmp"))
    texts = _texts(game)
    assert all(text in texts for text in new.values())  # the whole import, as staged
    assert run_cli("validate", str(game)).exit_code == 0
    assert "nothing to recover" in run_cli("i18n", "recover", str(game)).output


def test_every_reader_refuses_a_half_written_game_and_writes_nothing_into_it(
    tmp_path, run_cli, monkeypatch
):
    # the same interruption, made with the journal's own writer: build, export, simulate,
    # the preview and the language server (whose mirror of the folder holds no dot files)
    from toolkit.journal import write_journaled
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState
    from toolkit.preview.live import Preview

    game = _new_game(tmp_path)
    files = [
        (game / name, (game / name).read_bytes().replace(b"Demo", b"Changed"))
        for name in ("game.yaml", "glossary.yaml")
    ]
    real = os.replace
    calls = []

    def replace(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:
            raise _Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(_Killed):
        write_journaled(game, files)
    monkeypatch.setattr(os, "replace", real)
    untouched = {p: p.read_bytes() for p in game.rglob("*") if p.is_file()}

    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out))
    assert result.exit_code == 1 and "R011" in result.output
    assert not out.exists() or not any(out.rglob("*.pdf"))
    result = run_cli("i18n", "export", str(game), "--lang", "en")
    assert result.exit_code == 1 and "R011" in result.output
    result = run_cli("simulate", str(game), "-n", "10")
    assert result.exit_code == 1 and "R011" in result.output
    result = run_cli("i18n", "status", str(game))  # an empty table, exit 0
    assert result.exit_code == 1 and "R011" in result.output
    preview = Preview(game)
    preview.load()
    assert [d.code for d in preview.diagnostics] == ["R011"]
    state = GameState(Mirror(game))
    try:
        found = [d for ds in state.check().values() for d in ds]
    finally:
        state.mirror.close()
    assert [d.code for d in found] == ["R011"]
    assert {p: p.read_bytes() for p in game.rglob("*") if p.is_file()} == untouched


def test_a_journal_a_game_folder_brings_changes_nothing_outside_it(tmp_path, run_cli):
    # a downloaded game folder may hold a journal: as a link to a file of the user's, or
    # naming files outside the game; readers ignore it as recovery does, and recovery
    # writes nothing outside the game folder
    game = _new_game(tmp_path)
    outside = tmp_path / "mine.txt"
    outside.write_text("mine\n", encoding="utf-8")
    staged = tmp_path / ".mine.txt.abcdef12.tmp"
    staged.write_text("theirs\n", encoding="utf-8")
    entries = [[str(staged), str(outside)]]
    planted = tmp_path / "planted.json"
    planted.write_text(json.dumps(entries), encoding="utf-8")

    (game / JOURNAL).symlink_to(planted)
    assert run_cli("validate", str(game)).exit_code == 0
    assert run_cli("i18n", "recover", str(game)).exit_code == 0
    assert (game / JOURNAL).is_symlink() and outside.read_text(encoding="utf-8") == "mine\n"

    (game / JOURNAL).unlink()
    (game / JOURNAL).write_text(json.dumps(entries), encoding="utf-8")
    assert run_cli("validate", str(game)).exit_code == 0  # nothing of it is pending here
    assert run_cli("i18n", "recover", str(game)).exit_code == 0
    assert outside.read_text(encoding="utf-8") == "mine\n" and staged.exists()
    assert not (game / JOURNAL).exists()


FIGURES = '        return {"winning_margin": float(ranked[0] - ranked[1])}\n'
APPLY = "    def apply(self, action: int) -> None:\n"


def test_an_engines_figure_names_are_printed_as_written(tmp_path, run_cli):
    # `[bold red]RED[/bold red]` printed as a bold red RED, `[link=…]` as a link, and an ESC
    # in a name reached the terminal
    game = _new_game(tmp_path, engine=True)
    names = (
        '{"[bold red]RED[/bold red]": 1.0, "esc\\x1b[31mX": 2.0, "[link=http://x]c[/link]": 3.0}'
    )
    _engine_edit(game, FIGURES, f"        return {names}\n")
    result = run_cli("simulate", str(game), "-n", "10")
    assert result.exit_code == 0, result.output
    assert "[bold red]RED[/bold red]" in result.stdout
    assert "[link=http://x]c[/link]" in result.stdout
    assert "\x1b" not in result.stdout and "esc\\x1b[31mX" in result.stdout


def test_an_engine_calling_os_exit_in_play_is_a_finding_with_one_worker(tmp_path):
    # os._exit(0) in apply ended `simulate` (one worker: played in this process) with exit 0
    # and no output, a CI pass; with a pool it was already E004 (a worker died). Run in a
    # process of its own: before the fix it ended the test run too, with 0.
    game = _new_game(tmp_path, engine=True)
    _engine_edit(game, APPLY, APPLY + "        import os\n\n        os._exit(0)\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for args in (("simulate", "-n", "3"), ("check", "--contract")):
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", args[0], str(game), *args[1:]],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
        output = done.stdout + done.stderr
        assert done.returncode == 1, (args, output)
        assert "E004" in output and "os._exit(0) was called" in output, args


def test_os_exit_outside_an_engines_code_still_ends_the_process(tmp_path):
    # the guard is for the threads running an engine: the toolkit's own hard exit (a second
    # Ctrl-C) and another thread's exit go through while a game is played
    code = (
        "import os, threading\n"
        "from toolkit.sim.exits import refuse_exit\n"
        "playing = threading.Event()\n"
        "def play():\n"
        "    with refuse_exit():\n"
        "        playing.set()\n"
        "        threading.Event().wait(30)\n"
        "threading.Thread(target=play, daemon=True).start()\n"
        "playing.wait()\n"
        "os._exit(7)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, timeout=30)
    assert done.returncode == 7


LSP_REQUESTS = ("textDocument/hover", "textDocument/completion", "textDocument/definition")


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_the_language_server_answers_a_negative_position_with_an_error(tmp_path):
    # a position of line -1 printed two tracebacks on the server's stderr and left the
    # request unanswered (the editor waited for ever)
    game = _new_game(tmp_path)
    uri = (game / "decks" / "cards.yaml").as_uri()
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    ]
    for n, method in enumerate(LSP_REQUESTS, start=2):
        params = {"textDocument": {"uri": uri}, "position": {"line": -1, "character": -1}}
        messages.append({"jsonrpc": "2.0", "id": n, "method": method, "params": params})
    bad_range = {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}
    messages.append(  # a notification too: dropped, no traceback
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"range": bad_range, "text": "x"}],
            },
        }
    )
    messages += [
        {"jsonrpc": "2.0", "id": 90, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "lsp"],
        input=b"".join(_frame(m) for m in messages),
        capture_output=True,
        timeout=60,
        env=env,
    )
    replies = {}
    data = done.stdout
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        fields = dict(line.split(b": ", 1) for line in head.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        reply = json.loads(rest[:length])
        replies[reply.get("id")] = reply
        data = rest[length:]
    for n in range(2, 2 + len(LSP_REQUESTS)):
        assert replies[n]["error"]["code"] == -32602, replies.get(n)
        assert "Position.line" in replies[n]["error"]["message"]
    assert 90 in replies  # the session went on
    stderr = done.stderr.decode()
    assert "Traceback" not in stderr, stderr
    assert stderr.count("refused") == len(LSP_REQUESTS) + 1


LEGAL = '        """An action is the index (in card_names) of a card in the hand to play."""\n'


def test_an_engine_looping_in_a_thread_worker_is_stopped_by_the_game_bound(tmp_path, monkeypatch):
    # a Dask worker plays in a thread of its pool, where no timer signal reaches: a hook
    # looping for ever (`while True: pass` in legal_actions) was checked between moves
    # only, so the worker, and the run waiting for it, never ended
    import toolkit.sim.deadline as deadline
    from toolkit.sim.engine import GameSetup
    from toolkit.sim.engines import EngineError
    from toolkit.sim.prepared import SimConfig, prepare
    from toolkit.sim.runner import play_one

    monkeypatch.setattr(deadline, "GAME_SECONDS", 0.3)
    game = _new_game(tmp_path, engine=True)
    _engine_edit(game, LEGAL, LEGAL + "        while True:\n            pass\n")
    config = SimConfig(game, GameSetup(2), games=1)
    (compiled, bots), _ = prepare(config)
    outcome: list[BaseException | object] = []

    def work() -> None:
        try:
            outcome.append(play_one(compiled, config.setup, bots, 0, 0))
        except BaseException as exc:  # noqa: BLE001 - what the worker hands back
            outcome.append(exc)

    worker = threading.Thread(target=work, daemon=True)  # a loop left running is no harm
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "the looping game was not stopped in its thread"
    (found,) = outcome
    assert isinstance(found, EngineError) and found.diagnostic.code == "E005"
    assert "still not over after 0.3 s" in found.diagnostic.message


def test_a_game_that_ends_in_a_thread_is_never_interrupted_afterwards(tmp_path):
    # the timer that raises in the thread is taken back with the game: nothing is raised
    # in the thread after its game returned, even when the bound passes later
    import time

    import toolkit.sim.deadline as deadline

    errors: list[BaseException] = []

    def work() -> None:
        try:
            with deadline.game_deadline(0.2):
                pass
            time.sleep(0.5)  # past the bound, outside the game
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(5)
    assert errors == []
