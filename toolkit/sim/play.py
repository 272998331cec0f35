"""The one simulation path: every command, test and benchmark plays its games through
`play_games` (or `run`, its list form): the game prepared once (toolkit.sim.prepared),
batches on any executor of the registry (toolkit.sim.executors), records handed back in game
order with a bounded window in flight, a stop (Ctrl-C, SIGTERM) checked between games.
"""

from __future__ import annotations

import contextlib
import signal
from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from toolkit.sim.executors import batch_size, executor_workers, open_executor
from toolkit.sim.prepared import SimConfig, prepare, run_batch
from toolkit.sim.runner import GameRecord
from toolkit.sim.signals import check_stop, stop_on_signals

if TYPE_CHECKING:
    from toolkit.content.game import Game


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM: `records` are the games 0..k-1 that finished
    (a prefix, so the partial report is the first k games of the full one)."""

    def __init__(self, records: list[GameRecord], signum: int) -> None:
        super().__init__(f"stopped by signal {signum} after {len(records)} game(s)")
        self.records = records
        self.signum = signum


def play_games(
    config: SimConfig,
    take: Callable[[GameRecord], None],
    workers: int = 1,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    shipped: bytes | None = None,
) -> None:
    """Hand every game's record to `take`, in game order, played on `executor` (default:
    inline for one worker, else a local pool of `workers`). `shipped` is the prepared game
    (`prepare`); the caller prepares it once. A stop signal raises KeyboardInterrupt between
    games (the records taken so far are a prefix of the run)."""
    with stop_on_signals():
        check_stop()
        with contextlib.ExitStack() as stack:
            if executor is None:
                executor = stack.enter_context(open_executor(None, workers))
            stream = stack.enter_context(
                contextlib.closing(stream_records(config, executor, workers, progress, shipped))
            )
            for record in stream:
                take(record)
                check_stop()


def run(
    config: SimConfig,
    workers: int = 1,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    game: Game | None = None,
) -> list[GameRecord]:
    """Play `config.games` games and keep every record (`game`: the loaded game, else its
    folder is read once); identical results for any worker count or executor.

    Ctrl-C or SIGTERM stops the workers at once and raises `Interrupted` with the games
    finished so far; a second signal ends the process."""
    records: list[GameRecord] = []
    try:
        with stop_on_signals():
            _, shipped = prepare(config, game)
            play_games(config, records.append, workers, executor, progress, shipped)
    except KeyboardInterrupt as exc:
        raise Interrupted(records, getattr(exc, "signum", signal.SIGINT)) from None
    return records


def stream_records(
    config: SimConfig,
    executor: Executor,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    shipped: bytes | None = None,
) -> Generator[GameRecord, None, None]:
    """Every game's record in game order, with at most 2 × workers + 2 batches in flight
    (workers: the caller's count, or the executor's own when it runs more at once).
    `shipped` is the compiled game and bots pickled (`prepare`): each worker
    unpickles it once instead of loading the game folder again."""
    workers = max(workers, executor_workers(executor))
    size = config.batch or batch_size(config.games, workers)
    window = 2 * max(1, workers) + 2
    pending: deque[Future[list[GameRecord]]] = deque()
    batches = (
        range(start, min(config.games, start + size)) for start in range(0, config.games, size)
    )
    try:
        for batch in batches:
            pending.append(executor.submit(run_batch, config, batch, shipped))
            if len(pending) >= window:
                yield from _take(pending.popleft(), progress, executor)
        while pending:
            yield from _take(pending.popleft(), progress, executor)
    except BrokenProcessPool:
        raise _worker_died(config) from None
    except Exception as exc:  # Dask's KilledWorker, without importing distributed here
        if type(exc).__name__ == "KilledWorker":
            raise _worker_died(config) from None
        raise
    finally:
        for future in pending:
            future.cancel()


def _worker_died(config: SimConfig) -> Exception:
    """A pool worker that ended without a word (the engine's os._exit(), a crash of the
    interpreter, the system killing it for memory) as the engine's finding: a traceback of
    BrokenProcessPool said nothing of where to look."""
    from toolkit.content.game import display_path
    from toolkit.diagnostics import Span
    from toolkit.sim.engines import E_RAISED, EngineError

    message = (
        "a worker process ended abruptly while playing (the engine called os._exit(), "
        "crashed the interpreter, held it in one call far past the game's time bound, "
        "or the system stopped it for lack of memory); "
        "`--workers 1` plays the games here, one after another"
    )
    where = display_path(config.game_dir / "game.yaml")
    return EngineError(E_RAISED.at(where, Span(), message))


POLL_SECONDS = 1.0
"""How often a wait for a batch looks at the executor (a cluster may have lost its workers)."""


def _take(
    future: Future[list[GameRecord]],
    progress: Callable[[int], None] | None,
    executor: Executor | None = None,
) -> list[GameRecord]:
    check = getattr(executor, "idle_check", None)
    while True:
        try:
            records = future.result(timeout=POLL_SECONDS if check else None)
            break
        except FutureTimeout:
            assert check is not None
            check()
    if progress:
        progress(len(records))
    return records
