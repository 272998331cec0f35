"""Probe 14, the commands surface (issue #33): a worker that loads the game itself plays
what was validated or refuses (M2); sweep and tune options that asked for nothing (L4, L5)."""

from __future__ import annotations

import pytest

from toolkit.content.game import load_game
from toolkit.scaffold.new import new_game

# --- M2: under `--dask local:N` each worker loaded the folder as it was when it started: a
# save during the run changed the report silently ------------------------------------------


def test_a_worker_refuses_a_game_whose_files_changed_since_the_run_started(tmp_path):
    from toolkit.sim.engine import GameSetup
    from toolkit.sim.engines import EngineError
    from toolkit.sim.prepared import SimConfig, _loaded_here, content_digest

    folder = tmp_path / "race"
    new_game(folder, "race", ["en"], engine=True)
    game = load_game(folder)
    config = SimConfig(folder, GameSetup(2, {}), game_id="race", digest=content_digest(game))
    assert _loaded_here(config)[0].game_id == "race"  # unchanged: the worker plays it

    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "target_points: 10" in text
    manifest.write_text(text.replace("target_points: 10", "target_points: 99"), encoding="utf-8")
    with pytest.raises(EngineError, match="changed since the run started") as raised:
        _loaded_here(config)
    assert raised.value.diagnostic.code == "E001"
    assert raised.value.diagnostic.file.endswith("game.yaml")

    manifest.write_text(text, encoding="utf-8")
    assert _loaded_here(config)[0].game_id == "race"  # as validated again
    engine = folder / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    with pytest.raises(EngineError, match="changed since the run started"):
        _loaded_here(config)


def test_a_simulation_carries_the_digest_of_the_game_it_validated(tmp_path):
    from toolkit.sim.prepared import content_digest
    from toolkit.sim.session import SimRequest, prepare

    folder = tmp_path / "race"
    new_game(folder, "race", ["en"], engine=True)
    game = load_game(folder)
    sim = prepare(game, folder, SimRequest(games=2, players=2, executor="dask:local:2"))
    assert sim.config.digest == content_digest(game) != ""
    alone = prepare(game, folder, SimRequest(games=2, players=2))
    assert alone.config.digest == ""  # played here alone: no worker reads the folder


# --- L4: `--vary hand_size=,,,` swept an empty grid, exit 0 --------------------------------


def test_a_vary_list_with_no_value_is_refused(run_cli, tmp_path):
    folder = tmp_path / "race"
    new_game(folder, "race", ["en"], engine=True)
    result = run_cli("sweep", str(folder), "--vary", "target_points=,,,", "-n", "10")
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 2, result.output
    assert "--vary 'target_points=,,,': no value" in result.output, result.output


# --- L5: `tune --budget 20` played a 100-game trial and a 1,000-game confirmation unsaid ---


def test_the_budget_note_names_the_games_played(tmp_path, monkeypatch, capsys):
    pytest.importorskip("optuna")
    import toolkit.cli.sweep as sweep_cli
    from toolkit.cli.common import stderr

    folder = tmp_path / "race"
    new_game(folder, "race", ["en"], engine=True)

    def no_session(game, request):
        raise RuntimeError("stop here")

    monkeypatch.setattr(sweep_cli, "_session", no_session)
    request = sweep_cli.sim_request(games=100, players=None, bots="greedy", seed=0, option=None)
    with stderr.capture() as captured, pytest.raises(RuntimeError):
        sweep_cli._tune(
            str(folder), ["target_points=5..15"], "turns_mean=10", 20, None, None, request, None
        )
    said = captured.get()
    assert "--budget 20 is less than one trial of 100 games" in said, said
    assert "1,000-game confirmation (1,100 games in all" in said, said


# --- L1: a hang-up during the Dask cluster's start was ignored, so lost: the run went on
# after the terminal was closed --------------------------------------------------------------


def test_a_hangup_during_the_cluster_start_is_delivered_after_it():
    import signal
    import subprocess
    import sys

    if not hasattr(signal, "SIGHUP"):
        pytest.skip("no SIGHUP here")
    code = (
        "import os, signal\n"
        "from toolkit.sim.executors.dask import _no_hangup\n"
        "seen = []\n"
        "signal.signal(signal.SIGHUP, lambda *a: seen.append('hup'))\n"
        "with _no_hangup():\n"
        "    os.kill(os.getpid(), signal.SIGHUP)\n"
        "    print('during', seen)\n"
        "print('after', seen)\n"
        "print('blocked', signal.SIGHUP in signal.pthread_sigmask(signal.SIG_BLOCK, []))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.stdout.split("\n")[:3] == ["during []", "after ['hup']", "blocked False"], (
        done.stdout + done.stderr
    )
