"""`playset simulate` and `playset check`: play many games and report on balance."""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.models import OptionInfo

from toolkit.cli.common import (
    MaxWarningsOpt,
    StrictOpt,
    escape,
    game_folders,
    gated_game,
    refuse_outputs,
    stderr,
    stdout,
    usage_error,
    write_output,
)
from toolkit.diagnostics.formats import FORMATS

GameArg = Annotated[
    str | None,
    typer.Argument(help="A bundled game's id or a game folder (default: the folder you are in)."),
]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", help="Game option name=value (repeatable).")
]


DaskOpt = Annotated[
    str | None,
    typer.Option(
        "--dask",
        help="Run on Dask (pip install 'playset\\[dask]'): local:N starts N workers here, "
        "tcp://HOST:8786 joins a running scheduler. Same results as the local pool.",
    ),
]


DaskIdleOpt = Annotated[
    str,
    typer.Option(
        "--dask-idle",
        help="When a Dask cluster has no worker left: wait[:SECONDS] says so after SECONDS "
        "(30) and waits for one to join; stop[:SECONDS] ends the run then, with the reason.",
    ),
]


def idle_policy(text: str) -> Any:
    """The executors' Idle policy for --dask-idle (`wait`, `stop`, `wait:60`, `stop:10`)."""
    from toolkit.sim.executors import Idle

    mode, _, seconds = text.partition(":")
    try:
        after = float(seconds) if seconds else 30.0
    except ValueError:
        after = -1.0
    if mode not in ("wait", "stop") or not 0 <= after < math.inf:  # NaN fails both
        raise usage_error(f"--dask-idle {text} (expected wait or stop, then :SECONDS if wanted)")
    return Idle(after, mode == "stop", lambda words: stderr.print(escape(words)))


class _RegistryHelp(OptionInfo):
    """An option whose help is written each time the command line is built, from a
    registry: an executor an installed package adds is listed with the built-in ones."""

    def __init__(self, make_help: Callable[[], str], *param_decls: str) -> None:
        self._make_help = make_help
        super().__init__(default=..., param_decls=param_decls)

    @property
    def help(self) -> str:
        return self._make_help()

    @help.setter
    def help(self, value: object) -> None:
        """Typer's constructor sets the help; this option's is always the registry's."""


def executor_help() -> str:
    """--executor's help: each executor of the registry, as `NAME[:ARG]` picks it."""
    from toolkit.sim.executors import executors

    listed = "; ".join(f"{kind.name}: {kind.summary}" for kind in executors())
    return escape(
        f"Where the games run, NAME or NAME:ARG from the executor registry ({listed}). "
        "Default: inline for one worker, else pool; --dask X is dask:X."
    )


ExecutorOpt = Annotated[str | None, _RegistryHelp(executor_help, "--executor")]


def executor_spec(executor: str | None, dask: str | None) -> str | None:
    """The executor registry's spec from --executor or its --dask shorthand (None: inline
    for one worker, else the local pool of --workers); an empty --dask is refused, not
    taken as "no Dask", and so is --dask with --executor."""
    from toolkit.sim.executors import ExecutorError

    if dask is None:
        return executor
    if executor is not None:
        raise ExecutorError(f"--dask {dask} and --executor {executor}: choose one")
    if not dask.strip():
        raise ExecutorError("--dask needs local:N or tcp://HOST:PORT, not an empty value")
    return f"dask:{dask}"


def sim_request(
    *,
    games: int,
    players: int | None,
    bots: str,
    seed: int,
    option: list[str] | None,
    workers: int = 1,
    executor: str | None = None,
    dask: str | None = None,
    dask_idle: str = "wait",
) -> Any:
    """The one typed request every simulation command builds from its options (a bad
    --dask-idle, or --dask with --executor, is a usage error)."""
    from toolkit.sim.executors import ExecutorError
    from toolkit.sim.request import SimRequest

    try:
        spec = executor_spec(executor, dask)
    except ExecutorError as exc:
        raise usage_error(str(exc)) from None
    return SimRequest(
        games=games,
        players=players,
        bots=tuple(bots.split(",")),
        seed=seed,
        options=tuple(option or ()),
        workers=workers,
        executor=spec,
        idle=idle_policy(dask_idle),
    )


def engine_findings(diagnostics: list[Any], summary: str) -> typer.Exit:
    """Print engine mistakes as positioned findings (never a traceback); exit 1."""
    from toolkit.diagnostics.formats import render

    sys.stdout.write(render(diagnostics, "text") + "\n")
    stderr.print(f"[red]{escape(summary)}[/red]")
    return typer.Exit(1)


def failed_games(sim: Any, total: int | None = None) -> list[Any]:
    """The failed games of a played simulation, told on stderr (count) and as findings."""
    if not sim.failed:
        return []
    shown = sim.failure_diagnostics()
    total = total or sim.config.games
    more = f" (the first {len(shown)} shown)" if len(shown) < sim.failed else ""
    stderr.print(
        f"[red]{sim.failed} of {total} game(s) failed on an engine mistake{more}[/red]; "
        "the report covers the others"
    )
    return shown


def _progress(total: int) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=stderr.get(),
        transient=True,
        disable=not sys.stderr.isatty(),
    )


def simulate(
    game: GameArg = None,
    games: Annotated[int, typer.Option("-n", "--games", min=1, max=10_000_000)] = 1000,
    players: Annotated[int | None, typer.Option("--players", "-p")] = None,
    bots: Annotated[str, typer.Option(help="Bots per seat, cycled: greedy,random,mcts")] = "greedy",
    seed: Annotated[int, typer.Option()] = 0,
    workers: Annotated[int, typer.Option(min=1, max=256)] = 1,
    option: OptionOpt = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the report as JSON.")
    ] = None,
    pdf_out: Annotated[Path | None, typer.Option("--pdf", help="Write the report as PDF.")] = None,
    dask: DaskOpt = None,
    dask_idle: DaskIdleOpt = "wait",
    executor: ExecutorOpt = None,
) -> None:
    """Play GAME many times with bots and report completion, length and fairness."""
    from toolkit.sim.signals import stop_on_signals

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
    try:
        with stop_on_signals():
            _simulate(game, request, json_out, pdf_out)
    except KeyboardInterrupt as stop:  # before the games started
        stderr.print(f"interrupted before any game finished (0 of {games})")
        raise typer.Exit(128 + getattr(stop, "signum", 2)) from None


def _simulate(game: str | None, request: Any, json_out: Path | None, pdf_out: Path | None) -> None:
    from toolkit.sim.engines import EngineError
    from toolkit.sim.executors import ExecutorError
    from toolkit.sim.options import SetupError
    from toolkit.sim.report import print_report, write_json, write_pdf
    from toolkit.sim.session import Stopped, prepare

    folders = game_folders([game] if game else None)
    if len(folders) != 1:
        raise usage_error("name the game to simulate (an id or a folder), or run it in one")
    (folder,) = folders
    refuse_outputs({"--json": json_out, "--pdf": pdf_out}, folder)
    loaded = gated_game(folder)
    if loaded is None:
        raise typer.Exit(1)
    try:
        sim = prepare(loaded, folder, request)
    except SetupError as exc:
        raise usage_error(str(exc)) from None
    except EngineError as exc:
        raise engine_findings([exc.diagnostic], "the engine cannot play; nothing played") from None
    if "mcts" in request.bots:
        stderr.print(
            "note: mcts bots run many playouts per move (seconds to a minute per game); "
            "Ctrl-C stops and reports the games finished"
        )
    code = 0
    games = request.games
    try:
        with request.open() as pool, _progress(games) as bar:
            task = bar.add_task(f"{loaded.id}", total=games)
            report = sim.play(lambda k: bar.advance(task, k), pool)
    except ExecutorError as exc:
        raise usage_error(str(exc)) from None
    except EngineError as exc:
        raise engine_findings([exc.diagnostic], "the engine cannot play; nothing played") from None
    except Stopped as stop:
        code = 128 + stop.signum
        if not stop.games:
            stderr.print(f"interrupted before any game finished (0 of {games})")
            _exit_now(code)
        stderr.print(f"[yellow]interrupted[/yellow]: partial report of {stop.games} game(s)")
        report = stop.report
    failures = failed_games(sim)
    if report.games:
        print_report(report, stdout.get())
        for target, writer in ((json_out, write_json), (pdf_out, write_pdf)):
            if target is not None:
                write_output(target, functools.partial(writer, report))
    if code:
        _exit_now(code)
    if failures:
        raise engine_findings(failures, f"{sim.failed} game(s) failed; see the findings above")


def _exit_now(code: int) -> None:
    """End a stopped run without the interpreter's exit hooks: the process pool's hook
    would wake threads of workers already killed (an OSError printed at exit, Python 3.11)."""
    from toolkit.sim.exits import hard_exit

    sys.stdout.flush()
    sys.stderr.flush()
    hard_exit(code)


def check(
    games_arg: Annotated[
        list[str] | None, typer.Argument(help="Games (default: all bundled).")
    ] = None,
    games: Annotated[int, typer.Option("-n", "--games", min=10, max=1_000_000)] = 300,
    players: Annotated[int | None, typer.Option("--players", "-p")] = None,
    bots: Annotated[str, typer.Option(help="Bots per seat, cycled.")] = "greedy",
    seed: Annotated[int, typer.Option()] = 0,
    option: OptionOpt = None,
    fmt: Annotated[str, typer.Option("--format", "-f")] = "text",
    exit_zero: Annotated[
        bool, typer.Option("--exit-zero", help="Exit 0 even with errors (as ruff).")
    ] = False,
    workers: Annotated[int, typer.Option(min=1, max=256)] = 1,
    dask: DaskOpt = None,
    contract: Annotated[
        bool,
        typer.Option(
            "--contract",
            help="Instead of the balance run: check the engine's contract with random play "
            "at every player count (legal moves, termination, cloning, seeds, invariants, "
            "scores); -n/30 games per player count (at least 2), every count or -p's.",
        ),
    ] = False,
    dask_idle: DaskIdleOpt = "wait",
    executor: ExecutorOpt = None,
    strict: StrictOpt = False,
    max_warnings: MaxWarningsOpt = None,
) -> None:
    """Validate, then simulate a few hundred games; balance findings become B diagnostics.
    Exit 1 on errors; warnings exit 0 unless --strict or --max-warnings N."""
    from toolkit.diagnostics.formats import fails, render
    from toolkit.sim.executors import ExecutorError

    if fmt not in FORMATS:
        raise usage_error(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    try:
        if contract:
            found = _check_contracts(games_arg, max(2, games // 30), players, seed, fmt)
        else:
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
            found = _check_all(games_arg, request, fmt)
    except ExecutorError as exc:
        raise usage_error(str(exc)) from None
    output = render(found, fmt)
    if output:
        sys.stdout.write(output + "\n")
    if fmt == "text":
        stderr.print(f"{len(found)} finding(s)" if found else "[green]clean[/green]")
    findings = fails(found, strict, max_warnings)
    raise typer.Exit(1 if findings and not exit_zero else 0)


def _check_contracts(
    games_arg: list[str] | None, games: int, players: int | None, seed: int, fmt: str
) -> list[Any]:
    """Validate each game, then run the random-play contract on its engine (at every
    player count, or only at `players`)."""
    from toolkit.checks import run_checks
    from toolkit.content.game import load_game
    from toolkit.diagnostics import Severity
    from toolkit.sim.contract_run import contract_findings
    from toolkit.sim.engines import EngineError, has_engine, no_engine_message
    from toolkit.sim.signals import stop_on_signals

    found: list[Any] = []
    for folder in game_folders(games_arg):
        loaded = load_game(folder)
        diags = run_checks(loaded)
        found.extend(diags)
        if any(d.severity == Severity.ERROR for d in diags):
            continue
        if not has_engine(loaded):
            if fmt == "text":
                message = no_engine_message(loaded.id).replace(" has no", ": no", 1)
                stderr.print(f"{escape(message)}; validated only", soft_wrap=True)
            continue
        low, high = loaded.checked_manifest.players.min, loaded.checked_manifest.players.max
        if players is not None and not low <= players <= high:  # as `check` without it says
            # (`-p 0 --contract` ran no count at all and said "clean")
            raise usage_error(f"{loaded.id} plays with {low}–{high} players, not {players}")
        try:
            with stop_on_signals():  # Ctrl-C told from an engine's own KeyboardInterrupt
                found.extend(contract_findings(loaded, games, seed, players))
        except EngineError as exc:
            found.append(exc.diagnostic)
    return found


def _check_all(games_arg: list[str] | None, request: Any, fmt: str) -> list[Any]:
    from toolkit.checks import balance, run_checks
    from toolkit.content.game import load_game
    from toolkit.diagnostics import Severity
    from toolkit.diagnostics.suppress import unsuppressed
    from toolkit.sim.engines import EngineError, has_engine, no_engine_message
    from toolkit.sim.options import SetupError
    from toolkit.sim.session import prepare

    found: list[Any] = []
    with request.open() as pool:
        for folder in game_folders(games_arg):
            loaded = load_game(folder)
            diags = run_checks(loaded)
            found.extend(diags)
            if any(d.severity == Severity.ERROR for d in diags) or not has_engine(loaded):
                if not has_engine(loaded) and fmt == "text":
                    message = no_engine_message(loaded.id).replace(" has no", ": no", 1)
                    stderr.print(f"{escape(message)}; validated only", soft_wrap=True)
                continue
            try:
                sim = prepare(loaded, folder, request)
                report = sim.play(executor=pool)
            except SetupError as exc:
                raise usage_error(str(exc)) from None
            except EngineError as exc:
                found.append(exc.diagnostic)
                continue
            found.extend(failed_games(sim) if fmt == "text" else sim.failure_diagnostics())
            if report.games:
                findings = balance.check(loaded, report)
                found.extend(unsuppressed(findings, inside=[Path(loaded.root)]))
    return found
