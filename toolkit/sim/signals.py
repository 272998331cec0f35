"""Stopping a run: Ctrl-C, SIGTERM or SIGHUP raises in the main process (a second one ends it),
local pool workers leave both to the main process and die with it.

Every executor and the one simulation path (toolkit.sim.play) share these, so a stop looks
the same whichever way the games are played."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress

from toolkit.sim.exits import hard_exit


class _Signalled(KeyboardInterrupt):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_HUP = (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()

_STOP: list[int] = []  # signals received: a stop stays requested even if a library
# swallowed the KeyboardInterrupt (the run checks it between games)


def _raise_signal(signum: int, frame: object) -> None:
    """The first Ctrl-C or SIGTERM raises (the run stops and reports); a second one ends
    the process at once (workers die with it: PR_SET_PDEATHSIG)."""
    if _STOP:
        hard_exit(128 + signum)
    _STOP.append(signum)
    raise _Signalled(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGTERM raises like Ctrl-C (its default would kill this process and leave the
    workers orphaned), and either is remembered for `run`; the previous handlers come back
    afterwards. The CLI holds this from start to end so no signal is lost while loading."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, *_HUP)}
    outermost = previous[signal.SIGTERM] is not _raise_signal
    if outermost:
        _STOP.clear()
    signal.signal(signal.SIGTERM, _raise_signal)
    if previous[signal.SIGINT] in (signal.default_int_handler, _raise_signal):
        signal.signal(signal.SIGINT, _raise_signal)
    for hup in _HUP:  # a closed terminal stops as SIGTERM does; `nohup`'s SIG_IGN stays
        if previous[hup] not in (signal.SIG_IGN, None):
            signal.signal(hup, _raise_signal)
    try:
        yield
    finally:
        if not _STOP:  # once stopping, the handlers stay: a second signal ends it now
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def is_stop(exc: BaseException) -> bool:
    """Whether `exc` stops the run: a Ctrl-C or SIGTERM (raised by this module's handler,
    or one arrived), or a KeyboardInterrupt where no handler of ours tells them apart.
    Where ours is in place (or Ctrl-C is ignored, as in a pool worker), a KeyboardInterrupt
    the engine raised itself is its mistake, like any other exception: it was taken for
    Ctrl-C (exit 130, "interrupted before any game finished")."""
    if not isinstance(exc, KeyboardInterrupt):
        return False
    if isinstance(exc, _Signalled) or _STOP:
        return True
    if threading.current_thread() is not threading.main_thread():
        return False  # no signal raises there (a Dask worker's thread): the engine did
    return signal.getsignal(signal.SIGINT) not in (_raise_signal, signal.SIG_IGN)


def check_stop() -> None:
    """Raise if a stop signal arrived (for loops that play or fold games one by one)."""
    if _STOP:
        raise _Signalled(_STOP[0])


def worker_init() -> None:
    """Workers leave Ctrl-C to the main process (which stops them) and die with it. A
    worker has no output of its own: whatever its engine writes to stdout (print, the file
    descriptor, a child process) goes to stderr, never into the main process's report."""
    import os
    import sys

    with suppress(OSError):
        os.dup2(2, 1)
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for hup in _HUP:  # a closed terminal signals the whole group: the main process stops us
        signal.signal(hup, signal.SIG_IGN)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: killed if the parent dies
    except (OSError, AttributeError):
        pass


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers now (not after their batches)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(1.0)
        if process.is_alive():
            process.kill()
            process.join(1.0)
    pool.shutdown(wait=True)  # the pool's own thread, so nothing is left for exit time
