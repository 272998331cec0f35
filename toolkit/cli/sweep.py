"""`playset sweep` and `playset tune`: answer "which value makes the game fair / end in time"."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from toolkit.cli.common import (
    escape,
    game_folders,
    gated_game,
    refuse_output,
    refuse_outputs,
    stderr,
    stdout,
    usage_error,
    write_output,
)
from toolkit.cli.simulate import (
    DaskIdleOpt,
    DaskOpt,
    ExecutorOpt,
    GameArg,
    OptionOpt,
    _progress,
    engine_findings,
    failed_games,
    sim_request,
)

JsonOpt = Annotated[Path | None, typer.Option("--json", help="Write the result as JSON.")]
PdfOpt = Annotated[Path | None, typer.Option("--pdf", help="Write the charts as PDF.")]
Workers = Annotated[int, typer.Option(min=1, max=256)]
Players = Annotated[int | None, typer.Option("--players", "-p")]
Bots = Annotated[str, typer.Option(help="Bots per seat, cycled: greedy,random,mcts")]
MAX_POINTS = 10_000  # a grid's points unless --max-points says more
MAX_TRIALS = 1_000  # Optuna's sampler slows with every trial it has seen
MAX_GAMES = 10_000_000  # as simulate -n


@contextlib.contextmanager
def _stoppable(what: str) -> Iterator[None]:
    """Ctrl-C or SIGTERM ends the command with one line (a sweep or a tuning reports only
    once complete), exit 128 + the signal, never a traceback."""
    from toolkit.sim.signals import stop_on_signals

    try:
        with stop_on_signals():
            yield
    except KeyboardInterrupt as stop:
        stderr.print(f"[yellow]interrupted[/yellow]: {what}")
        raise typer.Exit(128 + getattr(stop, "signum", 2)) from None


def _game_folder(game: str | None) -> Path | None:
    """The one game folder GAME names (or the one around the current folder), else None
    (`_session` then says what is wrong)."""
    from toolkit.content.folders import GameNotFound, game_folder_around, resolve_game

    if not game:
        return game_folder_around(Path.cwd())
    try:
        return resolve_game(game)
    except GameNotFound:
        return None


@contextlib.contextmanager
def _session(game: str | None, request: Any) -> Iterator[tuple[Any, Any]]:
    """The gated game's base simulation and the request's open executor (usage errors exit
    2, content errors exit 1, as `simulate` does)."""
    from toolkit.sim.engines import EngineError
    from toolkit.sim.executors import ExecutorError
    from toolkit.sim.options import SetupError
    from toolkit.sim.session import prepare

    folders = game_folders([game] if game else None)
    if len(folders) != 1:
        raise usage_error("name one game (an id or a folder), or run it in one")
    (folder,) = folders
    loaded = gated_game(folder)
    if loaded is None:
        raise typer.Exit(1)
    try:
        base = prepare(loaded, folder, request)
    except SetupError as exc:
        raise usage_error(str(exc)) from None
    except EngineError as exc:
        raise engine_findings([exc.diagnostic], "the engine cannot play; nothing played") from None
    try:
        with request.open() as pool:
            yield base, pool
    except ExecutorError as exc:
        raise usage_error(str(exc)) from None
    except EngineError as exc:
        raise engine_findings([exc.diagnostic], "the engine cannot play") from None


def _refused(exc: Any) -> typer.Exit:
    from toolkit.diagnostics.formats import render

    sys.stdout.write(render(exc.diagnostics, "text") + "\n")
    stderr.print(f"[red]{len(exc.diagnostics)} parameter problem(s); nothing played[/red]")
    return typer.Exit(1)


def sweep(
    game: GameArg = None,
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            help="PATH=V1,V2,... or PATH=LO..HI: a rules value (dotted path in game.yaml "
            "rules) or an option. Repeat for a grid.",
        ),
    ] = ...,  # type: ignore[assignment]
    games: Annotated[int, typer.Option("-n", "--games", min=1, max=MAX_GAMES)] = 1000,
    players: Players = None,
    bots: Bots = "greedy",
    seed: Annotated[int, typer.Option()] = 0,
    option: OptionOpt = None,
    workers: Workers = 1,
    dask: DaskOpt = None,
    dask_idle: DaskIdleOpt = "wait",
    executor: ExecutorOpt = None,
    metric: Annotated[
        list[str] | None,
        typer.Option("--metric", "-m", help="Metrics to show: a key, a group or key*."),
    ] = None,
    json_out: JsonOpt = None,
    pdf_out: PdfOpt = None,
    max_points: Annotated[
        int,
        typer.Option(
            "--max-points", min=1, max=1_000_000, help="Refuse a grid of more points than this."
        ),
    ] = MAX_POINTS,
) -> None:
    """Play GAME at every point of a grid of rules values and options, on the same games."""
    request = sim_request(
        games=games,
        players=players,
        bots=bots,
        seed=seed,
        option=option,
        workers=workers,
        executor=executor,
        dask=dask,
        dask_idle=dask_idle,
    )
    with _stoppable("the sweep reports once every point is played; nothing reported"):
        _sweep(game, vary, request, metric, json_out, pdf_out, max_points)


def _sweep(
    game: str | None,
    vary: list[str],
    request: Any,
    metric: list[str] | None,
    json_out: Path | None,
    pdf_out: Path | None,
    max_points: int,
) -> None:
    from toolkit.sim.options import SetupError
    from toolkit.sim.sweep import once_each, parse_vary, run_sweep
    from toolkit.sim.sweep_report import print_sweep, select_keys, write_sweep_json, write_sweep_pdf
    from toolkit.sim.variants import VariantError

    try:
        specs = [parse_vary(text) for text in vary]
        once_each(specs, "--vary")
    except SetupError as exc:
        raise usage_error(str(exc)) from None
    points = 1
    for _, values in specs:
        points *= len(values)
    if points > max_points:
        sizes = " × ".join(str(len(values)) for _, values in specs)
        raise usage_error(
            f"the grid has {points:,} points ({sizes}); at most {max_points:,}"
            " (fewer --vary values, or --max-points to allow more)"
        )
    refuse_outputs({"--json": json_out, "--pdf": pdf_out}, _game_folder(game))
    games = request.games
    with _session(game, request) as (base, pool):
        try:
            with _progress(games * points) as bar:
                task = bar.add_task(f"{base.game.id}: {points} points", total=games * points)
                result = run_sweep(base, specs, pool, lambda k: bar.advance(task, k))
        except VariantError as exc:
            raise _refused(exc) from None
    keys = select_keys(result, metric or ())
    if metric and not keys:
        raise usage_error(f"--metric {', '.join(metric)}: no such metric in this sweep")
    print_sweep(result, stdout.get(), keys)
    if json_out:
        write_output(json_out, lambda path: write_sweep_json(result, path))
    if pdf_out:
        write_output(pdf_out, lambda path: write_sweep_pdf(result, path, keys))
    failures = failed_games(base, games * points)
    if failures:
        raise engine_findings(failures, f"{base.failed} game(s) failed; see the findings above")


def tune(
    game: GameArg = None,
    param: Annotated[
        list[str],
        typer.Option("--param", help="PATH=LO..HI or PATH=A,B,C (repeatable)."),
    ] = ...,  # type: ignore[assignment]
    objective: Annotated[
        list[str],
        typer.Option(
            help="METRIC=TARGET, e.g. team_win=50% or turns_median=40; a % is for a rate (a"
            " share of games) only; one objective only (a second is refused)."
        ),
    ] = ...,  # type: ignore[assignment]
    budget: Annotated[
        int,
        typer.Option(
            min=1,
            max=100_000_000,
            help="Games for all trials together (at least one trial is played; the"
            " confirmation run comes on top).",
        ),
    ] = 20_000,
    games: Annotated[
        int | None, typer.Option("-n", "--games", min=10, max=MAX_GAMES, help="Games per trial.")
    ] = None,
    confirm: Annotated[
        int | None,
        typer.Option(min=10, max=MAX_GAMES, help="Games of the confirmation run (fresh seeds)."),
    ] = None,
    tolerance: Annotated[
        str | None,
        typer.Option(
            help="Close enough, e.g. 5% for a rate or 2 for turns (default: the "
            "target must lie in the confirmation's 95% interval)."
        ),
    ] = None,
    players: Players = None,
    bots: Bots = "greedy",
    seed: Annotated[int, typer.Option()] = 0,
    option: OptionOpt = None,
    workers: Workers = 1,
    dask: DaskOpt = None,
    dask_idle: DaskIdleOpt = "wait",
    executor: ExecutorOpt = None,
    json_out: JsonOpt = None,
) -> None:
    """Search values of --param that bring a metric to its target (Optuna's TPE sampler)."""
    if len(objective) > 1:  # a repeated option kept the last one, silently
        raise usage_error(
            f"--objective is given {len(objective)} times: tune brings one metric to its "
            "target (run it once per objective)"
        )
    per_trial = games or max(100, budget // 20)
    request = sim_request(
        games=per_trial,
        players=players,
        bots=bots,
        seed=seed,
        option=option,
        workers=workers,
        executor=executor,
        dask=dask,
        dask_idle=dask_idle,
    )
    with _stoppable("the tuning reports once its confirmation run is played; nothing reported"):
        _tune(game, param, objective[0], budget, confirm, tolerance, request, json_out)


def _tune(
    game: str | None,
    param: list[str],
    objective: str,
    budget: int,
    confirm: int | None,
    tolerance: str | None,
    request: Any,
    json_out: Path | None,
) -> None:
    from rich.table import Table

    from toolkit.sim.options import SetupError
    from toolkit.sim.report import format_value
    from toolkit.sim.sweep import once_each
    from toolkit.sim.tune import (
        TuneStopped,
        TuneUnavailable,
        describe,
        parse_objective,
        parse_param,
        parse_tolerance,
        spaces,
    )
    from toolkit.sim.tune import tune as run_tune
    from toolkit.sim.variants import VariantError

    try:
        specs = [parse_param(text) for text in param]
        once_each(specs, "--param")
        key, target = parse_objective(objective)
        within = parse_tolerance(key, tolerance) if tolerance is not None else None
    except SetupError as exc:
        raise usage_error(str(exc)) from None
    per_trial = request.games
    trials = max(1, budget // per_trial)
    if trials > MAX_TRIALS:
        raise usage_error(
            f"--budget {budget} at {per_trial} games per trial makes {trials:,} trials;"
            f" at most {MAX_TRIALS:,} (raise -n or lower --budget)"
        )
    if json_out is not None:
        refuse_output(json_out, _game_folder(game))
    confirm_games = confirm or max(per_trial * 4, 1000)
    total = per_trial * trials + confirm_games
    if budget < per_trial:  # `--budget 20` played 1,100 games without a word
        stderr.print(
            f"note: --budget {budget:,} is less than one trial of {per_trial:,} games: one"
            f" trial is played, then the {confirm_games:,}-game confirmation"
            f" ({total:,} games in all; lower -n for smaller trials)",
            soft_wrap=True,
        )
    with _session(game, request) as (base, pool):
        try:
            space = spaces(base, specs)
            with _progress(total) as bar:
                task = bar.add_task(f"{base.game.id}: {trials} trials", total=total)
                result = run_tune(
                    base,
                    space,
                    key,
                    target,
                    trials,
                    confirm_games,
                    pool,
                    lambda k: bar.advance(task, k),
                    tolerance=within,
                )
        except VariantError as exc:
            raise _refused(exc) from None
        except (SetupError, TuneUnavailable) as exc:
            raise usage_error(str(exc)) from None
        except TuneStopped as stop:
            stderr.print(f"interrupted after {stop.trials} of {trials} trial(s)")
            raise
    c = result.confirmation
    shown = f"{target * 100:g}%" if c.kind == "rate" else f"{target:g}"
    if within is not None:
        shown += f" ± {within * 100:g}%" if c.kind == "rate" else f" ± {within:g}"
    title = f"{result.game}: trials toward {key} = {shown} ({per_trial} games each)"
    table = Table(title=escape(title))
    for col in ("trial", "values", key, "distance"):
        table.add_column(col)
    for t in result.trials:
        cell = format_value(t.metric) if t.metric else f"[red]refused[/red] {escape(t.refused)}"
        dist = "-" if t.distance is None else f"{t.distance:.4g}"
        table.add_row(str(t.number), escape(describe(t.values)), cell, dist)
    out = stdout.get()
    out.print(table)
    verdict = "[green]meets[/green]" if result.meets_target else "[red]misses[/red]"
    out.print(
        f"best: {escape(describe(result.best.values))} — confirmation on"
        f" {result.confirmation_games} fresh games: {escape(key)} {format_value(c)}; {verdict}"
        f" the target {shown}"
    )
    if json_out:
        import json

        from toolkit.fileio import atomic_write_text

        text = json.dumps(result.to_json(), indent=2, ensure_ascii=False, default=str)
        write_output(json_out, lambda path: atomic_write_text(path, text + "\n"))
    failures = failed_games(base, total)
    if failures:
        raise engine_findings(failures, f"{base.failed} game(s) failed; see the findings above")


def replay(
    game: GameArg = None,
    index: Annotated[
        int, typer.Option("--game", "-g", min=0, max=MAX_GAMES - 1, help="The game's index.")
    ] = 0,
    seed: Annotated[int, typer.Option()] = 0,
    players: Players = None,
    bots: Bots = "greedy",
    option: OptionOpt = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="PATH=VALUE: a sweep point's rules value or option."),
    ] = None,
) -> None:
    """Replay one game from (seed, index) and tell it move by move, with its final scores."""
    from rich.table import Table

    from toolkit.content.suggest import tips_run
    from toolkit.sim.options import SetupError
    from toolkit.sim.replay import replay as run_replay
    from toolkit.sim.sweep import (
        check_point,
        once_each,
        parse_vary,
        point_simulation,
        value_text,
    )
    from toolkit.sim.variants import VariantError, resolve

    request = sim_request(games=index + 1, players=players, bots=bots, seed=seed, option=option)
    try:
        specs = [parse_vary(text, "--set") for text in set_ or []]
        once_each(specs, "--set")
    except SetupError as exc:
        raise usage_error(str(exc)) from None
    if any(len(values) != 1 for _, values in specs):
        raise usage_error("--set takes one value (PATH=VALUE)")
    with _session(game, request) as (base, _):
        try:
            with tips_run():  # the unknown paths' 'did you mean's: a few a run
                combo = [(resolve(base.game, path, values), values[0]) for path, values in specs]
            options, rules = check_point(base.game, base.config.setup.players, combo)
        except VariantError as exc:
            raise _refused(exc) from None
        result = run_replay(point_simulation(base, options, rules), index)
    record = result.record
    table = Table(title=f"{base.game.id}: game {index} of seed {seed}")
    for col in ("move", "round", "seat", "choice", "then"):
        table.add_column(col)
    for m in result.moves:
        seat = f"{m.seat} {m.role}".strip()
        choice = m.choice if m.choices == 1 else f"{m.choice} (of {m.choices})"
        cells = (seat, choice, ", ".join(m.outcome))
        table.add_row(str(m.number), str(m.round), *(escape(cell) for cell in cells))
    out = stdout.get()
    out.print(table)
    if record.failure is not None:  # the engine's mistake this replay was asked to show
        base.failed, base.failures = 1, [record.failure]
        raise engine_findings(base.failure_diagnostics(), f"game {index} failed")
    ending = "timed out (turn cap)" if record.timed_out else f"{record.turns} turns"
    scores = ", ".join(f"seat {s} {v:g}" for s, v in enumerate(record.scores))
    results = ", ".join(f"{v:g}" for v in record.returns)
    out.print(f"{ending}, {record.rounds} rounds; scores: {scores}; results: {results}")
    if specs:
        out.print(escape("with " + ", ".join(f"{p}={value_text(v[0])}" for p, v in specs)))
