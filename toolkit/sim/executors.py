"""Where batches of games run: a registry of `concurrent.futures`-style executors.

`inline` plays in this process, `pool` is the local process pool, `dask` is Dask
distributed's Client (an optional extra: `pip install "playset[dask]"`) through its own
`concurrent.futures.Executor` (`Client.get_executor()`). All three take the same batches from
the runner; `stream_records` hands back the records in game order with only a bounded window
of batches in flight, so memory does not grow with the number of games and any executor gives
identical results.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from toolkit.sim.runner import GameRecord, SimConfig, _run_batch, _stop_pool, _worker_init

PROBE_SECONDS = 10.0  # a scheduler answers in milliseconds; anything else is refused by then
LOCAL_WORKERS_PER_CPU = 4
MAX_LOCAL_WORKERS = 256  # as --workers


class ExecutorError(ValueError):
    """An executor that cannot be started (unknown name, missing extra, bad address), or a
    cluster left without workers when the user chose to stop then."""


@dataclass(frozen=True)
class Idle:
    """What to do when a cluster has no worker while games wait: after `after` seconds say
    so (on stderr, through `say`) and keep waiting for one to join, or, with `stop`, end the
    run with an ExecutorError that says why."""

    after: float = 30.0
    stop: bool = False
    say: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr))


class InlineExecutor(Executor):
    """Runs each task at submit time in this process: the one-worker case, no pickling."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller by future.result()
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            future.set_exception(exc)
        return future


@dataclass(frozen=True)
class ExecutorKind:
    """A registry entry: a name, what it is, and how to open one from a spec's argument."""

    name: str
    summary: str
    open: Callable[[str, int, Idle], contextlib.AbstractContextManager[Executor]]


EXECUTORS: dict[str, ExecutorKind] = {}


def executor_kind(name: str, summary: str) -> Callable[..., Any]:
    def register(fn: Callable[[str, int, Idle], Any]) -> Callable[[str, int, Idle], Any]:
        EXECUTORS[name] = ExecutorKind(name, summary, fn)
        return fn

    return register


@executor_kind("inline", "this process, one game after another")
@contextlib.contextmanager
def _inline(arg: str, workers: int, idle: Idle) -> Iterator[Executor]:
    yield InlineExecutor()


@executor_kind("pool", "a local process pool of --workers processes")
@contextlib.contextmanager
def _pool(arg: str, workers: int, idle: Idle) -> Iterator[Executor]:
    # Workers leave Ctrl-C to this process and die with it; a stop ends them at once.
    pool = ProcessPoolExecutor(max_workers=int(arg) if arg else workers, initializer=_worker_init)
    try:
        yield pool
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True, cancel_futures=True)


@executor_kind("dask", "Dask distributed: local:N starts a LocalCluster, tcp://HOST:PORT joins one")
@contextlib.contextmanager
def _dask(arg: str, workers: int, idle: Idle) -> Iterator[Executor]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ExecutorError('Dask is not installed: pip install "playset[dask]"') from None
    cluster = None
    if arg == "local" or arg.startswith("local:"):
        _, _, count = arg.partition(":")
        try:
            n = int(count) if count else workers
        except ValueError:
            raise ExecutorError(f"--dask {arg} (expected local:N with N a number)") from None
        if n < 1:
            raise ExecutorError(f"--dask {arg} (a cluster needs at least one worker)")
        if n > max_local_workers():
            raise ExecutorError(
                f"--dask {arg}: at most {max_local_workers()} local workers on this machine"
                f" ({LOCAL_WORKERS_PER_CPU} per CPU core, {MAX_LOCAL_WORKERS} in all)"
            )
        cluster = LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # no fixed port: clusters side by side never clash
            silence_logs=50,
        )
        client = Client(cluster)
    else:
        probe_scheduler(arg)
        try:
            client = Client(arg, timeout=PROBE_SECONDS)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ExecutorError(f"--dask {arg} (cannot reach the scheduler: {exc})") from None
    try:
        yield Watched(client.get_executor(pure=False), client, idle)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def max_local_workers() -> int:
    """How many workers `--dask local:N` may start: each is a process of its own."""
    return min(MAX_LOCAL_WORKERS, LOCAL_WORKERS_PER_CPU * (os.cpu_count() or 1))


def probe_scheduler(address: str) -> None:
    """Ask the server at `address` what it is before Dask's Client connects: a server that
    is not a Dask scheduler makes the Client wait for ever (one that never answers) or try to
    allocate exabytes (its reply read as a frame length). Bounded by PROBE_SECONDS."""
    import asyncio

    from distributed.core import rpc

    async def identity() -> Any:
        async with rpc(address) as remote:
            return await remote.identity()

    try:
        info = asyncio.run(asyncio.wait_for(identity(), PROBE_SECONDS))
    except TimeoutError:
        raise ExecutorError(
            f"--dask {address}: no Dask scheduler answered within {PROBE_SECONDS:g} s"
        ) from None
    except OSError as exc:
        raise ExecutorError(f"--dask {address} (cannot reach the scheduler: {exc})") from None
    except ValueError as exc:
        raise ExecutorError(
            f"--dask {address}: {exc} (expected local:N or tcp://HOST:PORT)"
        ) from None
    except (Exception, MemoryError) as exc:  # a reply in another protocol, a bad address
        raise ExecutorError(
            f"--dask {address}: not a Dask scheduler ({type(exc).__name__} on its reply)"
        ) from None
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        kind = info.get("type") if isinstance(info, dict) else None
        raise ExecutorError(f"--dask {address}: not a Dask scheduler (it is a {kind or 'server'})")


class Watched(Executor):
    """A cluster's executor that notices when no worker is left: `stream_records` calls
    `idle_check` while it waits for a batch, and a cluster whose workers are all gone says so
    after a while (Dask itself would wait in silence for one to join)."""

    def __init__(self, inner: Executor, client: Any, idle: Idle) -> None:
        self._inner, self._client, self._idle = inner, client, idle
        self._since: float | None = None  # when the cluster was first seen without workers
        self._said = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait, cancel_futures=cancel_futures)

    def idle_check(self, now: float | None = None) -> None:
        """Say (once per outage) or stop when the cluster has had no worker for idle.after s."""
        now = time.monotonic() if now is None else now
        try:
            workers = len(self._client.nthreads())
        except Exception:  # a scheduler that does not answer is no news of its workers
            return
        if workers:
            if self._said:
                self._idle.say(f"Dask: {workers} worker(s) connected again; going on")
            self._since, self._said = None, False
            return
        if self._since is None:
            self._since = now
        waited = now - self._since
        if waited < self._idle.after or self._said:
            return
        where = getattr(self._client.scheduler, "address", "the scheduler")
        if self._idle.stop:
            raise ExecutorError(
                f"Dask: no worker connected to {where} for {waited:.0f} s; stopped "
                "(start workers with `dask worker ADDRESS`; --dask-idle wait keeps waiting)"
            )
        self._said = True
        self._idle.say(
            f"Dask: no worker connected to {where} for {waited:.0f} s; waiting for one to "
            "join (`dask worker ADDRESS`), Ctrl-C to stop"
        )


def open_executor(
    spec: str | None, workers: int = 1, idle: Idle | None = None
) -> contextlib.AbstractContextManager[Executor]:
    """An executor from a CLI spec: None (inline for one worker, else the pool), `pool`,
    `pool:N`, `inline`, `dask:local:N`, `dask:tcp://host:8786`; `idle` says what a cluster
    left without workers does."""
    if spec is None:
        spec = "inline" if workers <= 1 else "pool"
    name, _, arg = spec.partition(":")
    kind = EXECUTORS.get(name)
    if kind is None:
        known = ", ".join(EXECUTORS)
        raise ExecutorError(f"unknown executor {name!r} (choose from {known})")
    return kind.open(arg, workers, idle or Idle())


def batch_size(games: int, workers: int) -> int:
    """Games per task: a few seconds of work, at least eight tasks per worker when there are
    enough games (the result does not depend on it)."""
    return max(50, min(2000, games // max(1, workers * 8) or 1))


def executor_workers(executor: Executor) -> int:
    """How many tasks the executor runs at once (0 when it cannot tell): a Dask cluster's
    worker threads, a pool's processes. `--dask local:2` sizes batches for two workers
    even when `--workers` is left at 1."""
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            return int(sum(client.nthreads().values()))
        except Exception:  # a scheduler that does not answer: the caller's count stands
            return 0
    return int(getattr(executor, "_max_workers", 0) or 0)


def stream_records(
    config: SimConfig,
    executor: Executor,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    shipped: bytes | None = None,
) -> Iterator[GameRecord]:
    """Every game's record in game order, with at most 2 × workers + 2 batches in flight
    (workers: the caller's count, or the executor's own when it runs more at once).
    `shipped` is the compiled game and bots pickled (`prepare_loaded`): each worker
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
            pending.append(executor.submit(_run_batch, config, batch, shipped))
            if len(pending) >= window:
                yield from _take(pending.popleft(), progress, executor)
        while pending:
            yield from _take(pending.popleft(), progress, executor)
    finally:
        for future in pending:
            future.cancel()


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
