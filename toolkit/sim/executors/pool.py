"""`pool` or `pool:N`: a local process pool (N processes, else --workers)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor

from toolkit.sim.executors.base import (
    MAX_LOCAL_WORKERS,
    ExecutorError,
    ExecutorKind,
    Idle,
    worker_count,
)
from toolkit.sim.signals import stop_pool, worker_init


@contextlib.contextmanager
def _open(arg: str, workers: int, idle: Idle) -> Iterator[Executor]:
    try:
        count = worker_count(arg) if arg else workers
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
    _close(pool)


CLOSE_SECONDS = 5.0
"""How long idle workers may take to end: one whose engine left a thread running never
does (the interpreter waits for it at exit), and the run hung after its report."""


def _close(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    end = time.monotonic() + CLOSE_SECONDS
    for process in processes:
        process.join(max(0.0, end - time.monotonic()))
    if any(process.is_alive() for process in processes):
        stop_pool(pool)
    else:
        pool.shutdown(wait=True)


EXECUTOR = ExecutorKind(
    "pool", "a local process pool of --workers processes, or of N with pool:N", _open, 20
)
