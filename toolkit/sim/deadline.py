"""A bound on the time one game may take: an engine whose legal_actions or apply loops for
ever (or grows its state at every move) stops with a finding at the line it was running,
instead of hanging simulate, check, sweep, tune or replay.

Moves are bounded by the engine's own `max_turns`; nothing bounded one move. The bound is a
timer signal (SIGALRM) in the thread that plays, the main thread of this process or of a
pool worker; a game played in another thread (a Dask worker) is checked between moves only.
Only a broken engine meets it, so results of working engines never depend on time.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

GAME_SECONDS = 600.0
"""How long one game may run: an MCTS bot takes seconds to a minute per game."""


class GameTimeout(BaseException):
    """Raised in the engine's code when its game ran past the bound (a BaseException, so an
    engine's own `except Exception` does not swallow it)."""


def _expired(signum: int, frame: object) -> None:
    raise GameTimeout


@contextmanager
def game_deadline(seconds: float | None = None) -> Iterator[float]:
    """Run one game within `seconds` (default GAME_SECONDS); yields the monotonic time past
    which `check_deadline` raises (for threads where no timer signal can interrupt)."""
    limit = GAME_SECONDS if seconds is None else seconds
    end = time.monotonic() + limit
    if threading.current_thread() is not threading.main_thread():
        yield end
        return
    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield end
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_deadline(end: float) -> None:
    """Raise GameTimeout if the game is past `end` (between moves, in any thread)."""
    if time.monotonic() > end:
        raise GameTimeout
