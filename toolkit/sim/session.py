"""A simulation set up from a loaded game and a request (toolkit.sim.request), checked before
any game is played; played through the one simulation path (toolkit.sim.play) and folded
into the report as the records arrive."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.content.game import Game
from toolkit.sim.aggregate import Aggregate
from toolkit.sim.bots import GENERIC_BOTS
from toolkit.sim.engine import CompiledGame, GameSetup
from toolkit.sim.engines import engine_of, no_engine_message, setup_facts
from toolkit.sim.metrics import SimReport, report_from
from toolkit.sim.options import SetupError, cooperative, default_players, parse_options
from toolkit.sim.play import play_games
from toolkit.sim.prepared import Prepared, SimConfig, content_digest
from toolkit.sim.prepared import prepare as prepare_config
from toolkit.sim.request import SimRequest


class Stopped(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM: `report` covers the `games` finished (in game
    order, so it is the first games of the full run), marked partial."""

    def __init__(self, report: SimReport, games: int, cause: BaseException) -> None:
        super().__init__(f"stopped after {games} game(s)")
        self.report = report
        self.games = games
        self.signum = getattr(cause, "signum", 2)


@dataclass
class Simulation:
    game: Game
    config: SimConfig
    coop: bool
    request: SimRequest = field(default_factory=SimRequest)
    failed: int = 0  # games of the last play() stopped by an engine mistake
    failures: list[Any] = field(default_factory=list)  # the first few, as GameFailures
    # the compiled game, its bots and their pickle, for the config they were built for
    _kept: tuple[SimConfig, Prepared, bytes | None] | None = field(
        default=None, repr=False, compare=False
    )
    # the last compiled game by its rules values, shared with the points made from this
    # simulation (dataclasses.replace keeps the same list): points that differ only in
    # options compile once
    _compiled: list[tuple[str, CompiledGame]] = field(
        default_factory=list, repr=False, compare=False
    )

    def absorb(self, other: Simulation) -> None:
        """Count another run's failed games as this one's (a sweep's points, tune's trials),
        keeping the first few findings."""
        self.failed += other.failed
        self.failures += other.failures[: max(0, 10 - len(self.failures))]

    def failure_diagnostics(self) -> list[Any]:
        """The last play()'s failed games as diagnostics at the engine's lines (E003–E005)."""
        from toolkit.diagnostics import REGISTRY, Span

        return [REGISTRY.get(f.code).at(f.file, Span(f.line, 1), f.message) for f in self.failures]

    def prepared(self) -> tuple[Prepared, bytes | None]:
        """The loaded game compiled once (again only for a sweep's point with other rules
        values), with its bots, pickled for the workers."""
        kept = self._kept
        if kept is None or kept[0] != self.config:
            # options only change the setup a state is dealt with: same rules, same compile
            rules = repr(self.config.rules)
            compiled = next((c for key, c in self._compiled if key == rules), None)
            prepared, shipped = prepare_config(self.config, self.game, compiled)
            self._compiled[:] = [(rules, prepared[0])]
            self._kept = kept = (self.config, prepared, shipped)
        return kept[1], kept[2]

    def play(
        self,
        progress: Callable[[int], None] | None = None,
        executor: Executor | None = None,
    ) -> SimReport:
        """Play the games on `executor` (default: the request's, inline for one worker)
        and fold them into the report as they arrive: no per-game list is kept."""
        (compiled, _), shipped = self.prepared()
        events, cards, in_play = setup_facts(compiled, self.config.setup)
        aggregate = Aggregate(events, cards, self.coop, in_play)
        setup: dict[str, Any] = {
            "players": self.config.setup.players,
            "bots": ",".join(self.config.bots),
            "seed": self.config.seed,
            **dict(self.config.rules),
            **self.config.setup.options,
        }
        workers = self.request.workers
        try:
            if executor is None:
                with self.request.open() as own:
                    play_games(self.config, aggregate.add, workers, own, progress, shipped)
            else:
                play_games(self.config, aggregate.add, workers, executor, progress, shipped)
        except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the games finished so far
            setup["partial"] = f"{aggregate.games} of {self.config.games} games"
            self._note_failures(aggregate, setup)
            report = report_from(aggregate, self.game.id, setup)
            raise Stopped(report, aggregate.games, exc) from None
        self._note_failures(aggregate, setup)
        return report_from(aggregate, self.game.id, setup)

    def _note_failures(self, aggregate: Aggregate, setup: dict[str, Any]) -> None:
        self.failed, self.failures = aggregate.failed, list(aggregate.failures)
        if aggregate.failed:
            setup["failed"] = f"{aggregate.failed} of {aggregate.failed + aggregate.games} games"


def prepare(game: Game, game_dir: Path, request: SimRequest) -> Simulation:
    """The simulation the request asks for, checked before any game is played: the engine
    loads (an EngineError otherwise), the player count, bots and options fit the game."""
    engine = engine_of(game) if game.manifest is not None else None
    if game.manifest is None or engine is None:
        raise SetupError(no_engine_message(game.id))
    players = request.players
    count = default_players(game) if players is None else players  # -p 0 is refused below
    low, high = game.manifest.players.min, game.manifest.players.max
    if not low <= count <= high:
        raise SetupError(f"{game.id} plays with {low}–{high} players, not {count}")
    known = {**GENERIC_BOTS, **engine.bots}
    for name in request.bots:
        if name not in known:
            raise SetupError(f"unknown bot {name!r} (choose from {', '.join(sorted(known))})")
    values = parse_options(game, request.options, count)
    setup = GameSetup(count, values)
    config = SimConfig(
        game_dir,
        setup,
        request.bots,
        request.seed,
        request.games,
        game_id=game.id,
        # other processes may load the folder themselves: they compare what they read with
        # this (~50 ms on a large game, so not taken for a run played here alone)
        digest="" if _played_here(request) else content_digest(game),
    )
    sim = Simulation(game, config, cooperative(game, values), request)
    if "greedy" in request.bots and "greedy" not in engine.bots:
        _greedy_fits(sim)
    return sim


def _played_here(request: SimRequest) -> bool:
    """Whether every game of the request is played in this process (no worker loads the
    game from its folder)."""
    kind = (request.executor or "").partition(":")[0]
    return kind in ("", "inline") and request.workers <= 1


def _greedy_fits(sim: Simulation) -> None:
    """The generic greedy bot needs the State's score_estimate hook: say so before playing
    (on the compiled game the run then plays: compiled once)."""
    from toolkit.sim.bots import greedy_hook_missing

    (compiled, _), _ = sim.prepared()
    try:
        state = compiled.new_state(sim.config.setup, 0)
    except Exception:  # the run itself reports a new_state that raises, at its line
        return
    missing = greedy_hook_missing(state)
    if missing:
        raise SetupError(f"{sim.game.id}: {missing}")
