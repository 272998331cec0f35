"""Issue #33, the thirteenth probe's findings (each test red before its fix): a folder
another user may change is no place for a new game nor for engine code Playset runs, and a
game's picture is never read from its output/ folder (validate's cache does not watch it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from toolkit.scaffold.new import ScaffoldError, new_game

OTHER_UID = 4242


def _chown_if_root(path, uid: int) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    os.chown(path, uid, uid)


# --- H1: `new` took an empty folder another user made in /tmp; that user then swapped the
# engine, and `simulate` ran their code in the user's account ------------------------------


def test_new_refuses_an_empty_folder_others_may_write(tmp_path):
    shared = tmp_path / "lantern-keepers"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(ScaffoldError, match="others may write"):
        new_game(shared, "lantern", ["en"], engine=True)
    assert not any(shared.iterdir())


def test_new_refuses_an_empty_folder_of_another_user(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    _chown_if_root(theirs, OTHER_UID)
    with pytest.raises(ScaffoldError, match="another user"):
        new_game(theirs, "lantern", ["en"], engine=True)


def test_an_engine_others_may_change_is_not_run(tmp_path, run_cli):
    game = tmp_path / "game"
    new_game(game, "demo", ["en"], engine=True)
    marker = tmp_path / "ran"
    engine = game / "engine.py"
    text = engine.read_text(encoding="utf-8")
    first = "from __future__ import annotations\n"
    assert first in text
    mark = f"{first}import pathlib\npathlib.Path({str(marker)!r}).write_text('x')\n"
    engine.write_text(text.replace(first, mark, 1))
    game.chmod(0o777)  # anyone may replace engine.py
    try:
        result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    finally:
        game.chmod(0o755)
    assert result.exit_code == 1, result.output
    assert "is not run" in result.output and "others may write" in result.output
    assert not marker.exists()
    again = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    assert again.exit_code == 0, again.output
    assert marker.exists()


def test_an_engine_file_of_another_user_is_not_run(tmp_path, run_cli, monkeypatch):
    game = tmp_path / "game"
    new_game(game, "demo", ["en"], engine=True)
    _chown_if_root(game / "engine.py", OTHER_UID)
    # root runs the games of the users it works for (a container on the host user's files)
    assert run_cli("simulate", str(game), "-n", "2", "-p", "2").exit_code == 0
    monkeypatch.setattr("toolkit.content.folders.os.geteuid", lambda: 1000)  # any other user
    result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    assert result.exit_code == 1 and "belongs to another user" in result.output, result.output


# --- M2: a picture read from output/ under a name that does not spell it: validate's cache
# (which leaves output/ out unless a file names it) kept findings no longer true ------------


def test_a_picture_in_the_output_folder_is_refused_however_it_is_spelt(tmp_path, run_cli):
    from PIL import Image

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    (game / "layouts" / "pic.yaml").write_text(
        "id: pic\nelements:\n  - kind: image\n    box: {x: 3, y: 3, w: -3, h: -3}\n"
        '    path: "\\u006Futput/pics/{{ card.id }}.png"\n',
        encoding="utf-8",
    )
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("size: poker", "size: poker\nlayout: pic", 1)
    )
    (game / "output" / "pics").mkdir(parents=True)
    for card in ("advance", "treasure", "rest"):
        Image.new("RGB", (200, 300), "red").save(game / "output" / "pics" / f"{card}.png")
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P004"]
    assert found and all("output/ folder" in d["message"] for d in found), result.output
    assert result.exit_code == 1


# --- L1: a rewritten game file (`i18n fix --write`) took the writer's group; a team sharing
# the game by its group lost the file -------------------------------------------------------


def test_a_rewritten_file_keeps_its_group(tmp_path):
    from toolkit.fileio import atomic_write_text

    deck = tmp_path / "cards.yaml"
    deck.write_text("id: cards\n", encoding="utf-8")
    deck.chmod(0o640)
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to any group")
    os.chown(deck, -1, OTHER_UID)
    atomic_write_text(deck, "id: cards2\n", inside=tmp_path)
    info = deck.stat()
    assert (info.st_gid, info.st_mode & 0o777) == (OTHER_UID, 0o640)
    assert deck.read_text(encoding="utf-8") == "id: cards2\n"


# --- content H1: R010's word measure parsed a whole rulebook before the size and markup
# bounds: 78 bytes printing `![` 3.8 M times cost 69 s of CPU ----------------------------


def test_the_printed_word_measure_runs_after_the_rulebook_bounds(tmp_path, run_cli, monkeypatch):
    from toolkit.render import rulebook_source

    def parse_everything(text):
        raise AssertionError(f"parsed {len(text):,} characters before the bounds")

    monkeypatch.setattr(rulebook_source, "_printed_blocks", parse_everything)
    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    (game / "rulebook" / "en.md").write_text(
        "# T\n\nxx\n\n{% for i in range(4) %}{{ '![' * 475000 }}{% endfor %}\n", encoding="utf-8"
    )
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "R010"]
    assert result.exit_code == 1 and found, result.output
    assert "parsed" not in result.output


def test_a_long_plain_word_is_refused_without_parsing(tmp_path, run_cli, monkeypatch):
    from toolkit.render import rulebook_source

    monkeypatch.setattr(rulebook_source, "_printed_blocks", None)  # not called
    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    (game / "rulebook" / "en.md").write_text("# T\n\n" + "ab" * 700 + "\n", encoding="utf-8")
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "R010"]
    assert found and "a word of 1,400 characters" in found[0]["message"], result.output


# --- commands M2: an engine's own KeyboardInterrupt in a Dask worker's thread was taken for
# Ctrl-C: it killed the worker (a 60-line traceback and the wrong E004) ----------------------


def test_a_keyboard_interrupt_raised_in_another_thread_is_the_engine_s(monkeypatch):
    import threading

    from toolkit.sim import signals

    monkeypatch.setattr(signals, "_STOP", [])
    seen = {}

    def play():
        seen["stop"] = signals.is_stop(KeyboardInterrupt())

    thread = threading.Thread(target=play)
    thread.start()
    thread.join(5)
    assert seen == {"stop": False}


# --- commands M3: `--dask tcp://…` with a relative game path: a remote worker loaded `.`
# of its own folder and the report of that game was printed under this one's name --------


def test_a_worker_loads_the_game_by_its_whole_path_and_says_when_it_reads_another(
    tmp_path, monkeypatch
):
    from toolkit.sim.engine import GameSetup
    from toolkit.sim.engines import EngineError
    from toolkit.sim.prepared import SimConfig, _loaded_here

    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    new_game(mine, "mine", ["en"], engine=True)
    new_game(theirs, "theirs", ["en"], engine=True)
    monkeypatch.chdir(tmp_path)
    config = SimConfig(Path("mine"), GameSetup(2, {}), game_id="mine")
    assert config.game_dir == mine  # whole: the same folder wherever the worker runs
    monkeypatch.chdir(theirs)  # a worker started in another game's folder
    assert _loaded_here(config)[0].game_id == "mine"
    elsewhere = SimConfig(theirs, GameSetup(2, {}), game_id="mine")
    with pytest.raises(EngineError, match="read the game 'theirs'"):
        _loaded_here(elsewhere)
    gone = SimConfig(tmp_path / "nowhere", GameSetup(2, {}), game_id="mine")
    with pytest.raises(EngineError, match="read no game"):
        _loaded_here(gone)


# --- commands M1: SIGHUP to the group under `--dask local:N` killed multiprocessing's
# resource tracker, whose relaunch printed a dozen KeyError tracebacks ---------------------


@pytest.mark.slow  # a LocalCluster's start (a few seconds)
def test_the_processes_of_a_local_cluster_ignore_hangups():
    pytest.importorskip("distributed")
    import subprocess
    import sys

    code = (
        "import signal\n"
        "from multiprocessing import resource_tracker\n"
        "from toolkit.sim.executors.base import Idle\n"
        "from toolkit.sim.executors.dask import _open\n"
        "signal.signal(signal.SIGHUP, lambda *a: None)\n"
        "with _open('local:1', 1, Idle()):\n"
        "    pid = resource_tracker._resource_tracker._pid\n"
        "    status = open(f'/proc/{pid}/status').read()\n"
        "    ignored = int(status.split('SigIgn:')[1].split()[0], 16)\n"
        "    blocked = int(status.split('SigBlk:')[1].split()[0], 16)\n"
        "    print('tracker ignores', bool((ignored | blocked) & 1))\n"
        "    print('ours', signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "tracker ignores True" in done.stdout and "ours True" in done.stdout, (
        done.stdout + done.stderr
    )


# --- content M2: a rules text with only some of the game's languages printed nothing in the
# others, while validate said clean ----------------------------------------------------------


def test_a_rules_text_missing_one_of_the_game_s_languages_is_t001(tmp_path, run_cli):
    game = tmp_path / "game"
    new_game(game, "demo", ["en", "fr"])
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "\nrules:\n" in text
    manifest.write_text(
        text.replace(
            "\nrules:\n",
            "\nrules:\n  intro: {en: Hello}\n  both: {en: Hi, fr: Salut}\n"
            "  dice: {red: d6, blu: d8}\n",
            1,
        ),
        encoding="utf-8",
    )
    result = run_cli("validate", str(game), "--format", "json")
    found = [(d["code"], d["message"]) for d in diagnostics_json(result.output)]
    assert found == [("T001", "`rules.intro` has no fr text")], result.output
