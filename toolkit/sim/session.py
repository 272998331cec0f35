"""Set up a simulation from a game folder and CLI-style options; run it; build the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.content.game import Game
from toolkit.sim.bots import GENERIC_BOTS
from toolkit.sim.engine import GameSetup
from toolkit.sim.metrics import Report, build_report
from toolkit.sim.runner import SimConfig, compile_game, run


class SetupError(ValueError):
    """Options that do not fit the game (a usage error on the CLI)."""


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
    players = game.manifest.players
    return max(players.min, min(4, players.max))


@dataclass
class Simulation:
    game: Game
    config: SimConfig
    coop: bool

    def run(
        self, workers: int = 1, progress: Callable[[int], None] | None = None
    ) -> tuple[Report, Any]:
        records = run(self.config, workers=workers, progress=progress)
        return self.report(records), records

    def report(self, records: list[Any], partial: bool = False) -> Report:
        """The report of `records` (games 0..k-1); a partial one says so in its setup."""
        compiled = compile_game(self.config.game_dir)
        setup: dict[str, Any] = {
            "players": self.config.setup.players,
            "bots": ",".join(self.config.bots),
            "seed": self.config.seed,
            **self.config.setup.options,
        }
        if partial:
            setup["partial"] = f"{len(records)} of {self.config.games} games"
        return build_report(
            self.game.id,
            setup,
            records,
            compiled.event_names,
            compiled.card_names,
            coop=self.coop,
            in_play=compiled.cards_in_play(self.config.setup),
        )


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
