"""`inline`: every batch played in this process at submit time (one worker, no pickling)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import Any

from toolkit.sim.executors.base import ExecutorError, ExecutorKind, Idle


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


@contextlib.contextmanager
def _open(arg: str, workers: int, idle: Idle) -> Iterator[Executor]:
    if arg:  # `inline:5` read as five workers would be a silent one
        raise ExecutorError(f"--executor inline:{arg} (inline plays in this process: no count)")
    yield InlineExecutor()


EXECUTOR = ExecutorKind("inline", "this process, one game after another", _open, order=10)
