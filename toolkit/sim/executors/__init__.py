"""Where batches of games run: the executor registry (`EXECUTORS`, a `Registry`), one
module per entry in this package (each defines `EXECUTOR`, an ExecutorKind), found by
listing the package, and any package outside the toolkit naming one in the
`playset.executors` entry point group: adding an executor is adding a module.

`inline` plays in this process, `pool` is the local process pool, `dask` is Dask
distributed's Client. All take the same batches (toolkit.sim.prepared.run_batch) from the
one simulation path (toolkit.sim.play), so any executor gives identical results.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Executor

from toolkit.registry import Registry
from toolkit.sim.executors.base import ExecutorError, ExecutorKind, Idle

EXECUTORS: Registry[ExecutorKind] = Registry(
    "executor",
    package=__name__,
    group="playset.executors",
    rank=lambda kind: kind.order,
    accepts=lambda obj: isinstance(obj, ExecutorKind),
    attribute="EXECUTOR",
)
"""The executors by name, in listing order (`order`, then where their modules were found);
an outside package names its ExecutorKind (`name = "module:ENTRY"`), or a module that
registers one (`EXECUTORS.register(...)`), in the `playset.executors` entry point group."""


def executors() -> tuple[ExecutorKind, ...]:
    """Every executor of the registry, in listing order."""
    return tuple(EXECUTORS.values())


def default_spec(workers: int) -> str:
    """The spec when none is given: this process for one worker, else the local pool."""
    return "inline" if workers <= 1 else "pool"


def open_executor(
    spec: str | None, workers: int = 1, idle: Idle | None = None
) -> contextlib.AbstractContextManager[Executor]:
    """An executor from a CLI spec: None (inline for one worker, else the pool), `pool`,
    `pool:N`, `inline`, `dask:local:N`, `dask:tcp://host:8786`; `idle` says what a cluster
    left without workers does."""
    name, _, arg = (spec or default_spec(workers)).partition(":")
    kind = EXECUTORS.get(name)
    if kind is None:
        known = ", ".join(k.name for k in executors())
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


__all__ = [
    "EXECUTORS",
    "ExecutorError",
    "ExecutorKind",
    "Idle",
    "batch_size",
    "default_spec",
    "executor_workers",
    "executors",
    "open_executor",
]
