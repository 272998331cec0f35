"""`pool` or `pool:N`: a local process pool (N processes, else --workers)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor

from toolkit.sim.executors.base import MAX_LOCAL_WORKERS, ExecutorError, ExecutorKind, Idle
from toolkit.sim.signals import stop_pool, worker_init


@contextlib.contextmanager
def _open(arg: str, workers: int, idle: Idle) -> Iterator[Executor]:
    try:
        count = int(arg) if arg else workers
    except ValueError:
        raise ExecutorError(f"--executor pool:{arg} (expected pool:N with N a number)") from None
    if not 1 <= count <= MAX_LOCAL_WORKERS:
        raise ExecutorError(f"--executor pool:{arg} (1 to {MAX_LOCAL_WORKERS} workers)")
    # Workers leave Ctrl-C to this process and die with it; a stop ends them at once.
    pool = ProcessPoolExecutor(max_workers=count, initializer=worker_init)
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True, cancel_futures=True)


EXECUTOR = ExecutorKind(
    "pool", "a local process pool of --workers processes, or of N with pool:N", _open, 20
)
