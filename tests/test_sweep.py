"""Sweeps and tuning on the bundled engines: common random numbers, rules overrides that
reach the engine, positioned refusals, the three outputs, Optuna's determinism."""

from __future__ import annotations

import dataclasses
import json

import pytest

from toolkit.checks.gate import valid_game
from toolkit.content.game import bundled_games
from toolkit.sim.executors.inline import InlineExecutor
from toolkit.sim.metrics import iter_metrics
from toolkit.sim.request import SimRequest
from toolkit.sim.session import prepare
from toolkit.sim.sweep import parse_vary, point_metrics, run_sweep
from toolkit.sim.variants import VariantError, resolve, with_rules


def _base(game_id, games, players, options=()):
    folder = bundled_games()[game_id]
    request = SimRequest(games, players, ("greedy",), 3, tuple(options))
    return prepare(valid_game(folder), folder, request)


def test_a_point_is_the_plain_simulation_of_its_values():
    """Common random numbers: a point plays exactly the games `simulate` plays."""
    base = _base("drinking-heroes", 60, 3, ["mode=cooperative"])
    result = run_sweep(base, [parse_vary("coop_extra_tries=1,2")], InlineExecutor())
    direct = _base("drinking-heroes", 60, 3, ["mode=cooperative", "coop_extra_tries=2"]).play()
    assert list(result.points[1].metrics) == point_metrics(direct)
    low, high = (p.metric("team_win").value for p in result.points)
    assert low < high


def test_rules_overrides_reach_the_engine():
    base = _base("muckle-stoater", 30, 4)
    result = run_sweep(base, [parse_vary("hand_size=3,7")], InlineExecutor())
    small, large = (p.metric("turns_mean").value for p in result.points)
    assert small != large
    game = base.game
    assert with_rules(game, [("hand_size", 7)]).manifest.rules.hand_size == 7
    assert game.manifest.rules.hand_size == 5  # the loaded game is untouched


def test_options_win_over_a_rules_value_of_the_same_name():
    game = _base("drinking-heroes", 10, 3).game
    assert resolve(game, "coop_extra_tries", [1]).target == "option"
    assert resolve(game, "rules.coop_extra_tries", [1]).target == "rules"


def test_bad_parameters_are_positioned_diagnostics(run_cli):
    result = run_cli("sweep", "muckle-stoater", "--vary", "hand_sise=3,4", "-n", "10")
    assert result.exit_code == 1
    assert "game.yaml:18:1: B101" in result.stdout and "did you mean hand_size?" in result.stdout
    result = run_cli("sweep", "drinking-heroes", "--vary", "die_sides=6,zero", "-n", "10")
    assert result.exit_code == 1
    assert "game.yaml:19:14: S001" in result.stdout and "die_sides=zero" in result.stdout
    result = run_cli("sweep", "drinking-heroes", "--vary", "coop_extra_tries=2,7", "-n", "10")
    assert result.exit_code == 1 and "B102" in result.stdout and "0..3" in result.stdout
    assert run_cli("sweep", "drinking-heroes", "--vary", "die_sides", "-n", "10").exit_code == 2
    with pytest.raises(VariantError):
        resolve(_base("muckle-stoater", 10, 4).game, "pack", [1])  # a group, not one value


def test_sweep_cli_writes_table_json_and_a_deterministic_pdf(run_cli, tmp_path):
    args = ["sweep", "drinking-heroes", "--vary", "coop_extra_tries=0..2", "--option"]
    args += ["mode=cooperative", "-n", "40", "--players", "3"]
    first = run_cli(*args, "--json", str(tmp_path / "s.json"), "--pdf", str(tmp_path / "a.pdf"))
    assert first.exit_code == 0, first.output
    assert "co-operative win" in first.stdout
    doc = json.loads((tmp_path / "s.json").read_text())
    assert [p["values"] for p in doc["points"]] == [{"coop_extra_tries": v} for v in (0, 1, 2)]
    win = doc["points"][2]["metrics"]["team_win"]
    assert win["lo"] <= win["value"] <= win["hi"]
    run_cli(*args, "--pdf", str(tmp_path / "b.pdf"), "--vary", "short_deck=true,false")
    run_cli(*args, "--pdf", str(tmp_path / "c.pdf"), "--vary", "short_deck=true,false")
    assert (tmp_path / "b.pdf").read_bytes() == (tmp_path / "c.pdf").read_bytes()
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")


def test_tune_is_deterministic_and_confirms_on_fresh_games():
    pytest.importorskip("optuna")
    from toolkit.sim.tune import parse_param, spaces, tune

    base = _base("drinking-heroes", 80, 3, ["mode=cooperative"])
    space = spaces(base, [parse_param("coop_extra_tries=0..3")])
    runs = [tune(base, space, "team_win", 0.3, 6, 200, InlineExecutor()) for _ in range(2)]
    assert runs[0].to_json() == runs[1].to_json()
    result = runs[0]
    assert dict(result.best.values) == {"coop_extra_tries": 1}
    c = result.confirmation
    assert c.lo < c.value < c.hi and result.confirmation_seed != base.config.seed
    assert len({t.values for t in result.trials}) == len(result.trials)  # none replayed


def test_tune_cli_names_an_unknown_objective(run_cli):
    pytest.importorskip("optuna")
    result = run_cli(
        "tune", "muckle-stoater", "--param", "hand_size=4..6", "--objective", "nope=1",
        "--budget", "40", "-n", "20", "--players", "4",
    )  # fmt: skip
    assert result.exit_code == 2 and "turns_median" in result.stderr


def test_report_metrics_are_the_sweep_metrics():
    report = _base("muckle-stoater", 20, 4).play()
    keys = [m.key for m in iter_metrics(report) if m.group != "card"]
    assert [m.key for m in point_metrics(report)] == keys
    assert dataclasses.is_dataclass(report) and "turns_median" in keys


def test_tune_cli_states_the_confirmation_against_the_target(run_cli, tmp_path):
    pytest.importorskip("optuna")
    out = tmp_path / "t.json"
    result = run_cli(
        "tune", "drinking-heroes", "--param", "coop_extra_tries=0..3", "--objective",
        "team_win=50%", "--tolerance", "10%", "--budget", "1000", "-n", "100", "--confirm",
        "300", "--option", "mode=cooperative", "--players", "4", "--json", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "meets the target 50% ± 10%" in result.stdout
    doc = json.loads(out.read_text())
    assert doc["best"]["values"] == {"coop_extra_tries": 1} and doc["confirmation"]["meets_target"]
    assert doc["confirmation"]["metric"]["lo"] < 0.5 + 0.1


def test_replay_tells_a_notable_game_and_matches_its_record(run_cli):
    from toolkit.sim.replay import replay

    sim = _base("muckle-stoater", 40, 4)
    report = sim.play()
    longest = next(n for n in report.notable if n.kind == "longest")
    again = replay(sim, longest.game)
    assert again.record.turns == longest.value and again.record.scores == longest.scores
    assert len(again.moves) == again.record.moves and again.moves[-1].outcome
    result = run_cli("replay", "muckle-stoater", "--game", str(longest.game), "--seed", "3",
                     "--players", "4")  # fmt: skip
    assert result.exit_code == 0, result.output
    scores = ", ".join(f"seat {s} {v:g}" for s, v in enumerate(longest.scores))
    assert f"scores: {scores}" in result.stdout and f"{longest.value:g} turns" in result.stdout
    bad = run_cli("replay", "drinking-heroes", "--set", "die_sides=zero")
    assert bad.exit_code == 1 and "die_sides=zero" in bad.stdout


def test_a_sweep_over_options_compiles_the_game_once(monkeypatch):
    """Options change only the setup a state is dealt with: the points share one compile
    (a rules value, which the engine compiles in, is compiled per point)."""
    from tests.test_simulate import _compiles

    compiled = _compiles(monkeypatch)
    base = _base("drinking-heroes", 10, 3, ["mode=cooperative"])
    run_sweep(base, [parse_vary("coop_extra_tries=1,2,3")], InlineExecutor())
    assert compiled == ["drinking-heroes"]
    compiled.clear()
    run_sweep(_base("muckle-stoater", 5, 3), [parse_vary("hand_size=4,5")], InlineExecutor())
    assert compiled == ["muckle-stoater"] * 2
