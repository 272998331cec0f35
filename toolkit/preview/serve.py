"""Run a preview: the session, its worker, the file watcher and uvicorn, stopped together.

The socket is bound before anything else, so the address printed is the one that answers
(port 0 picks a free port). Ctrl-C or SIGTERM stops uvicorn, which ends every event stream
within a second, then the worker and the watcher (a drawing under way is not waited for).
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolkit.preview.live import STOP_SECONDS, Preview
from toolkit.preview.watcher import Watcher, watch_roots
from toolkit.render.deps import builtin_layouts


class PortInUse(OSError):
    """The port cannot be bound (taken, or not allowed)."""


class HostNotHere(PortInUse):
    """The host is no address of this machine (a name that does not resolve, a typo)."""


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL:
            # '127.0.0.1 ' or 256.1.1.1 said "Name or service not known (try --port 0)"
            what = f"{host!r} is not an address of this machine ({exc.strerror or exc})"
            raise HostNotHere(f"cannot listen on {what}") from None
        raise PortInUse(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(
    root: Path,
    sock: socket.socket,
    ready: Callable[[Preview], None] | None = None,
    host: str = "127.0.0.1",
) -> int | None:
    """Serve the preview of the game in `root` on `sock` (bound to `host`, as `--host` gave
    it) until Ctrl-C (or SIGTERM); the signal that stopped it."""
    from toolkit.preview.app import make_app
    from toolkit.preview.hosts import AllowedHosts

    preview = Preview(root)
    preview.load(check=False)  # the worker checks once the first cards are drawn
    watcher = Watcher(watch_roots(root, [builtin_layouts()]), preview.notify)

    allowed = AllowedHosts.for_server(host, sock.getsockname()[1])
    server = signalled_server(preview, make_app(preview, allowed))
    preview.start()
    watcher.start()
    if ready:
        ready(preview)
    try:
        server.run(sockets=[sock])
    finally:
        preview.stop()  # within STOP_SECONDS, a drawing under way or not
        watcher.stop(timeout=STOP_SECONDS)
        sock.close()
    return server.stopped[0] if server.stopped else None


def signalled_server(preview: Preview, app: Any) -> Any:
    """uvicorn's server for `app`; a SIGINT or SIGTERM stops it and `preview`'s streams,
    and its `stopped` lists the signals it had."""
    from toolkit.preview.connections import PreviewServer, server_config

    class Server(PreviewServer):
        stopped: list[int]

        def handle_exit(self, sig: int, frame: Any) -> None:
            # A signal handler runs in the main thread between two bytecodes, on top of
            # whatever that was doing, itself included: a second signal (a held Ctrl-C, a
            # supervisor's TERM to the group) nests a second call. So nothing here takes a
            # lock: a nested call that waited for a lock its outer call held hung the
            # preview for ever. Each step only sets attributes or appends to lists.
            preview.stop_streams()  # event streams end, so the shutdown does not wait
            self.stopped.append(sig)
            super().handle_exit(sig, frame)  # uvicorn's: flags its loop polls every 0.1 s
            # uvicorn raises the signal again once stopped: SIGINT then ended the command
            # with 0, SIGTERM killed it before the preview's worker stopped
            captured = getattr(self, "_captured_signals", None)
            if isinstance(captured, list):
                captured.clear()

    server = Server(server_config(app))
    server.stopped = []
    return server
