"""Sweeps: the same games played at every point of a grid of rules values and options.

Every point uses the same game seeds (common random numbers: game i of every point starts
from the seed of (seed, i)), so a difference between two points is the parameter's, not the
dice's. Every point is checked before the first game is played: a bad path or value stops the
sweep with positioned diagnostics and nothing is run.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from toolkit.content.game import Game
from toolkit.content.suggest import tips_run
from toolkit.sim.engine import GameSetup
from toolkit.sim.metrics import MetricValue, SimReport, iter_metrics
from toolkit.sim.options import SetupError, cooperative
from toolkit.sim.session import Simulation
from toolkit.sim.variants import Parameter, Value, VariantError, check_option, resolve, with_rules

SWEEP_SCHEMA = 1
DEFAULT_GROUPS = ("headline", "seat", "figure")  # what the table and PDF show by default


def parse_vary(text: str, flag: str = "--vary") -> tuple[str, tuple[Value, ...]]:
    """`PATH=V1,V2,…` or `PATH=LO..HI` (whole numbers, both ends included); FLAG names the
    option in the messages (`replay --set` reads the same form)."""
    from toolkit.sim.variants import finite_values, parse_value

    path, sep, raw = text.partition("=")
    path = path.strip()
    if not sep or not path or not raw.strip():
        raise SetupError(f"{flag} {text!r}: expected PATH=V1,V2,... or PATH=LO..HI")
    if ".." in raw and "," not in raw:
        lo, _, hi = raw.partition("..")
        a, b = parse_value(lo), parse_value(hi)
        if not (isinstance(a, int) and isinstance(b, int)) or isinstance(a, bool) or b < a:
            raise SetupError(f"{flag} {text!r}: a range LO..HI takes whole numbers, LO <= HI")
        if b - a > 1000:
            raise SetupError(f"{flag} {text!r}: more than 1000 values")
        return path, tuple(range(a, b + 1))
    given = [v for v in raw.split(",") if v.strip()]
    if not given:  # `hand_size=,,,` swept an empty grid and exited 0
        raise SetupError(f"{flag} {text!r}: no value; expected PATH=V1,V2,... or PATH=LO..HI")
    values = finite_values(tuple(parse_value(v) for v in given), f"{flag} {text!r}")
    if len(set(map(repr, values))) != len(values):
        raise SetupError(f"{flag} {text!r}: a value is given twice")
    return path, values


def once_each(specs: Sequence[tuple[str, Any]], flag: str) -> None:
    """SetupError if a path comes twice: the later value would silently replace the first."""
    seen: set[str] = set()
    for path, _ in specs:
        if path in seen:
            raise SetupError(f"{flag} {path} is given twice")
        seen.add(path)


@dataclass(frozen=True)
class Point:
    """One point of the grid: its values and the report's metrics there."""

    values: tuple[tuple[str, Value], ...]
    metrics: tuple[MetricValue, ...]

    def metric(self, key: str) -> MetricValue | None:
        return next((m for m in self.metrics if m.key == key), None)

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={value_text(v)}" for k, v in self.values)


def value_text(value: Value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class SweepResult:
    game: str
    setup: dict[str, Any]
    parameters: tuple[Parameter, ...]
    points: tuple[Point, ...]
    schema: int = SWEEP_SCHEMA

    def metric_keys(self, groups: Sequence[str] | None = None) -> list[str]:
        """Keys of the metrics present at any point, in registry order."""
        seen: dict[str, None] = {}
        for point in self.points:
            for m in point.metrics:
                if groups is None or m.group in groups:
                    seen.setdefault(m.key)
        return list(seen)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "game": self.game,
            "setup": self.setup,
            "parameters": [
                {"path": p.path, "target": p.target, "values": list(p.values)}
                for p in self.parameters
            ],
            "points": [
                {
                    "values": {k: v for k, v in point.values},
                    "metrics": {m.key: m.as_dict() for m in point.metrics},
                }
                for point in self.points
            ],
        }


def check_point(
    game: Game, players: int, values: Sequence[tuple[Parameter, Value]]
) -> tuple[dict[str, bool | int | str], tuple[tuple[str, Value], ...]]:
    """The options and rules overrides of one point, or VariantError with diagnostics."""
    options: dict[str, bool | int | str] = {}
    rules: list[tuple[str, Value]] = []
    for param, value in values:
        if param.target == "option":
            options[param.path] = check_option(game, param.path, value, players)
        else:
            rules.append((param.path, value))
    if rules:
        with_rules(game, rules)
    return options, tuple(rules)


def grid(parameters: Sequence[Parameter]) -> list[tuple[tuple[Parameter, Value], ...]]:
    """Every combination, the first parameter varying slowest."""
    axes = [[(p, v) for v in p.values] for p in parameters]
    return [tuple(combo) for combo in itertools.product(*axes)]


def point_simulation(
    base: Simulation,
    options: dict[str, bool | int | str],
    rules: tuple[tuple[str, Value], ...],
) -> Simulation:
    """The base simulation with a point's values (same seed, so the same games)."""
    setup = GameSetup(base.config.setup.players, {**base.config.setup.options, **options})
    config = dataclasses.replace(base.config, setup=setup, rules=rules)
    coop = cooperative(base.game, setup.options)
    return dataclasses.replace(base, config=config, coop=coop)


def run_sweep(
    base: Simulation,
    specs: Sequence[tuple[str, tuple[Value, ...]]],
    executor: Executor,
    progress: Callable[[int], None] | None = None,
    on_point: Callable[[Point], None] | None = None,
) -> SweepResult:
    """Resolve and check every point first (all diagnostics at once), then play them."""
    game = base.game
    players = base.config.setup.players
    found = []
    parameters: list[Parameter] = []
    with tips_run():  # the unknown paths' 'did you mean's: a few a run
        for path, values in specs:
            try:
                parameters.append(resolve(game, path, values))
            except VariantError as exc:
                found += exc.diagnostics
    if found:
        raise VariantError(found)
    plans = []
    for combo in grid(parameters):
        try:
            plans.append((combo, *check_point(game, players, combo)))
        except VariantError as exc:
            found += [d for d in exc.diagnostics if d not in found]
    if found:
        raise VariantError(found)
    points = []
    base.failed, base.failures = 0, []
    for combo, options, rules in plans:
        sim = point_simulation(base, options, rules)
        report = sim.play(progress, executor)
        base.absorb(sim)  # engine mistakes at any point, told after the table
        point = Point(tuple((p.path, v) for p, v in combo), tuple(point_metrics(report)))
        points.append(point)
        if on_point:
            on_point(point)
    setup = {
        "players": players,
        "bots": ",".join(base.config.bots),
        "seed": base.config.seed,
        "games": base.config.games,
        **base.config.setup.options,
    }
    return SweepResult(game.id, setup, tuple(parameters), tuple(points))


def point_metrics(report: SimReport) -> list[MetricValue]:
    """A point keeps every metric but the per-card ones (the PDF would be hundreds of
    charts); `simulate` at that point shows them."""
    return [m for m in iter_metrics(report) if m.group != "card"]
