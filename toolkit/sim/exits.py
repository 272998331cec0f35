"""An engine's `os._exit()` while its code runs in this process becomes an exception.

`sys.exit()` raises SystemExit, which every place that runs an engine's code catches and
reports; `os._exit()` ends the process at once with the code it is given, so an engine
calling `os._exit(0)` in `apply` ended `simulate` (one worker: the games are played here)
with exit 0 and no output, a CI pass. Within `refuse_exit()` both `os._exit` and
`posix._exit` raise `OsExit` (a SystemExit) instead, so the game fails with a finding like
any other engine error. In a pool worker the same holds; a process forked by the engine or
by multiprocessing (another pid), or a thread that is not running an engine's code (a
library's own), still ends as it means to.

Not covered: an exit below Python (the C library's `exit()` through ctypes, a crash of
the interpreter, a signal) still ends a one-worker run; with a pool the worker's death is
the finding (toolkit.sim.play). The toolkit's own hard exits use `hard_exit`.
"""

from __future__ import annotations

import os
import posix
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn

_REAL_EXIT = os._exit
_lock = threading.Lock()
_depth = 0
_owner = 0  # the pid that installed the guard
_threads: dict[int, int] = {}  # the threads running an engine's code: how deep


class OsExit(SystemExit):
    """An engine called os._exit() inside `refuse_exit()`."""


def hard_exit(code: int) -> NoReturn:
    """End the process now, whatever guard is in place (a second Ctrl-C, a stopped run)."""
    _REAL_EXIT(code)


def _refused(code: int) -> NoReturn:
    # a forked child (the engine's own, multiprocessing's), or another thread than one
    # running an engine's code (a library's own exit): the exit goes through
    if os.getpid() != _owner or threading.get_ident() not in _threads:
        _REAL_EXIT(code)
    raise OsExit(f"os._exit({code!r}) was called: it would have ended the whole run here")


@contextmanager
def refuse_exit() -> Iterator[None]:
    """Run an engine's code with `os._exit()` raising OsExit (nested uses share one guard)."""
    global _depth, _owner
    me = threading.get_ident()
    with _lock:
        if _depth == 0 or _owner != os.getpid():  # first, or inherited through a fork
            _depth, _owner = 0, os.getpid()
            _threads.clear()
            _install(_refused)
        _depth += 1
        _threads[me] = _threads.get(me, 0) + 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            _threads[me] -= 1
            if not _threads[me]:
                del _threads[me]
            if _depth == 0:
                _install(_REAL_EXIT)


def _install(exit_: Callable[[int], NoReturn]) -> None:
    for module in (os, posix):
        setattr(module, "_exit", exit_)  # noqa: B010 (typeshed: not assignable)
