"""What every executor module shares: its registry entry, the error it raises, and the
policy for a cluster left without workers."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field


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


Opener = Callable[[str, int, Idle], contextlib.AbstractContextManager[Executor]]
"""How an entry opens its executor: (the spec's argument after `name:`, --workers, Idle)."""


@dataclass(frozen=True)
class ExecutorKind:
    """A registry entry: a name (the spec's first part), what it is, where it sorts in
    listings, and how to open one. Each module of this package defines one as `EXECUTOR`."""

    name: str
    summary: str
    open: Opener
    order: int = 100


MAX_LOCAL_WORKERS = 256  # processes one machine may start (as --workers' bound)


def worker_count(text: str) -> int:
    """The N of `local:N` or `pool:N`, in ASCII digits (ValueError otherwise): `int()` also
    took `1_0` as 10 and a fullwidth `１` as 1, as calibrate's offsets once did."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    return int(text)
