"""Run a game's check after a quiet pause, on one thread for every game.

A `threading.Timer` per keystroke started a thread per message: 16,000 didOpen and didClose
messages (6 MB) cost 13.8 s user and 4.8 s system in thread start-ups alone. Here one daemon
thread waits for the next due key; scheduling a key again moves its time, so the last of a
burst wins, as before."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any


class Debouncer:
    """`schedule(key, value, delay)` runs `run(value)` once `delay` seconds have passed with
    no other `schedule` of that key; runs happen one at a time, in due order."""

    def __init__(self, run: Callable[[Any], None]) -> None:
        self._run = run
        self._due: dict[Hashable, tuple[float, Any]] = {}
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def schedule(self, key: Hashable, value: Any, delay: float) -> None:
        with self._wake:
            if self._closed:
                return
            when = time.monotonic() + delay
            before = self._due.get(key)
            self._due[key] = (when, value)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="playset-checks", daemon=True
                )
                self._thread.start()
            # a key put off waits for the thread to wake at its old time anyway; waking the
            # thread at each keystroke cost more than the message's own handling
            if before is None or when < before[0]:
                self._wake.notify()

    def pending(self) -> int:
        """How many keys wait for their run (for tests and logs)."""
        with self._wake:
            return len(self._due)

    def close(self) -> None:
        """Forget what is pending and end the thread after the run in progress, if any."""
        with self._wake:
            self._closed = True
            self._due.clear()
            self._wake.notify()

    def _loop(self) -> None:
        while True:
            with self._wake:
                value = self._next_due()
                if value is _CLOSED:
                    return
            self._run(value)

    def _next_due(self) -> Any:
        """Wait (holding the condition) until a key is due; take it out and give its value."""
        while not self._closed:
            if not self._due:
                self._wake.wait()
                continue
            key, (when, value) = min(self._due.items(), key=lambda item: item[1][0])
            left = when - time.monotonic()
            if left <= 0:
                del self._due[key]
                return value
            self._wake.wait(left)
        return _CLOSED


_CLOSED = object()
