"""Set up a simulation from a game folder and CLI-style options; run it; build the report."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.content.game import Game
from toolkit.sim.aggregate import Aggregate
from toolkit.sim.bots import GENERIC_BOTS
from toolkit.sim.engine import GameSetup
from toolkit.sim.executors import open_executor, stream_records
from toolkit.sim.metrics import SimReport
from toolkit.sim.runner import SimConfig, check_stop, prepare_loaded, stop_on_signals


class SetupError(ValueError):
    """Options that do not fit the game (a usage error on the CLI)."""


class Stopped(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM: `report` covers the `games` finished (in game
    order, so it is the first games of the full run), marked partial."""

    def __init__(self, report: SimReport, games: int, cause: BaseException) -> None:
        super().__init__(f"stopped after {games} game(s)")
        self.report = report
        self.games = games
        self.signum = getattr(cause, "signum", 2)


def _fold(aggregate: Aggregate, records: Iterable[Any]) -> None:
    """Add records one by one, checking between games for a stop request."""
    for record in records:
        aggregate.add(record)
        check_stop()


def parse_options(
    game: Game, pairs: Sequence[str], players: int | None = None
) -> dict[str, bool | int | str]:
    """`name=value` pairs checked against the manifest's declared options (and the player
    counts an option allows)."""
    declared = {o.id: o for o in game.manifest.options} if game.manifest else {}
    values: dict[str, bool | int | str] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            raise SetupError(f"--option {pair!r}: expected name=value")
        option = declared.get(name)
        if name in values:
            raise SetupError(f"--option {name} is given twice")
        if option is None:
            known = ", ".join(declared) or "none"
            raise SetupError(f"unknown option {name!r} (this game has: {known})")
        if option.players and players is not None and players not in option.players:
            allowed = ", ".join(map(str, option.players))
            raise SetupError(f"option {name} needs {allowed} players, not {players}")
        if option.type == "bool":
            if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise SetupError(f"option {name} takes true or false, not {raw!r}")
            values[name] = raw.lower() in ("true", "yes", "1")
        elif option.type == "int":
            try:
                number = int(raw)
            except ValueError:
                raise SetupError(f"option {name} takes a whole number, not {raw!r}") from None
            if (option.min is not None and number < option.min) or (
                option.max is not None and number > option.max
            ):
                raise SetupError(f"option {name}={number} is outside {option.min}..{option.max}")
            values[name] = number
        else:
            if raw not in option.choices:
                raise SetupError(f"option {name} takes one of {', '.join(option.choices)}")
            values[name] = raw
    return values


def default_players(game: Game) -> int:
    if game.manifest is None:
        raise SetupError(f"{game.id}: the manifest is not valid")
    players = game.manifest.players
    return max(players.min, min(4, players.max))


@dataclass
class Simulation:
    game: Game
    config: SimConfig
    coop: bool
    failed: int = 0  # games of the last play() stopped by an engine mistake
    failures: list[Any] = field(default_factory=list)  # the first few, as GameFailures

    def absorb(self, other: Simulation) -> None:
        """Count another run's failed games as this one's (a sweep's points, tune's trials),
        keeping the first few findings."""
        self.failed += other.failed
        self.failures += other.failures[: max(0, 10 - len(self.failures))]

    def failure_diagnostics(self) -> list[Any]:
        """The last play()'s failed games as diagnostics at the engine's lines (E003–E005)."""
        from toolkit.diagnostics import REGISTRY, Span

        return [REGISTRY.get(f.code).at(f.file, Span(f.line, 1), f.message) for f in self.failures]

    def run(
        self,
        workers: int = 1,
        progress: Callable[[int], None] | None = None,
        executor: Executor | None = None,
    ) -> tuple[SimReport, tuple[()]]:
        """`play()` as the list runner's callers unpack it: (report, records), where the
        records are no longer kept (an empty tuple)."""
        return self.play(workers, progress, executor), ()

    def play(
        self,
        workers: int = 1,
        progress: Callable[[int], None] | None = None,
        executor: Executor | None = None,
    ) -> SimReport:
        """Play the games on `executor` (default: inline for one worker, else a local pool)
        and fold them into the report as they arrive: no per-game list is kept."""
        # the caller's loaded game, compiled once here and shipped to the workers
        (compiled, _), shipped = prepare_loaded(self.config, self.game)
        in_play = compiled.cards_in_play(self.config.setup)
        aggregate = Aggregate(compiled.event_names, compiled.card_names, self.coop, in_play)
        setup: dict[str, Any] = {
            "players": self.config.setup.players,
            "bots": ",".join(self.config.bots),
            "seed": self.config.seed,
            **dict(self.config.rules),
            **self.config.setup.options,
        }
        try:
            with stop_on_signals():
                if executor is None:
                    with open_executor(None, workers) as own:
                        records = stream_records(self.config, own, workers, progress, shipped)
                        _fold(aggregate, records)
                else:
                    records = stream_records(self.config, executor, workers, progress, shipped)
                    _fold(aggregate, records)
        except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the games finished so far
            setup["partial"] = f"{aggregate.games} of {self.config.games} games"
            self._note_failures(aggregate, setup)
            raise Stopped(aggregate.report(self.game.id, setup), aggregate.games, exc) from None
        self._note_failures(aggregate, setup)
        return aggregate.report(self.game.id, setup)

    def _note_failures(self, aggregate: Aggregate, setup: dict[str, Any]) -> None:
        self.failed, self.failures = aggregate.failed, list(aggregate.failures)
        if aggregate.failed:
            setup["failed"] = f"{aggregate.failed} of {aggregate.failed + aggregate.games} games"


def prepare(
    game: Game,
    game_dir: Path,
    games: int,
    players: int | None,
    bots: Sequence[str],
    seed: int,
    options: Sequence[str],
) -> Simulation:
    """The simulation the CLI asked for, checked before any game is played: the engine
    loads (an EngineError otherwise), the player count, bots and options fit the game."""
    from toolkit.sim.engines import engine_of, no_engine_message

    engine = engine_of(game) if game.manifest is not None else None
    if game.manifest is None or engine is None:
        raise SetupError(no_engine_message(game.id))
    count = default_players(game) if players is None else players  # -p 0 is refused below
    low, high = game.manifest.players.min, game.manifest.players.max
    if not low <= count <= high:
        raise SetupError(f"{game.id} plays with {low}–{high} players, not {count}")
    known = {**GENERIC_BOTS, **engine.bots}
    for name in bots:
        if name not in known:
            raise SetupError(f"unknown bot {name!r} (choose from {', '.join(sorted(known))})")
    values = parse_options(game, options, count)
    config = SimConfig(game_dir, GameSetup(count, values), tuple(bots), seed, games)
    if "greedy" in bots and "greedy" not in engine.bots:
        _greedy_fits(engine, game, config.setup)
    return Simulation(game, config, cooperative(game, values))


def _greedy_fits(engine: Any, game: Game, setup: GameSetup) -> None:
    """The generic greedy bot needs the State's score_estimate hook: say so before playing."""
    from toolkit.sim.bots import greedy_hook_missing
    from toolkit.sim.engines import compile_checked

    compiled = compile_checked(engine, game)
    try:
        state = compiled.new_state(setup, 0)
    except Exception:  # the run itself reports a new_state that raises, at its line
        return
    missing = greedy_hook_missing(state)
    if missing:
        raise SetupError(f"{game.id}: {missing}")


def cooperative(game: Game, options: dict[str, bool | int | str]) -> bool:
    """Whether these options make play co-operative, as the game's `cooperative:` says."""
    return game.manifest is not None and game.manifest.is_cooperative(options)
