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
    sim = prepare(game, folder, SimRequest(games=2, players=2))
    assert sim.config.digest == content_digest(game) != ""
