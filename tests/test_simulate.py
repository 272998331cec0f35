"""The simulator on bundled games: worker-count independence, the CLI, check's B rules."""

from __future__ import annotations

import json

from tests.conftest import FIXTURES, copy_game
from toolkit.content.game import bundled_games, load_game
from toolkit.sim.engine import GameSetup
from toolkit.sim.play import run
from toolkit.sim.prepared import SimConfig


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
    from toolkit.sim import prepared
    from toolkit.sim.request import SimRequest
    from toolkit.sim.session import prepare

    folder = bundled_games()["muckle-stoater"]
    request = SimRequest(games=6, players=3, bots=("greedy", "random"), seed=5)
    sim = prepare(load_game(folder), folder, request)
    (_, _), shipped = prepared.prepare(sim.config, sim.game)
    assert shipped is not None
    here = prepared.run_batch(sim.config, range(6), shipped)
    prepared.forget()  # a fresh worker: nothing kept from this process
    reads = _manifest_reads(monkeypatch)
    there = prepared.run_batch(sim.config, range(6), shipped)
    assert reads == [] and there == here


def _compiles(monkeypatch) -> list[str]:
    """The games compiled from here on (each a call of the engine's compile_game)."""
    from toolkit.sim import prepared

    compiled: list[str] = []
    compile_checked = prepared.compile_checked

    def counting(engine, game):
        compiled.append(game.id)
        return compile_checked(engine, game)

    monkeypatch.setattr(prepared, "compile_checked", counting)
    return compiled


def test_simulate_compiles_the_game_once_even_when_the_greedy_hook_is_checked(
    run_cli, tmp_path, monkeypatch
):
    from tests.test_folder_engines import game_with

    folder = game_with(tmp_path)  # the starter engine: the generic greedy bot, its hook checked
    compiled = _compiles(monkeypatch)
    result = run_cli("simulate", str(folder), "-n", "4", "--bots", "greedy")
    assert result.exit_code == 0, result.output
    assert len(compiled) == 1, compiled


def test_run_reads_and_compiles_the_game_once(monkeypatch):
    reads, compiled = _manifest_reads(monkeypatch), _compiles(monkeypatch)
    folder = bundled_games()["muckle-stoater"]
    run(SimConfig(folder, GameSetup(3), ("random",), seed=2, games=3))
    assert len(reads) == 1 and compiled == ["muckle-stoater"]


def test_tests_benchmarks_and_the_cli_play_the_same_games(run_cli, tmp_path):
    """One simulation path: `run` (tests, benchmarks) and `simulate` (the CLI's session)
    fold the same records into the same report."""
    from toolkit.sim.metrics import build_report
    from toolkit.sim.prepared import compile_game

    folder = bundled_games()["tokaido"]
    config = SimConfig(folder, GameSetup(3), ("greedy", "random"), seed=4, games=12)
    compiled = compile_game(folder)
    setup = {"players": 3, "bots": "greedy,random", "seed": 4}
    names = (compiled.event_names, compiled.card_names)
    listed = build_report("tokaido", setup, run(config), *names, False, None)
    out = tmp_path / "r.json"
    argv = ["simulate", "tokaido", "-n", "12", "-p", "3", "--bots", "greedy,random"]
    result = run_cli(*argv, "--seed", "4", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["seats_win"] == listed.to_json()["seats_win"]
    assert json.loads(out.read_text())["turns"] == listed.to_json()["turns"]
