"""Jobs run in children forked from this process, a few at a time, their results sent back.

A command that has several independent jobs of a few tenths of a second of CPU each (a
`validate` of several games) runs them on the machine's cores: each job in a child forked
after the imports, so it starts with every module, compiled template and cache this process
holds, at no cost. A job's return value comes back pickled through a pipe, with what it
wrote to `sys.stdout` and `sys.stderr` (kept, for the caller to write out in the jobs'
order, as one job after another would have). A job whose child fails (the job raised, the
child died or was killed, its result cannot be pickled) comes back as `FAILED`: the caller
does that job in this process, where it fails as it would have without children (its
traceback, its exit), and succeeds if the child's trouble was the child's alone.

Children leave Ctrl-C and a closed terminal to this process, which ends them (a stop of the
command is a KeyboardInterrupt here, as ever: the children are killed and waited for before
it goes on); they die with it if it is killed (Linux: PR_SET_PDEATHSIG). `available()` says
where this runs at all: a platform with `fork` (not macOS, where forking a process that has
loaded system frameworks is unsafe) and no thread running besides the main one (a fork
copies only the thread that forks; a lock another thread held stays held in the child).
"""

from __future__ import annotations

import io
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_HUP = (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()
_EXIT = os._exit
KILL_SECONDS = 1.0
"""How long a child ended by SIGTERM may take to go before it is killed."""


class _Failed:
    def __repr__(self) -> str:
        return "FAILED"


FAILED: Any = _Failed()
"""The result of a job whose child did not send one back."""


@dataclass(frozen=True)
class Done(Generic[T]):
    """A job's return value, with what it wrote to stdout and stderr."""

    value: T
    out: str
    err: str


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


BUSY = 0.5
"""A machine with less than this many cores left idle (by its load average) is busy."""


def workers(asked: int | None) -> int:
    """How many children to start: `asked` (None: one per core), never more than the cores;
    by default one (none: the work is done here) on a machine already busy, where more
    processes only share the same cores and each pays its own start (its imports' caches
    warmed again, the memory it writes copied), as `make -l` starts no job then."""
    count = cores()
    if asked is not None:
        return max(1, min(asked, count))
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return count
    return count if load <= count - BUSY else 1


def available() -> bool:
    """Whether jobs may run in forked children here (see the module's docstring)."""
    if not hasattr(os, "fork") or sys.platform == "darwin" or sys.platform.startswith("win"):
        return False
    return threading.active_count() == 1


def run(jobs: Sequence[Callable[[], T]], workers: int) -> list[Done[T] | Any]:
    """Each job's `Done` (or FAILED), in the jobs' order: done by at most `workers`
    children, each taking the next job as it finishes one, in the order given (put the
    longest first). What a child imported or cached for one job serves its next ones, as in
    one process; a job whose child dies is FAILED, and so are the jobs left when every
    child has died."""
    import selectors

    results: list[Done[T] | Any] = [FAILED] * len(jobs)
    waiting = list(range(len(jobs)))[::-1]
    children: dict[int, _Child] = {}
    _flush()  # what this process buffered is not written again by a child
    with selectors.DefaultSelector() as selector, _stopping(children):
        for _ in range(min(workers, len(jobs))):
            child = _start(jobs, [fd for c in children.values() for fd in (c.orders, c.results)])
            children[child.results] = child
            selector.register(child.results, selectors.EVENT_READ)
            child.give(waiting.pop())
        while children:
            for key, _ in selector.select():
                child = children[key.fd]
                chunk = os.read(child.results, 1 << 16)
                if not chunk:  # died (or told to end): its job, if any, is FAILED
                    selector.unregister(child.results)
                    del children[child.results]
                    child.close()
                    continue
                child.data += chunk
                for index, done in child.received():
                    results[index] = done
                    child.give(waiting.pop() if waiting else None)
    return results


_SIZE = 8  # bytes of a job's index, or of a result's length (signed, little-endian)


def _number(value: int) -> bytes:
    return value.to_bytes(_SIZE, "little", signed=True)


def _read_number(data: bytes) -> int:
    return int.from_bytes(data[:_SIZE], "little", signed=True)


@dataclass
class _Child:
    pid: int
    orders: int  # this process writes the next job's index there (-1: end)
    results: int  # the child writes each job's result there
    data: bytes = b""
    job: int | None = None

    def give(self, index: int | None) -> None:
        """Send the child its next job (None: no more, end)."""
        self.job = index
        with suppress(OSError):  # gone: its pipe says so
            os.write(self.orders, _number(-1 if index is None else index))

    def received(self) -> Iterator[tuple[int, Any]]:
        """The results read whole so far, with their job's index."""
        while len(self.data) >= _SIZE:
            size = _read_number(self.data)
            if len(self.data) < _SIZE + size:
                return
            payload = self.data[_SIZE : _SIZE + size]
            self.data = self.data[_SIZE + size :]
            index, self.job = self.job, None
            if index is not None:
                yield index, _result(payload)

    def close(self) -> None:
        for fd in (self.orders, self.results):
            with suppress(OSError):
                os.close(fd)
        _reap(self.pid, block=True)

    def stop(self) -> None:
        with suppress(OSError):
            os.kill(self.pid, signal.SIGTERM)


def _result(payload: bytes) -> Any:
    """A child's result (FAILED unless it is one whole)."""
    try:
        done, code = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - a class this process cannot make, say
        return FAILED
    if not isinstance(done, Done):
        return FAILED
    from toolkit import dataclass_code

    dataclass_code.take(code)  # what the child compiled: kept by this process's save
    return done


def _reap(pid: int, block: bool) -> int | None:
    """The child's exit status (0: exited with 0), None while it runs (`block` False)."""
    try:
        done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:  # SIGCHLD ignored: reaped by the system, status unknown
        return 0
    if done == 0:
        return None
    return os.waitstatus_to_exitcode(status)


@contextmanager
def _stopping(children: dict[int, _Child]) -> Iterator[None]:
    """On the way out (a Ctrl-C, an error here), end the children still running and wait
    for them: no process is left behind."""
    try:
        yield
    finally:
        if children:
            _end(list(children.values()))


def _end(children: list[_Child]) -> None:
    import time

    for child in children:
        child.stop()
    deadline = time.monotonic() + KILL_SECONDS
    for child in children:
        while _reap(child.pid, block=False) is None:
            if time.monotonic() > deadline:
                with suppress(OSError):
                    os.kill(child.pid, signal.SIGKILL)
                _reap(child.pid, block=True)
                break
            time.sleep(0.01)
        for fd in (child.orders, child.results):
            with suppress(OSError):
                os.close(fd)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with suppress(Exception):
            if stream is not None:
                stream.flush()


def _start(jobs: Sequence[Callable[[], Any]], others: list[int]) -> _Child:
    """A child forked to serve `jobs`; `others`: the pipes of the children before it."""
    orders_read, orders = os.pipe()
    results, results_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            for fd in (orders, results, *others):
                os.close(fd)
            _serve(jobs, orders_read, results_write)
            code = 0
        except BaseException:  # noqa: BLE001 - its job is FAILED: done by the parent
            code = 1
        finally:
            _EXIT(code)
    os.close(orders_read)
    os.close(results_write)
    return _Child(pid, orders, results)


def _serve(jobs: Sequence[Callable[[], Any]], orders: int, results: int) -> None:
    """In the child: each job the parent names, done and its result sent, until told to end."""
    parent = os.getppid()
    _child_signals()
    _die_with(parent)
    pictures = _pictures_folder()
    try:
        while True:
            order = _read_exactly(orders, _SIZE)
            if order is None:
                return
            index = _read_number(order)
            if index < 0:
                return
            payload = _do(jobs[index])
            _write_all(results, _number(len(payload)) + payload)
    finally:
        if _pictures_folder() != pictures:  # made here: removed here (os._exit skips atexit)
            sys.modules["toolkit.render.pictures"].discard()


def _do(job: Callable[[], Any]) -> bytes:
    """One job's result, pickled with the code it compiled (`FAILED` if it raised)."""
    from toolkit import dataclass_code

    out, err = io.StringIO(), io.StringIO()
    real = sys.stdout, sys.stderr
    mark = dataclass_code.mark()
    sys.stdout, sys.stderr = out, err
    try:
        value = job()
    except BaseException:  # noqa: BLE001 - the parent does it again, and fails as it fails
        return pickle.dumps((None, b""))
    finally:
        sys.stdout, sys.stderr = real
        _flush()  # what the job wrote to the real streams (a library's own handle on them)
    done = Done(value, out.getvalue(), err.getvalue())
    try:
        return pickle.dumps((done, dataclass_code.since(mark)), pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a value that cannot be pickled: done by the parent
        return pickle.dumps((None, b""))


def _read_exactly(fd: int, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _pictures_folder() -> object:
    pictures = sys.modules.get("toolkit.render.pictures")
    return pictures.own_folder() if pictures is not None else None


def _child_signals() -> None:
    """Ctrl-C and a closed terminal are this process's parent's to handle (it ends us);
    SIGTERM ends us at once (the parent's handler would raise inside the job)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for hup in _HUP:
        signal.signal(hup, signal.SIG_IGN)


def _die_with(parent: int) -> None:
    """Killed when the parent ends (Linux), and gone now if it already has."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        _EXIT(1)
