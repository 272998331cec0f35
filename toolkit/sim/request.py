"""What a user asks a simulation command to play, as one typed value: the CLI builds it
once from its options and hands it down (to toolkit.sim.session.prepare, and to the
executor registry), instead of threading each option through every function."""

from __future__ import annotations

import contextlib
from concurrent.futures import Executor
from dataclasses import dataclass, field

from toolkit.sim.executors import open_executor
from toolkit.sim.executors.base import Idle


@dataclass(frozen=True)
class SimRequest:
    """The games to play and where: unchecked against the game until `session.prepare`
    (player count, bots, options); the executor spec until `open()`."""

    games: int = 1000
    players: int | None = None  # None: the game's default count
    bots: tuple[str, ...] = ("greedy",)  # cycled over the seats
    seed: int = 0
    options: tuple[str, ...] = ()  # name=value pairs, as --option takes them
    workers: int = 1
    executor: str | None = None  # a registry spec (pool:4, dask:local:2); None: by workers
    idle: Idle = field(default_factory=Idle)  # what a cluster left without workers does

    def open(self) -> contextlib.AbstractContextManager[Executor]:
        """The executor this request names (ExecutorError if it cannot start)."""
        return open_executor(self.executor, self.workers, self.idle)
