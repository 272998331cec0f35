"""The preview's connections: each request must arrive whole in time, and few are held.

uvicorn times out only a kept-alive connection between two requests: a connection that
sends half a request head (or nothing) is held for ever, so a few thousand of them exhaust
the process's file descriptors, and asyncio then logs a traceback for every accept that
fails. Here a request (head and body) must be complete within `head_seconds` of the
connection or of the previous response; a connection beyond `max_connections` takes the
place of the oldest one still waiting for its request (else of the oldest event stream,
below), and is closed as it arrives only when every other one is being answered; a failing
accept is one warning a minute, not a traceback a second.

An event stream (`/events`) is held open for as long as its page is: a local program that
opened `max_connections` of them locked the browser out of the preview (its page, images
and events refused at the cap). At the cap a new connection now ends the oldest event
stream instead of being refused: the page that connects last gets its events (a browser's
EventSource connects again by itself if it was the one ended).
"""

from __future__ import annotations

import asyncio
import errno
import itertools
import sys
import time
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0  # a browser sends a request head in one packet
KEEP_ALIVE_SECONDS = 5  # uvicorn's: an idle kept-alive connection is closed after this
MAX_CONNECTIONS = 100  # a browser opens about 6 per host; a page with its stream 2 or 3
MAX_HEAD_BYTES = 64 * 1024  # request line and headers (h11's own default is 16 kB)
EVENTS_PATH = "/events"  # the app's server-sent events (toolkit.preview.app)
_ARRIVALS = itertools.count()  # the order connections arrived in
OUT_OF_FDS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
WARN_EVERY_SECONDS = 60.0


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for every request and a connection cap."""

    head_seconds = REQUEST_SECONDS
    max_connections = MAX_CONNECTIONS
    _deadline: asyncio.TimerHandle | None = None
    streams_events = False  # this connection's request is the event stream
    arrival = 0

    def _unsupported_upgrade_warning(self) -> None:
        """Silent: uvicorn logged 'Unsupported upgrade request.' and advice to install a
        websocket library for each upgrade attempt (another site's page can make them); the
        preview uses none, the request is answered as plain HTTP (403 from the host check)."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.arrival = next(_ARRIVALS)
        if len(self.connections) > self.max_connections:
            oldest = self._oldest(waiting=True) or self._oldest(waiting=False)
            if oldest is None:
                transport.close()  # the fd is given back now, not after a timeout
                return
            oldest.streams_events = False
            oldest.transport.close()  # this connection takes its place
        self._arm()

    def _oldest(self, waiting: bool) -> GuardedH11Protocol | None:
        """The connection that gives way at the cap: the oldest still waiting for its
        request (half sent, or an idle kept-alive one: its deadline armed), else the oldest
        event stream. A local program holding `max_connections` half-sent requests (sent
        again every few seconds) had every other connection refused (probe 51 L4); now it
        must open them faster than the browser does, each taking a held one's place."""
        held = [
            c
            for c in self.connections
            if isinstance(c, GuardedH11Protocol)
            and c is not self
            and not c.transport.is_closing()
            and (c._deadline is not None if waiting else c.streams_events)
        ]
        return min(held, key=lambda c: c.arrival, default=None)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._disarm()  # the whole request is in: the response may take its time
            scope = getattr(self, "scope", None)
            self.streams_events = isinstance(scope, dict) and scope.get("path") == EVENTS_PATH

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self._arm()  # the next request on a kept-alive connection has its deadline too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.head_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Out of file descriptors, asyncio logs a traceback for each failed accept (and retries
    every second): one line a minute instead; any other error is logged as before."""
    last = [-WARN_EVERY_SECONDS]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in OUT_OF_FDS:
            now = time.monotonic()
            if now - last[0] >= WARN_EVERY_SECONDS:
                last[0] = now
                sys.stderr.write(
                    f"warning: the preview cannot take more connections ({exc.strerror});"
                    " new ones wait until others close\n"
                )
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


class PreviewServer(uvicorn.Server):
    """uvicorn's server with the guarded protocol's loop handler installed."""

    async def serve(self, sockets: Any = None) -> None:
        quiet_accept_errors(asyncio.get_running_loop())
        await super().serve(sockets)


def server_config(app: Any) -> uvicorn.Config:
    """uvicorn's settings for the preview: the guarded protocol, bounded heads and counts."""
    return uvicorn.Config(
        app,
        http=GuardedH11Protocol,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=3,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        # uvicorn's own bound (a 503) only behind the cap above: an event stream ended at
        # the cap leaves its task a few loop turns after the connection that replaced it
        limit_concurrency=MAX_CONNECTIONS + 16,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        lifespan="off",
        ws="none",  # the page hears of changes by server-sent events: no websocket library
    )
