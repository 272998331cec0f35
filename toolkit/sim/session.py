"""Set up a simulation from a game folder and CLI-style options; run it; build the report."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.content.game import Game
from toolkit.sim.aggregate import Aggregate
from toolkit.sim.bots import GENERIC_BOTS
from toolkit.sim.engine import GameSetup
from toolkit.sim.executors import open_executor, stream_records
from toolkit.sim.metrics import SimReport
from toolkit.sim.runner import SimConfig, check_stop, compile_game, stop_on_signals


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
    assert game.manifest is not None, "a valid game has a manifest"
    players = game.manifest.players
    return max(players.min, min(4, players.max))


@dataclass
class Simulation:
    game: Game
    config: SimConfig
    coop: bool

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
        compiled = compile_game(self.config.game_dir, self.config.rules)
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
                        _fold(aggregate, stream_records(self.config, own, workers, progress))
                else:
                    _fold(aggregate, stream_records(self.config, executor, workers, progress))
        except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the games finished so far
            setup["partial"] = f"{aggregate.games} of {self.config.games} games"
            raise Stopped(aggregate.report(self.game.id, setup), aggregate.games, exc) from None
        return aggregate.report(self.game.id, setup)


def prepare(
    game: Game,
    game_dir: Path,
    games: int,
    players: int | None,
    bots: Sequence[str],
    seed: int,
    options: Sequence[str],
) -> Simulation:
    if game.manifest is None or game.plugin.engine is None:
        raise SetupError(f"{game.id} has no simulation engine")
    count = players or default_players(game)
    low, high = game.manifest.players.min, game.manifest.players.max
    if not low <= count <= high:
        raise SetupError(f"{game.id} plays with {low}–{high} players, not {count}")
    known = {**GENERIC_BOTS, **game.plugin.bots}
    for name in bots:
        if name not in known:
            raise SetupError(f"unknown bot {name!r} (choose from {', '.join(sorted(known))})")
    values = parse_options(game, options, count)
    config = SimConfig(game_dir, GameSetup(count, values), tuple(bots), seed, games)
    coop = values.get("mode") == "cooperative"
    return Simulation(game, config, coop)
