"""Where batches of games run: a registry of `concurrent.futures`-style executors, one
module per entry in this package (each defines `EXECUTOR`, an ExecutorKind), found by
listing the package: adding an executor is adding a module.

`inline` plays in this process, `pool` is the local process pool, `dask` is Dask
distributed's Client. All take the same batches (toolkit.sim.prepared.run_batch) from the
one simulation path (toolkit.sim.play), so any executor gives identical results.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import pkgutil
from concurrent.futures import Executor

from toolkit.sim.executors.base import ExecutorError, ExecutorKind, Idle


@functools.cache
def executors() -> tuple[ExecutorKind, ...]:
    """Every executor of this package, in listing order (`order`, then name)."""
    found: dict[str, ExecutorKind] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "base":
            continue
        kind = getattr(importlib.import_module(f"{__name__}.{info.name}"), "EXECUTOR", None)
        if isinstance(kind, ExecutorKind):
            found.setdefault(kind.name, kind)
    return tuple(sorted(found.values(), key=lambda k: (k.order, k.name)))


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
    kind = next((k for k in executors() if k.name == name), None)
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
    "ExecutorError",
    "ExecutorKind",
    "Idle",
    "batch_size",
    "default_spec",
    "executor_workers",
    "executors",
    "open_executor",
]
