"""The simulation core on a toy game: seeds, determinism, contract check, metrics, reports."""

from __future__ import annotations

import json
from dataclasses import replace

from pypdf import PdfReader
from rich.console import Console

from tests.toy_game import ToyGame
from toolkit.sim.bots import MctsBot, RandomBot
from toolkit.sim.contract import random_play_check
from toolkit.sim.engine import GameSetup
from toolkit.sim.metrics import Figure, build_report
from toolkit.sim.report import print_report, write_json, write_pdf
from toolkit.sim.runner import game_seed, play_one
from toolkit.sim.stats import Distribution, holm, quantile, wilson


def test_wilson_interval_known_values():
    rate = wilson(50, 100)
    assert abs(rate.lo - 0.4038) < 1e-3 and abs(rate.hi - 0.5962) < 1e-3
    zero = wilson(0, 20)
    assert zero.lo == 0.0 and 0.15 < zero.hi < 0.17


def test_holm_adjusts_in_order():
    assert holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]


def test_quantile_interpolates():
    assert quantile([1, 2, 3, 4], 0.5) == 2.5


def test_game_seed_depends_only_on_seed_and_index():
    assert game_seed(7, 3) == game_seed(7, 3)
    assert game_seed(7, 3) != game_seed(7, 4) != game_seed(8, 3)


def test_toy_engine_passes_the_contract():
    assert random_play_check(ToyGame(), GameSetup(3), 200) == []


def test_same_seed_same_game():
    game, setup, bots = ToyGame(), GameSetup(2), [RandomBot(), RandomBot()]
    a = [play_one(game, setup, bots, i, 5) for i in range(30)]
    b = [play_one(game, setup, bots, i, 5) for i in reversed(range(30))]
    assert a == list(reversed(b))


def test_mcts_beats_a_random_player():
    game, setup = ToyGame(goal=20), GameSetup(2)
    wins = 0
    for i in range(40):
        record = play_one(game, setup, [MctsBot(playouts=60), RandomBot()], i, 1)
        wins += record.returns[0]
    assert wins >= 26


def _report(n=300, bots=None):
    game, setup = ToyGame(), GameSetup(2)
    bots = bots or [RandomBot(), RandomBot()]
    records = [play_one(game, setup, bots, i, 0) for i in range(n)]
    return build_report("toy", {"players": 2}, records, game.event_names, game.card_names)


def test_report_figures_are_consistent():
    d = _report().to_json()
    assert d["games"] == 300 and d["completion"]["rate"] == 1.0
    total = sum(row["k"] for row in d["seats_win"])
    assert total == 300
    assert 0 <= d["balance"] <= 1
    assert d["decision_share"]["rate"] == 1.0 and d["branching_factor"] == 2.0
    assert [c["card"] for c in d["cards"]] == ["bank", "step"]


def test_a_strong_seat_is_flagged_unfair():
    d = _report(bots=[MctsBot(playouts=40), RandomBot()], n=120).to_json()
    assert d["seats_win"][0]["unfair"] and d["seats_win"][0]["rate"] > 0.6


def test_reports_render(tmp_path):
    report = _report(n=50)
    console = Console(record=True, width=120)
    print_report(report, console)
    assert "Win rate" in console.export_text()
    write_json(report, tmp_path / "r.json")
    assert json.loads((tmp_path / "r.json").read_text())["games"] == 50
    write_pdf(report, tmp_path / "a.pdf")
    write_pdf(report, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert len(PdfReader(tmp_path / "a.pdf").pages) >= 1


def test_empty_figures_render(tmp_path):
    """A figure with no values (nobody drinks) still prints and saves."""
    report = replace(_report(n=5), figures=(Figure("sips", Distribution().summary()),))
    console = Console(record=True, width=120)
    print_report(report, console)
    write_json(report, tmp_path / "r.json")
    assert "sips" in console.export_text()


def test_a_game_runs_with_the_simulation_gc_thresholds_whoever_calls_it():
    """The CLI raised the collector's thresholds for its own process only: a benchmark, a
    library caller or a Dask worker playing games through play_one ran each game with the
    defaults (a young collection every 700 net allocations, walking whatever a fresh game
    table left in the young generation). play_one sets them for the game and puts the
    caller's back."""
    import gc

    from toolkit.sim.runner import SIM_GC_THRESHOLDS

    seen = []
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # a library caller's defaults
    try:
        play_one(
            ToyGame(),
            GameSetup(2),
            [RandomBot()] * 2,
            0,
            1,
            on_move=lambda *_: seen.append(gc.get_threshold()),
        )
        after = gc.get_threshold()
    finally:
        gc.set_threshold(*before)
    assert seen and set(seen) == {SIM_GC_THRESHOLDS}
    assert after == (700, 10, 10)
