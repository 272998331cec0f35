"""The typed report: streaming aggregation, the metric registry every output iterates."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.toy_game import ToyGame
from toolkit.sim import metrics
from toolkit.sim.bots import RandomBot
from toolkit.sim.engine import GameSetup
from toolkit.sim.executors import open_executor
from toolkit.sim.executors.inline import InlineExecutor
from toolkit.sim.metrics import METRICS, Metric, MetricValue, build_report, iter_metrics
from toolkit.sim.play import run, stream_records
from toolkit.sim.prepared import SimConfig
from toolkit.sim.report import print_report, write_json
from toolkit.sim.runner import play_one
from toolkit.sim.stats import MAX_DISTINCT, Distribution, quantile, summary

LEGACY_KEYS = {
    "game", "setup", "games", "seats", "completion", "timeouts", "shared_or_no_winner",
    "turns", "rounds", "length_histogram", "decision_share", "branching_factor", "fair_share",
    "seats_win", "roles_win", "balance", "first_player_advantage", "events_per_game", "cards",
    "figures",
}  # fmt: skip


def _records(n=200):
    game, setup, bots = ToyGame(), GameSetup(2), [RandomBot(), RandomBot()]
    return game, [play_one(game, setup, bots, i, 3) for i in range(n)]


@given(st.lists(st.integers(-50, 500), min_size=1, max_size=300))
def test_distribution_quantiles_equal_the_full_list(values):
    dist = Distribution()
    for v in values:
        dist.add(v)
    s = dist.summary()
    assert s.as_dict() | summary(values) == s.as_dict()  # same mean, median, p5, p95, max
    for q in (0.0, 0.1, 0.5, 0.9, 1.0):
        assert dist.quantile(q) == quantile(values, q)
    assert s.median_lo <= s.median <= s.median_hi


@settings(max_examples=20)
@given(st.floats(0.01, 1e6))
def test_distribution_memory_is_bounded_for_continuous_values(scale):
    dist, rng = Distribution(), random.Random(1)
    values = [rng.random() * scale for _ in range(3 * MAX_DISTINCT)]
    for v in values:
        dist.add(v)
    assert len(dist.counts) <= MAX_DISTINCT
    assert abs(dist.quantile(0.5) - quantile(values, 0.5)) <= 5e-3 * scale


def test_streamed_report_equals_the_list_report():
    game, records = _records()
    whole = build_report("toy", {"players": 2}, records, game.event_names, game.card_names)
    streamed = build_report("toy", {"players": 2}, iter(records), game.event_names, game.card_names)
    assert whole == streamed
    doc = whole.to_json()
    assert set(doc) >= LEGACY_KEYS and doc["schema"] == metrics.SCHEMA_VERSION
    assert doc["turns"]["median"] == quantile([r.turns for r in records], 0.5)
    assert sum(row["k"] for row in doc["seats_win"]) == len(records)


def test_every_output_iterates_the_registry(tmp_path):
    game, records = _records(50)
    report = build_report("toy", {"players": 2}, records, game.event_names, game.card_names)

    def longest(r):
        yield MetricValue("longest_game", "longest game", "headline", "count", r.turns.max)

    METRICS.register(Metric("longest_game", "longest game", "headline", longest))
    try:
        console = Console(record=True, width=120)
        print_report(report, console)
        assert "longest game" in console.export_text()
        write_json(report, tmp_path / "r.json")
        keys = [m["key"] for m in json.loads((tmp_path / "r.json").read_text())["metrics"]]
        assert "longest_game" in keys
    finally:
        METRICS.unregister("longest_game")
    assert report.metric("longest_game") is None
    assert [m.key for m in iter_metrics(report, ["seat"])] == ["seat.0", "seat.1"]


def test_stream_in_order_on_every_executor(tmp_path):
    from toolkit.content.game import bundled_games

    folder = bundled_games()["drinking-heroes"]
    config = SimConfig(folder, GameSetup(3), ("greedy",), seed=4, games=90, batch=20)
    expected = run(config)
    inline = list(stream_records(config, InlineExecutor()))
    with open_executor("pool:2") as pool:
        pooled = list(stream_records(config, pool, workers=2))
    assert inline == pooled == expected
