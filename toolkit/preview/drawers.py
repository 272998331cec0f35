"""The threads that draw the images a page asks for, owned by the preview.

They were the event loop's default executor (`asyncio.to_thread`), and `asyncio.run` waits
for every thread of that one when the server stops: Ctrl-C or SIGTERM while a page asked for
many images waited for each drawing (22–30 s; a second Ctrl-C did not help). These are
daemon threads: `shutdown` drops the drawings not started and waits for none, and a drawing
under way ends with the process (the image store renames its entries into place whole).

The newest request is served first: a page scrolled fast through thousands of cards asked
for the faces it passed, and, served in order, the faces it stopped at waited for all of
them (~30 s on 6,000 cards). The ones passed are still served, after.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

DRAWERS = 4  # requests drawing at once; one draws faces at a time anyway (Preview._faces)


class Drawers(Executor):
    """A small pool of daemon threads, started as work arrives."""

    def __init__(self, workers: int = DRAWERS) -> None:
        self._workers = workers
        self._work: queue.LifoQueue[tuple[Future[Any], Callable[[], Any]] | None] = (
            queue.LifoQueue()
        )
        self._threads: list[threading.Thread] = []
        self._idle = 0
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                future.cancel()  # the preview is stopping: nothing new is drawn
                return future
            self._work.put((future, lambda: fn(*args, **kwargs)))
            if self._idle == 0 and len(self._threads) < self._workers:
                name = f"preview-drawer-{len(self._threads) + 1}"
                thread = threading.Thread(target=self._run, name=name, daemon=True)
                self._threads.append(thread)
                thread.start()
        return future

    def _run(self) -> None:
        while True:
            with self._lock:
                self._idle += 1
            item = self._work.get()
            with self._lock:
                self._idle -= 1
            if item is None:
                self._work.put(None)  # the next thread ends too
                return
            future, call = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = call()
            except BaseException as exc:  # noqa: BLE001 - handed to the request that asked
                future.set_exception(exc)
            else:
                future.set_result(result)

    def shutdown(self, wait: bool = False, *, cancel_futures: bool = True) -> None:
        """Take no more work and cancel what has not started; a stopping preview waits for
        no drawing (`wait` is accepted for the Executor interface and ignored)."""
        with self._lock:
            self._closed = True
        if cancel_futures:
            while True:
                try:
                    item = self._work.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        self._work.put(None)
