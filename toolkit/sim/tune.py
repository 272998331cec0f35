"""Tuning: search the rules values and options that bring one metric to a target.

The search is Optuna's (TPE, seeded, one trial at a time, so the same seed gives the same
trials); each trial is a sweep point played on the same game seeds as every other trial, and
the best values are then played again on fresh seeds (a confirmation run) so the reported
interval is not flattered by the games the search looked at. Optuna is an optional extra:
`pip install "playset[tune]"`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from toolkit.content.suggest import tips_run
from toolkit.sim.metrics import MetricValue
from toolkit.sim.options import SetupError
from toolkit.sim.session import Simulation
from toolkit.sim.sweep import check_point, point_simulation, value_text
from toolkit.sim.variants import (
    Parameter,
    Value,
    VariantError,
    finite_values,
    parse_value,
    resolve,
)

CONFIRM_SEED_OFFSET = 1_000_003  # confirmation games are other games than the trials'


class TuneUnavailable(RuntimeError):
    """Optuna is not installed."""


class TuneStopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during the search or the confirmation: `trials` were played."""

    def __init__(self, trials: int, cause: BaseException) -> None:
        super().__init__(f"stopped after {trials} trial(s)")
        self.trials = trials
        self.signum = getattr(cause, "signum", 2)


@dataclass(frozen=True)
class Space:
    """Where one parameter may go: LO..HI (whole numbers or decimals) or a list of choices."""

    parameter: Parameter
    low: float | None = None
    high: float | None = None
    integer: bool = False
    choices: tuple[Value, ...] = ()


def parse_param(text: str) -> tuple[str, Any]:
    """`PATH=LO..HI` (int if both ends are whole numbers) or `PATH=A,B,C` (choices)."""
    path, sep, raw = text.partition("=")
    path = path.strip()
    if not sep or not path or not raw.strip():
        raise SetupError(f"--param {text!r}: expected PATH=LO..HI or PATH=A,B,C")
    if ".." in raw:
        lo, _, hi = raw.partition("..")
        a, b = parse_value(lo), parse_value(hi)
        if (
            not (isinstance(a, int | float) and isinstance(b, int | float))
            or isinstance(a, bool)
            or isinstance(b, bool)
            or not _finite_span(a, b)
        ):
            raise SetupError(f"--param {text!r}: LO..HI takes two numbers with LO < HI")
        return path, (a, b)
    return path, finite_values(
        tuple(parse_value(v) for v in raw.split(",") if v.strip()), f"--param {text!r}"
    )


def _finite_span(a: float, b: float) -> bool:
    """LO < HI, both finite and HI − LO within the float range (the sampler draws in it)."""
    try:
        low, high = float(a), float(b)
    except OverflowError:  # an int past the float range
        return False
    return math.isfinite(low) and math.isfinite(high) and math.isfinite(high - low) and low < high


def parse_tolerance(key: str, text: str) -> float:
    """`--tolerance 5%` (a rate, 0.05) or `2`: zero or more, as the target is written."""
    try:
        within = _parse_target(f"{key}={text}")[1]
    except SetupError:
        raise SetupError(f"--tolerance {text!r}: expected a finite number, e.g. 5% or 2") from None
    if within < 0:
        raise SetupError(f"--tolerance {text!r}: a tolerance is zero or more")
    _no_percent(key, f"--tolerance {text!r}", text)
    return abs(within)  # `-0` is zero: the report printed "10 ± -0"


def parse_objective(text: str) -> tuple[str, float]:
    """`METRIC=TARGET`; a target written as a percentage (`50%`) is a rate (0.5), so it is
    refused for a metric that is no rate: `turns_median=10%` read as 0.1 turns."""
    key, target = _parse_target(text)
    _no_percent(key, f"--objective {text!r}", text.partition("=")[2])
    return key, target


def _no_percent(key: str, given: str, raw: str) -> None:
    """Refuse a value written as a percentage for a metric that is no rate."""
    if not raw.strip().endswith("%"):
        return
    from toolkit.sim.metrics import METRICS

    number = raw.strip().removesuffix("%").strip()
    if key.partition(".")[0] == "figure":  # the game's own number: a share or not, unknown
        share = _as_share(number)
        raise SetupError(
            f"{given}: {key} is a figure of the game's, compared as the engine gives it;"
            f" Playset cannot tell whether it is a share: write the number without %"
            f" ({number} as given, or {share} if the figure is a share)"
        )
    entry = METRICS.load().get(key)
    if entry is not None and entry.kind not in ("", "rate"):
        raise SetupError(
            f"{given}: {key} ({entry.label}) is a {entry.kind}, not a rate (a share of "
            f"games): write it without %, e.g. {number}"
        )


def _as_share(number: str) -> str:
    """`10` → `0.1` (for a message; the text itself when it is no number)."""
    try:
        return f"{float(number) / 100:g}"
    except ValueError:
        return number


def _parse_target(text: str) -> tuple[str, float]:
    key, sep, raw = text.partition("=")
    raw = raw.strip()
    try:
        target = float(raw.removesuffix("%")) / (100 if raw.endswith("%") else 1)
    except ValueError:
        raise SetupError(f"--objective {text!r}: expected METRIC=TARGET (a number)") from None
    if not sep or not key.strip() or not math.isfinite(target):
        raise SetupError(f"--objective {text!r}: expected METRIC=TARGET")
    return key.strip(), target


@dataclass(frozen=True)
class Trial:
    number: int
    values: tuple[tuple[str, Value], ...]
    metric: MetricValue | None
    distance: float | None  # |value − target|; None when the values were refused
    refused: str = ""


@dataclass(frozen=True)
class TuneResult:
    game: str
    setup: dict[str, Any]
    objective: str
    target: float
    trials: tuple[Trial, ...]
    best: Trial
    confirmation: MetricValue
    confirmation_games: int
    confirmation_seed: int
    tolerance: float | None = None  # "about": |value − target| within this also meets it

    @property
    def meets_target(self) -> bool:
        """The target lies in the confirmation's 95% interval, or the confirmed value is
        within the tolerance of it (a designer's "about half the time")."""
        c = self.confirmation
        if c.lo is not None and c.hi is not None and c.lo <= self.target <= c.hi:
            return True
        return (
            self.tolerance is not None
            and c.value is not None
            and abs(c.value - self.target) <= self.tolerance
        )

    def to_json(self) -> dict[str, Any]:
        def trial(t: Trial) -> dict[str, Any]:
            return {
                "number": t.number,
                "values": dict(t.values),
                "metric": t.metric.as_dict() if t.metric else None,
                "distance": t.distance,
                "refused": t.refused or None,
            }

        return {
            "schema": 1,
            "game": self.game,
            "setup": self.setup,
            "objective": {
                "metric": self.objective,
                "target": self.target,
                "tolerance": self.tolerance,
            },
            "best": trial(self.best),
            "confirmation": {
                "games": self.confirmation_games,
                "seed": self.confirmation_seed,
                "metric": self.confirmation.as_dict(),
                "meets_target": self.meets_target,
            },
            "trials": [trial(t) for t in self.trials],
        }


def spaces(base: Simulation, specs: Sequence[tuple[str, Any]]) -> list[Space]:
    """Resolve each parameter and check the ends of its range (or each choice) up front."""
    with tips_run():  # the unknown paths' 'did you mean's: a few a run
        return _spaces(base, specs)


def _spaces(base: Simulation, specs: Sequence[tuple[str, Any]]) -> list[Space]:
    game, players = base.game, base.config.setup.players
    found = []
    out: list[Space] = []
    for path, spec in specs:
        ends: tuple[Any, ...] = spec if isinstance(spec, tuple) and len(spec) == 2 else ()
        is_range = bool(ends) and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in ends
        )
        choices = () if is_range else tuple(spec)
        try:
            param = resolve(game, path, ends if is_range else choices)
            for value in param.values:
                check_point(game, players, [(param, value)])
        except VariantError as exc:
            found += exc.diagnostics
            continue
        if is_range:
            integer = all(isinstance(v, int) for v in ends)
            out.append(Space(param, float(ends[0]), float(ends[1]), integer))
        else:
            out.append(Space(param, choices=choices))
    if found:
        raise VariantError(found)
    return out


def tune(
    base: Simulation,
    space: Sequence[Space],
    objective: str,
    target: float,
    trials: int,
    confirm_games: int,
    executor: Executor,
    progress: Callable[[int], None] | None = None,
    on_trial: Callable[[Trial], None] | None = None,
    tolerance: float | None = None,
) -> TuneResult:
    try:
        import optuna
    except ImportError:
        raise TuneUnavailable('tuning needs Optuna: pip install "playset[tune]"') from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    game, players = base.game, base.config.setup.players
    sampler = optuna.samplers.TPESampler(seed=base.config.seed)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    done: list[Trial] = []
    missing: list[str] = []
    stopped: list[BaseException] = []
    failed: list[BaseException] = []  # what ended a trial: raised once the study is over
    seen: dict[tuple[tuple[str, Value], ...], Trial] = {}  # same values, same games: replay nothing
    sizes = [
        len(s.choices) if s.choices else int((s.high or 0) - (s.low or 0)) + 1
        for s in space
        if s.choices or s.integer
    ]
    finite = math.prod(sizes)
    discrete = all(s.choices or s.integer for s in space)

    def suggest(trial: Any, s: Space) -> Value:
        name = s.parameter.path
        if s.choices:
            return trial.suggest_categorical(name, list(s.choices))
        if s.integer:
            return trial.suggest_int(name, int(s.low or 0), int(s.high or 0))
        return trial.suggest_float(name, s.low, s.high)

    def run_trial(trial: Any) -> float:
        """One trial; an error ends the search and is raised after it (through Optuna,
        an engine's finding was logged as a failed trial with Optuna's traceback)."""
        try:
            return trial_distance(trial)
        except optuna.TrialPruned:
            raise
        except BaseException as exc:  # noqa: BLE001 - raised again once the study is over
            failed.append(exc)
            study.stop()
            raise optuna.TrialPruned() from None

    def trial_distance(trial: Any) -> float:
        combo = [(s.parameter, suggest(trial, s)) for s in space]
        values = tuple((p.path, v) for p, v in combo)
        if values in seen:
            earlier = seen[values]
            if discrete and len(seen) >= finite:
                study.stop()  # every value has been played: nothing left to learn
            if earlier.distance is None:
                raise optuna.TrialPruned()
            return earlier.distance
        try:
            options, rules = check_point(game, players, combo)
        except VariantError as exc:
            done.append(Trial(trial.number, values, None, None, exc.diagnostics[0].message))
            seen[values] = done[-1]
            if on_trial:
                on_trial(done[-1])
            raise optuna.TrialPruned() from None
        sim = point_simulation(base, options, rules)
        try:
            report = sim.play(progress, executor)
        except KeyboardInterrupt as exc:
            # Raised through Optuna, a stop would be logged as a failed trial with its
            # traceback: the search is ended instead and the stop raised after it.
            stopped.append(exc)
            study.stop()
            raise optuna.TrialPruned() from None
        base.absorb(sim)  # engine mistakes in any trial, told after the result
        found = report.metric(objective)
        if found is None or found.value is None or math.isnan(found.value):
            from toolkit.sim.metrics import metric_keys

            missing.extend(metric_keys(report))
            study.stop()
            return math.inf
        distance = abs(found.value - target)
        done.append(Trial(trial.number, values, found, distance))
        seen[values] = done[-1]
        if discrete and len(seen) >= finite:
            study.stop()
        if on_trial:
            on_trial(done[-1])
        return distance

    study.optimize(run_trial, n_trials=trials)
    if stopped:
        raise TuneStopped(len(done), stopped[0])
    if failed:
        raise failed[0]
    if missing:
        known = ", ".join(k for k in missing if not k.startswith(("card.", "event.")))
        raise SetupError(f"--objective {objective}: no such metric here (metrics: {known})")
    scored = [t for t in done if t.distance is not None]
    if not scored:
        raise SetupError("every trial's values were refused; widen or fix the --param ranges")
    best = min(scored, key=lambda t: (t.distance, t.number))
    by_name = {s.parameter.path: s.parameter for s in space}
    options, rules = check_point(game, players, [(by_name[k], v) for k, v in best.values])
    confirm_seed = base.config.seed + CONFIRM_SEED_OFFSET
    point = point_simulation(base, options, rules)
    config = dataclasses.replace(point.config, seed=confirm_seed, games=confirm_games)
    confirm = dataclasses.replace(point, config=config)
    try:
        report = confirm.play(progress, executor)
    except KeyboardInterrupt as exc:
        raise TuneStopped(len(done), exc) from None
    base.absorb(confirm)
    measured = report.metric(objective)
    assert measured is not None
    setup = {
        "players": players,
        "bots": ",".join(base.config.bots),
        "seed": base.config.seed,
        "games_per_trial": base.config.games,
        **base.config.setup.options,
    }
    return TuneResult(
        game.id,
        setup,
        objective,
        target,
        tuple(done),
        best,
        measured,
        confirm_games,
        confirm_seed,
        tolerance,
    )


def describe(values: Sequence[tuple[str, Value]]) -> str:
    return ", ".join(f"{k}={value_text(v)}" for k, v in values)
