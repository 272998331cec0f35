"""Probe 33, M3: the preview's signal handler must never wait for a lock.

`handle_exit` (uvicorn's SIGINT/SIGTERM handler, overridden by the preview) called
`threading.Event.set`, which takes the event's non-reentrant lock. A second signal arriving
while the first handler held that lock ran a second handler on top of the first, in the same
thread, and it waited for the lock for ever: the server stopped answering but the process
never exited (a held Ctrl-C, or `timeout` forwarding a group TERM, hit the window).
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

from toolkit.preview.live import Preview
from toolkit.preview.serve import signalled_server


def _server(root: Path) -> tuple[Preview, Any]:
    preview = Preview(root)  # not loaded: the handler needs none of the game
    return preview, signalled_server(preview, app=lambda scope, receive, send: None)


def test_a_signal_nested_at_any_line_of_the_handler_returns(tmp_path) -> None:
    """Run in a process of its own: the check traces every line, and a tracer made another
    test's CI worker spin (a hang then stops that process, not the suite)."""
    import subprocess

    from tests.conftest import REPO

    code = (
        "from pathlib import Path\n"
        "from tests.test_hardening_probe33_preview import nested_handler_returns\n"
        f"nested_handler_returns(Path({str(tmp_path)!r}))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60, cwd=REPO)


def nested_handler_returns(tmp_path: Path) -> None:
    # a signal handler may run between any two bytecodes: here a second SIGTERM "arrives"
    # at every line the first handler runs (its own, the preview's, uvicorn's, and the
    # standard library's: inside `Event.set`, with the event's lock held, it hung)
    preview, server = _server(tmp_path)
    nested: list[str] = []
    inside = [False]

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line" and not inside[0]:
            inside[0] = True
            try:
                nested.append(f"{frame.f_code.co_filename}:{frame.f_lineno}")
                server.handle_exit(signal.SIGTERM, None)  # the second signal
            finally:
                inside[0] = False
        return tracer

    def first_signal() -> None:
        sys.settrace(tracer)
        try:
            server.handle_exit(signal.SIGINT, None)
        finally:
            sys.settrace(None)

    thread = threading.Thread(target=first_signal, daemon=True)  # a hang stays in it
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), f"a nested handler hung (nested at {nested[-1]})"
    assert len(nested) >= 3  # the tracer did nest (at each line of the handler at least)
    assert preview.stopping and server.should_exit
    assert set(server.stopped) == {signal.SIGINT, signal.SIGTERM}


def test_one_signal_stops_the_worker_and_the_streams_promptly(tmp_path) -> None:
    # the handler now only sets a flag: the worker, the document thread and every stream
    # still see it (they poll), before `stop` sets the event
    preview, server = _server(tmp_path)
    preview.start()
    try:
        time.sleep(0.2)
        server.handle_exit(signal.SIGINT, None)
        assert preview.stopping and server.should_exit and not server.force_exit
        started = time.monotonic()
        for thread in (preview._thread, preview._doc_thread):
            assert thread is not None
            thread.join(5)
            assert not thread.is_alive()
        assert time.monotonic() - started < 3  # they poll every half second
    finally:
        preview.stop()
