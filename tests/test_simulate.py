"""The simulator on bundled games: worker-count independence, the CLI, check's B rules."""

from __future__ import annotations

import json

from tests.conftest import FIXTURES, copy_game
from toolkit.content.game import bundled_games, load_game
from toolkit.sim.engine import GameSetup
from toolkit.sim.runner import SimConfig, run


def test_results_identical_with_one_and_two_workers():
    folder = bundled_games()["drinking-heroes"]
    config = SimConfig(folder, GameSetup(4), ("greedy", "random"), seed=11, games=120, batch=25)
    one = run(config, workers=1)
    two = run(config, workers=2)
    assert one == two
    assert [r.index for r in two] == list(range(120))


def test_simulate_cli_writes_reports(run_cli, tmp_path):
    out_json, out_pdf = tmp_path / "r.json", tmp_path / "r.pdf"
    result = run_cli(
        "simulate",
        "drinking-heroes",
        "-n",
        "60",
        "--players",
        "3",
        "--option",
        "mode=cooperative",
        "--json",
        str(out_json),
        "--pdf",
        str(out_pdf),
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(out_json.read_text())
    assert doc["games"] == 60 and "team_win" in doc
    assert out_pdf.read_bytes().startswith(b"%PDF")


def test_simulate_rejects_bad_options(run_cli):
    assert run_cli("simulate", "drinking-heroes", "--option", "mode=solo").exit_code == 2
    assert run_cli("simulate", "drinking-heroes", "--option", "speed=2").exit_code == 2
    assert run_cli("simulate", "drinking-heroes", "--players", "40").exit_code == 2
    assert run_cli("simulate", "drinking-heroes", "--bots", "genius").exit_code == 2


def test_check_reports_balance_findings_as_b_diagnostics(run_cli):
    result = run_cli("check", "drinking-heroes", "-n", "400", "--format", "json")
    found = json.loads(result.stdout or "[]")
    assert all(d["code"].startswith("B") for d in found)
    assert result.exit_code == (1 if found else 0)
    for diag in found:
        assert diag["line"] >= 1 and diag["file"].endswith((".yaml", ".yml"))


def test_game_without_engine_is_validated_only(run_cli, tmp_path):
    folder = copy_game(FIXTURES / "base", tmp_path / "game")  # a game with no plugin
    result = run_cli("check", str(folder), "-n", "10")
    assert result.exit_code == 0
    assert "no simulation engine" in result.stderr
    assert load_game(folder).plugin.engine is None


def _manifest_reads(monkeypatch) -> list[str]:
    """The game.yaml files read from here on: one per loading of a game folder."""
    import toolkit.content.game as game_module

    reads: list[str] = []
    read = game_module.load_document

    def counting(path, *args, **kwargs):
        if path.name == "game.yaml":
            reads.append(str(path))
        return read(path, *args, **kwargs)

    monkeypatch.setattr(game_module, "load_document", counting)
    return reads


def test_simulate_loads_the_game_once(run_cli, tmp_path, monkeypatch):
    reads = _manifest_reads(monkeypatch)
    out = tmp_path / "r.json"
    result = run_cli("simulate", "muckle-stoater", "-n", "4", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert len(reads) == 1, reads  # the gate's load; compiled from it, not from the folder


def test_workers_play_the_shipped_game_without_loading_it(tmp_path, monkeypatch):
    from toolkit.sim import runner
    from toolkit.sim.session import prepare

    folder = bundled_games()["muckle-stoater"]
    sim = prepare(load_game(folder), folder, 6, 3, ["greedy", "random"], 5, [])
    (_, _), shipped = runner.prepare_loaded(sim.config, sim.game)
    assert shipped is not None
    here = runner._run_batch(sim.config, range(6), shipped)
    runner._WORKER.clear()  # a fresh worker: nothing kept from this process
    reads = _manifest_reads(monkeypatch)
    there = runner._run_batch(sim.config, range(6), shipped)
    assert reads == [] and there == here
