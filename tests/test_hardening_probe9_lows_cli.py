"""Ninth probe of issue 33, the Lows of the commands surface: non-finite numbers refused at
the option that takes them, messages that name the right option, empty lists refused, one
reader of PLAYSET_NO_CACHE, engine API oddities as findings, the language server's signals."""

from __future__ import annotations

import pytest

from tests.starter_games import engine_game as _game


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("sweep", "--vary", "hand_size=nan,inf"), "--vary"),
        (("sweep", "--vary", "hand_size=2,1e400"), "--vary"),
        (("replay", "--set", "hand_size=1e400"), "--set"),
        (("replay", "--set", "hand_size=-inf"), "--set"),
        (("tune", "--param", "hand_size=1,nan", "--objective", "turns_median=5"), "--param"),
        (("simulate", "-n", "1", "--dask-idle", "wait:1e400"), "--dask-idle"),
        (("simulate", "-n", "1", "--dask-idle", "stop:nan"), "--dask-idle"),
    ],
)
def test_non_finite_numbers_are_refused_at_the_option(tmp_path, run_cli, args, flag):
    # sweep and replay passed nan/inf/1e400 to the engine (an E001 there); --dask-idle
    # waited for ever; tune refused them only in its LO..HI form
    game = _game(tmp_path)
    result = run_cli(*args, str(game))
    assert result.exit_code == 2, result.output[-800:]
    assert flag in result.output, result.output[-800:]


@pytest.mark.parametrize("tolerance", ["nan", "1e400", "inf", "abc"])
def test_a_bad_tolerance_is_named_as_the_tolerance(tmp_path, run_cli, tolerance):
    # the message named the objective: "--objective 'turns_median=nan': expected METRIC=TARGET"
    game = _game(tmp_path)
    result = run_cli(
        "tune",
        str(game),
        "--param",
        "hand_size=1..3",
        "--objective",
        "turns_median=5",
        "--tolerance",
        tolerance,
    )
    assert result.exit_code == 2, result.output[-800:]
    assert "--tolerance" in result.output and "--objective" not in result.output, result.output


APPLY_TURNS = "        self.turns += 1\n"


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        (APPLY_TURNS, APPLY_TURNS + "        self.events[0] = 10**5000\n", "state.events"),
        (
            "        return [float(p) for p in self.points]\n",
            "        return [10**5000 for p in self.points]\n",
            "score_values",
        ),
    ],
)
def test_the_contract_reports_the_e004_simulate_reports(tmp_path, run_cli, old, new, what):
    # check --contract said "clean" for counts and scores simulate's report cannot count
    game = _game(tmp_path, old=old, new=new)
    simulated = run_cli("simulate", str(game), "-n", "3", "-p", "2")
    assert simulated.exit_code == 1 and "E004" in simulated.output, simulated.output[-800:]
    checked = run_cli("check", "--contract", "-n", "10", "-p", "2", str(game))
    assert checked.exit_code == 1, checked.output[-800:]
    assert "E004" in checked.output and what in checked.output, checked.output[-800:]
    assert "engine.py:" in checked.output, checked.output[-800:]


TIMED_OUT = "        return self.rounds >= ROUND_CAP and max(self.points) < self.game.target\n"


@pytest.mark.parametrize(
    ("old", "new", "code", "what"),
    [
        (
            '    event_names = ("reshuffles", "extra_draws")\n',
            '    event_names = "abc"\n',
            "E002",
            "not the str 'abc'",
        ),
        (
            '    event_names = ("reshuffles", "extra_draws")\n',
            '    event_names = ("reshuffles", "reshuffles")\n',
            "E002",
            "'reshuffles' twice",
        ),
        (TIMED_OUT, '        return "no"\n', "E004", "state.timed_out is str 'no'"),
    ],
)
def test_engine_api_oddities_are_findings(tmp_path, run_cli, old, new, code, what):
    # a string of event names was taken as one name per letter, a name given twice made two
    # rows of one name, and timed_out "no" (truthy) made every game a timeout
    game = _game(tmp_path, old=old, new=new)
    result = run_cli("simulate", str(game), "-n", "3", "-p", "2")
    assert result.exit_code == 1, result.output[-800:]
    assert code in result.output and what in result.output, result.output[-800:]
    assert "engine.py:" in result.output, result.output[-800:]


def test_an_empty_list_is_a_usage_error(tmp_path, run_cli):
    # `build --only ''` built everything; `validate --select ''` reported every rule clean
    game = _game(tmp_path)
    built = run_cli("build", str(game), "--only", " , ", "--out", str(tmp_path / "out"))
    assert built.exit_code == 2 and "--only" in built.output, built.output
    assert not (tmp_path / "out").exists()
    checked = run_cli("validate", str(game), "--select", "")
    assert checked.exit_code == 2 and "--select" in checked.output, checked.output


def test_list_says_a_folder_without_game_yaml_is_not_a_game(tmp_path, run_cli):
    # `list /etc` listed /etc as a game, all dashes, exit 0
    (tmp_path / "notes").mkdir()
    result = run_cli("list", str(tmp_path / "notes"))
    assert result.exit_code == 1, result.output
    assert "not a game folder" in result.output and "game.yaml" in result.output
    assert "Playset games" not in result.output


def test_converting_onto_the_source_names_the_out_option(tmp_path, run_cli):
    # `convert cards.yaml --to csv --out cards.yaml --force` said "is already csv"
    deck = _game(tmp_path) / "decks" / "cards.yaml"
    before = deck.read_bytes()
    result = run_cli("convert", str(deck), "--to", "csv", "--out", str(deck), "--force")
    assert result.exit_code == 1, result.output
    assert "already" not in result.output and "--out" in result.output, result.output
    assert deck.read_bytes() == before
    same = run_cli("convert", str(deck), "--to", "yaml")
    assert same.exit_code == 1 and "is already yaml" in same.output, same.output


@pytest.mark.parametrize("host", ["127.0.0.1 ", "256.1.1.1"])
def test_a_host_not_of_this_machine_is_named_not_the_port(tmp_path, run_cli, host):
    # "cannot listen …: Name or service not known (try --port 0)" blamed the port
    game = _game(tmp_path)
    result = run_cli("preview", str(game), "--host", host, "--port", "0")
    assert result.exit_code == 2, result.output
    assert "not an address of this machine" in result.output, result.output
    assert "--port 0" not in result.output, result.output


def test_playset_no_cache_has_one_reader(tmp_path, run_cli, monkeypatch):
    # `PLAYSET_NO_CACHE=maybe` was a usage error for validate and build, "on" for the
    # preview's image store
    import click

    from toolkit.preview.store import cache_off
    from toolkit.usercache import SWITCH_STATES, no_cache_env

    assert click.types.BoolParamType.bool_states == SWITCH_STATES  # click reads it for validate
    game = _game(tmp_path)
    monkeypatch.setenv("PLAYSET_NO_CACHE", "maybe")
    assert run_cli("validate", str(game)).exit_code == 2
    result = run_cli("preview", str(game), "--port", "0")
    assert result.exit_code == 2 and "PLAYSET_NO_CACHE='maybe'" in result.output, result.output
    with pytest.raises(ValueError):
        no_cache_env()
    for value, off in (("Off", False), (" yes ", True), ("0", False), ("", False)):
        monkeypatch.setenv("PLAYSET_NO_CACHE", value)
        assert no_cache_env() is off and cache_off() is off, value


@pytest.mark.parametrize(("signum", "code"), [(2, 130), (15, 143), (1, 129)])
def test_the_language_server_stopped_by_a_signal_exits_128_plus_it_and_leaves_no_mirror(
    tmp_path, signum, code
):
    # Ctrl-C ended `playset lsp` with 0 (pygls swallows KeyboardInterrupt); SIGTERM killed
    # it and left its /tmp/playset-lsp-* mirror behind; SIGHUP (a closed terminal) too
    import json
    import os
    import subprocess
    import sys
    import time

    from PIL import Image

    from tests.starter_games import new_game

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    # a card's picture, which the checks copy into the process's playset-pictures-* folder:
    # os._exit skipped the atexit that removes it, leaving the game's art in /tmp (probe 13)
    (game / "art").mkdir()
    Image.new("RGB", (20, 30), "red").save(game / "art" / "a.png")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "  - id: advance\n" in text
    deck.write_text(text.replace("  - id: advance\n", "  - id: advance\n    image: art/a.png\n"))
    temp = tmp_path / "tmp"
    temp.mkdir()
    uri = (game / "game.yaml").as_uri()
    opened = {
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": {
            "textDocument": {
                "uri": uri,
                "languageId": "yaml",
                "version": 1,
                "text": (game / "game.yaml").read_text(encoding="utf-8"),
            }
        },
    }
    initialized = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
    data = INITIALIZE + _message(json.dumps(initialized).encode())
    data += _message(json.dumps(opened).encode())
    server = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(temp)},
    )
    try:
        assert server.stdin is not None
        server.stdin.write(data)
        server.stdin.flush()
        end = time.monotonic() + 20
        while time.monotonic() < end and not (
            list(temp.glob("playset-lsp-*")) and list(temp.glob("playset-pictures-*/*.png"))
        ):
            time.sleep(0.05)
        assert list(temp.glob("playset-lsp-*")), "no mirror made"
        assert list(temp.glob("playset-pictures-*/*.png")), "no picture read"
        server.send_signal(signum)
        assert server.wait(timeout=20) == code, server.stderr.read() if server.stderr else ""
    finally:
        server.kill()
        server.wait()
    assert not list(temp.glob("playset-lsp-*"))
    assert not list(temp.glob("playset-pictures-*"))


def _message(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


INITIALIZE = _message(
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
)
