"""A bound on the time one game may take: an engine whose legal_actions or apply loops for
ever (or grows its state at every move) stops with a finding at the line it was running,
instead of hanging simulate, check, sweep, tune or replay.

Moves are bounded by the engine's own `max_turns`; nothing bounded one move. The bound is a
timer signal (SIGALRM) in the main thread of this process or of a pool worker. A game
played in another thread (a Dask worker runs its tasks in a thread pool) gets GameTimeout
raised in that thread by the process's one watch thread (CPython's
PyThreadState_SetAsyncExc), and is checked between moves too. Either lands at the next
Python line the engine runs. A regular expression that backtracks looks at signals, so it
is interrupted in the main thread (a thread cannot be stopped inside C code); a C call that
never does (a huge `sum(range(...))`, `sorted` of a huge range) holds the interpreter until
the profiling timer of `_stop_when_stuck` ends the process (main thread, twice the bound
in CPU seconds).
Only a broken engine meets the bound, so results of working engines never depend on time.
Code that catches the raised GameTimeout and goes on (a retry loop with a bare `except:`
swallowed it, and Ctrl-C, and SIGTERM: the run never ended) is stopped harder: WATCH_GRACE
seconds after the watch thread raised, it names the line the engine is running and ends the
process (a pool worker's end is reported by the pool as well).

A game is bounded step by step as well (CALL_SECONDS): its setup, each move (the legal
actions, the bot's choice, apply) and its end values must each be done within the step
bound, and every call into the engine outside a game (its import, compile_game, a hook,
making a bot) too, so a call that never returns is a finding within a minute, not ten.
The game loop counts its steps (`Bound.steps`); the timer signal (or the watch thread)
looks whether the count moved, so a step costs one attribute increment, no system call.
"""

from __future__ import annotations

import atexit
import io
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

GAME_SECONDS = 600.0
"""How long one game may run: an MCTS bot takes seconds to a minute per game."""


CALL_SECONDS = 60.0
"""How long one step of a game (a move: legal actions, the bot's choice and apply; the
game's setup; its end values) or one call into the engine outside a game may take: an
engine's move takes milliseconds, an MCTS bot's choice about a second (a bundled game of 4
seats: 110 s of CPU for a whole game)."""


def call_seconds() -> float:
    """The step bound: CALL_SECONDS, never more than a whole game's bound."""
    return min(CALL_SECONDS, GAME_SECONDS)


WATCH_GRACE = 5.0
"""Seconds past the bound after which a game in the main thread is stopped by the watch
thread, should the timer signal not have stopped it (an engine changed SIGALRM)."""


class GameTimeout(BaseException):
    """Raised in the engine's code when its game ran past the bound (a BaseException, so an
    engine's own `except Exception` does not swallow it)."""


class CallTimeout(GameTimeout):
    """Raised in the engine's code when one step of its game (a call into the engine that
    never returns) ran past the step bound, though the game is within its own."""


class Bound:
    """One game's bounds: it ends by `end`, and with a `step` bound each step it counts in
    `steps` follows the last within `step` seconds (`stalled` tells)."""

    __slots__ = ("end", "step", "steps", "seen", "seen_at")

    def __init__(self, end: float, step: float | None) -> None:
        self.end = end
        self.step = step
        self.steps = 0  # the game loop adds one a step
        self.seen = 0  # the count the last look saw, and when it saw it move
        self.seen_at = time.monotonic()

    def stalled(self, now: float) -> bool:
        """Whether no step was counted for the step bound (a look notes a new count)."""
        if self.step is None:
            return False
        if self.steps != self.seen:
            self.seen, self.seen_at = self.steps, now
            return False
        return now - self.seen_at >= self.step

    def next_look(self, now: float) -> float:
        """Seconds until the bound must be looked at again: the game's end or the step's."""
        due = self.end if self.step is None else min(self.end, self.seen_at + self.step)
        return max(due - now, 0.001)


def _expired(signum: int, frame: object) -> None:
    """The timer signal: past the game's end, or a step that took too long, raises; else
    the timer is set for the next look (at most one a step bound while the game moves)."""
    bound = _ACTIVE[-1] if _ACTIVE else None
    if bound is None:
        raise GameTimeout
    now = time.monotonic()
    if now >= bound.end:
        raise GameTimeout
    if bound.stalled(now):
        raise CallTimeout
    if bound.step is not None and _IN_FLIGHT[0] == 1:
        # the game moved within the step bound: the last resort's CPU bound starts again
        # from here, so one C call that never returns ends the process within two steps'
        # bound of CPU, not two games' (probe 21: twenty minutes, SIGTERM unheeded)
        signal.setitimer(signal.ITIMER_PROF, _stuck_seconds(bound.step))
    signal.setitimer(signal.ITIMER_REAL, bound.next_look(now))


@contextmanager
def game_deadline(seconds: float | None = None, step: float | None = None) -> Iterator[Bound]:
    """Run one game within `seconds` (default GAME_SECONDS) and, with `step`, each of the
    steps it counts in the yielded Bound within `step` seconds (`check_deadline` looks at
    the game's end, for threads where no timer signal can interrupt)."""
    limit = GAME_SECONDS if seconds is None else seconds
    bound = Bound(time.monotonic() + limit, step)
    if threading.current_thread() is not threading.main_thread():
        # a thread (a Dask worker's): the watch thread raises in it, and the profiling
        # timer ends the process should one C call hold the interpreter (the watch thread
        # cannot run then): without it `simulate --dask` waited for ever
        with _stop_when_stuck(limit), _raise_in_thread_after(limit, bound):
            yield bound
        return
    if _ACTIVE:
        yield _ACTIVE[-1]  # inside a bound already: the outer timer holds
        return
    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, bound.next_look(time.monotonic()))
    _ACTIVE.append(bound)
    # the timer signal is the engine's to change too (an alarm of its own, SIG_IGN, a
    # cancelled timer): a watch thread raises in the main thread a little later if so
    _second_stop_ends()
    stuck = limit if step is None else min(limit, step)
    with _stop_when_stuck(stuck), _raise_in_thread_after(limit + WATCH_GRACE):
        try:
            yield bound
        finally:
            _ACTIVE.pop()
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def interrupted_call(exc: BaseException, loops: tuple[str, ...]) -> str:
    """The call a bound interrupted, by qualified name: the one the innermost frame of a
    file in `loops` (the game loop's) made, and the function it was running if another
    ("GreedyBot.choose (in MyState.apply)"); "the engine" if unknown."""
    tb = exc.__traceback__
    call = inner = ""
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in loops:
            call = ""
        elif code.co_filename != __file__:
            name = getattr(code, "co_qualname", code.co_name)
            call, inner = call or name, name
        tb = tb.tb_next
    if not call:
        return "the engine"
    return call if inner == call else f"{call} (in {inner})"


_SA_RESETHAND = 0x80000000  # Linux: the handler goes back to the default once it ran
_SIGACTION: list[Any] = []  # [sigaction, a struct, a pointer to it], once looked up


def _sigaction() -> list[Any]:
    """The C library's `sigaction`, one struct for it (Linux: handler, a 1024-bit mask,
    flags, restorer) and a pointer to that struct; an empty list elsewhere. Main thread
    only (one struct)."""
    if not _SIGACTION and sys.platform == "linux":
        with suppress(Exception):
            import ctypes

            class Action(ctypes.Structure):
                _fields_ = [
                    ("handler", ctypes.c_void_p),
                    ("mask", ctypes.c_ulong * (128 // ctypes.sizeof(ctypes.c_ulong))),
                    ("flags", ctypes.c_int),
                    ("restorer", ctypes.c_void_p),
                ]

            call = ctypes.CDLL(None, use_errno=True).sigaction
            call.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
            action = Action()
            _SIGACTION.extend([call, action, ctypes.byref(action)])
    return _SIGACTION


def _second_stop_ends() -> None:
    """While a game plays in the main thread, a second Ctrl-C, SIGTERM or SIGHUP ends the
    process even if the engine holds the interpreter in one C call (`sum(range(10**15))`):
    Python's handlers run only between bytecodes, so every signal waited, for up to the
    profiling bound (twenty minutes). The system resets each handler to its default once
    it ran (SA_RESETHAND): the first signal is Python's to handle, as ever; a second one
    ends the process, as a second signal does with every handler of the toolkit's. The
    flag is left after the game (taking it back cost two more system calls through ctypes
    per game, ~5 % of a fast engine's game); a handler set again later is checked at the
    next game (one read per signal, a few microseconds)."""
    found = _sigaction()
    if found:
        call, action, pointer = found
        for number in STOP_SIGNALS:
            if signal.getsignal(number) in (signal.SIG_DFL, signal.SIG_IGN, None):
                continue
            if call(number, None, pointer) != 0 or action.flags & _SA_RESETHAND:
                continue
            if action.handler in (None, 0, 1):  # the system's default, or ignored
                continue
            action.flags = _c_int(action.flags | _SA_RESETHAND)
            call(number, pointer, None)


def _c_int(flags: int) -> int:
    """`flags` as a C int (bit 31 is the sign)."""
    flags &= 0xFFFFFFFF
    return flags - (1 << 32) if flags >= 1 << 31 else flags


_STUCK_ARMED: list[bool] = []
_STUCK_LOCK = threading.Lock()
_IN_FLIGHT = [0]  # games of this process (any thread) within a bound now


@contextmanager
def _stop_when_stuck(limit: float) -> Iterator[None]:
    """The last resort: one C call that never looks at signals and never lets another
    thread run (`sum(range(10**15))`, `sorted` of a huge range) is out of reach of both the
    timer signal's handler and the watch thread, for hours. A profiling timer counts this
    process's CPU time and its signal, left to the system, ends the process, whichever
    thread is stuck; the interpreter's fault handler first writes where each thread was (C
    code, no Python needed). The bound is twice the step's in the main thread (each look of
    the timer signal that sees the game move sets it again), else twice the game's, and CPU
    time, so an engine whose own threads work in parallel is not stopped before its
    wall-clock bound.

    The timer is one per process and a threaded worker may play several games at once:
    each game that starts sets it again (a stuck game holds the interpreter, so no other
    starts after it), and it is cancelled when the last game in flight ends."""
    with _STUCK_LOCK:
        _own_profiling_signal()
        _IN_FLIGHT[0] += 1
        signal.setitimer(signal.ITIMER_PROF, _stuck_seconds(limit))
    try:
        yield
    finally:
        with _STUCK_LOCK:
            _IN_FLIGHT[0] -= 1
            if _IN_FLIGHT[0] <= 0:
                _IN_FLIGHT[0] = 0
                signal.setitimer(signal.ITIMER_PROF, 0)


def _stuck_seconds(limit: float) -> float:
    """The CPU seconds after which the last resort ends a process stuck past `limit`."""
    return 2 * limit + 3 * WATCH_GRACE


def _own_profiling_signal() -> None:
    """The profiling timer's signal is the fault handler's, then the system's default
    (which ends the process): registered once per process, and again if an engine set a
    handler of its own (a sampling profiler's at import: its Python handler only ran
    between bytecodes, and the fault handler chained to it, so an engine stuck in one C
    call was never stopped). Only the main thread can set a handler; elsewhere an engine
    cannot have set one either."""
    import faulthandler

    handler = signal.getsignal(signal.SIGPROF)
    if handler not in (signal.SIG_DFL, None):
        if threading.current_thread() is not threading.main_thread():
            return
        with suppress(RuntimeError, ValueError, OSError):
            if _STUCK_ARMED:
                faulthandler.unregister(signal.SIGPROF)
            signal.signal(signal.SIGPROF, signal.SIG_DFL)
    elif _STUCK_ARMED:
        return
    with suppress(RuntimeError, ValueError, OSError):  # no stderr: end without a word
        faulthandler.register(signal.SIGPROF, all_threads=True, chain=True)
    if not _STUCK_ARMED:
        _STUCK_ARMED.append(True)


class _Watch:
    """One watch thread per process for every bound of `_raise_in_thread_after`: a game
    registers its thread and end time, and takes them back when it ends. A `threading.Timer`
    per game started a thread each game, and `Thread.start()` waits until the new thread has
    run: on a loaded machine that wait was a sixth of a fast engine's games. The thread
    sleeps until the earliest end it knows of; a later end (every next game's, with one
    bound) needs no wake-up, as the thread looks again when it wakes."""

    def __init__(self) -> None:
        self.cond = threading.Condition(threading.Lock())
        # id(entry) → [end, thread id, fired, stop, Bound or None (its steps looked at)]
        self.bounds: dict[int, list[Any]] = {}
        self.wakes_at = float("inf")  # when the thread wakes next (inf: not started or idle)
        self.thread: threading.Thread | None = None

    def add(self, entry: list[Any]) -> None:
        with self.cond:
            self.bounds[id(entry)] = entry
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="game-bound", daemon=True)
                self.thread.start()
            elif entry[0] < self.wakes_at or (
                entry[4] is not None and entry[4].next_look(time.monotonic()) < self.wakes_at
            ):
                self.cond.notify()

    def remove(self, entry: list[Any]) -> None:
        with self.cond:
            self.bounds.pop(id(entry), None)
            if entry[2]:  # raised already, or about to be: never after this block
                _async_raise(entry[1], None)

    def _run(self) -> None:
        cond = self.cond
        with cond:
            while True:
                now = time.monotonic()
                wake = float("inf")
                for entry in self.bounds.values():
                    if entry[2]:  # raised: still running at `stop`, it caught GameTimeout
                        if entry[3] <= now:
                            _stop_process(entry[1], now - entry[3] + WATCH_GRACE)
                        wake = min(wake, entry[3])
                    elif entry[0] <= now or (entry[4] is not None and entry[4].stalled(now)):
                        entry[2] = True
                        entry[3] = now + WATCH_GRACE
                        _async_raise(entry[1], GameTimeout if entry[0] <= now else CallTimeout)
                        wake = min(wake, entry[3])
                    else:
                        step = entry[4].next_look(now) + now if entry[4] is not None else wake
                        wake = min(wake, entry[0], step)
                self.wakes_at = wake
                cond.wait(None if wake == float("inf") else wake - now)

    def forked(self) -> None:
        """In a forked child: a fresh lock (the parent's was held for the fork), only the
        bounds of the thread that forked (the others are not running here), and a watch
        thread of its own for them (threads do not survive a fork): a child that never
        came back (a loop in engine code) ran on for ever after the command ended."""
        me = threading.get_ident()
        kept = {key: entry for key, entry in self.bounds.items() if entry[1] == me}
        self.__init__()  # type: ignore[misc]
        self.bounds.update(kept)
        if kept:
            with suppress(RuntimeError):
                self.thread = threading.Thread(target=self._run, name="game-bound", daemon=True)
                self.thread.start()


def _forked() -> None:
    """In a forked child: the watch thread's bounds (`_Watch.forked`), and the timers,
    which a fork does not pass on, set again for what is left of the game."""
    global _STUCK_LOCK
    _STUCK_LOCK = threading.Lock()  # another thread may have held it at the fork
    _WATCH.forked()
    ends = [entry[0] for entry in _WATCH.bounds.values()]
    _IN_FLIGHT[0] = len(ends)
    if not ends:
        return
    left = max(min(ends) - time.monotonic(), 0.001)
    with suppress(ValueError, OSError):
        if _ACTIVE and threading.current_thread() is threading.main_thread():
            signal.setitimer(signal.ITIMER_REAL, _ACTIVE[-1].next_look(time.monotonic()))
        signal.setitimer(signal.ITIMER_PROF, _stuck_seconds(left))


_WATCH = _Watch()
if hasattr(os, "register_at_fork"):  # the lock held over a fork: whole bounds in the child
    os.register_at_fork(
        before=lambda: _WATCH.cond.acquire(),
        after_in_parent=lambda: _WATCH.cond.release(),
        after_in_child=_forked,
    )


@contextmanager
def _raise_in_thread_after(seconds: float, bound: Bound | None = None) -> Iterator[None]:
    """Raise GameTimeout in this thread if the block runs past `seconds` (CallTimeout if a
    step of `bound` takes too long)."""
    entry = [time.monotonic() + seconds, threading.get_ident(), False, float("inf"), bound]
    _WATCH.add(entry)
    try:
        yield
    finally:
        _WATCH.remove(entry)


def _stop_process(thread: int, late: float) -> None:
    """The engine code in `thread` caught the GameTimeout raised `late` seconds ago and runs
    on (or it is stuck in one C call): no exception can stop it, so say where it is and end
    this process. Written straight to file descriptor 2 (the engine may hold a stream's
    lock); nothing of the run is written half: files are renamed into place whole."""
    frame = sys._current_frames().get(thread)
    where = _engine_line(frame)
    message = (
        f"{where}E005 [error] the engine's code ran on past the game's time bound of"
        f" {GAME_SECONDS:g} s: it caught the GameTimeout raised in it (a bare `except:` or"
        f" `except BaseException:`?) and was still running {late:.0f} s later; the run stops"
        " here\n"
    )
    with suppress(OSError):
        os.write(2, message.encode("utf-8", "backslashreplace"))
    os._exit(1)


def _engine_line(frame: Any) -> str:
    """`file:line:1: ` of the innermost frame outside the toolkit and Python's library (the
    engine's), else of the innermost frame; empty without a frame."""
    import sysconfig

    ours = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    library = {os.path.abspath(sysconfig.get_paths()[name]) for name in ("stdlib", "platstdlib")}
    first = frame
    while frame is not None:
        name = os.path.abspath(frame.f_code.co_filename)
        if not name.startswith(ours + os.sep) and not any(
            name.startswith(folder + os.sep) for folder in library
        ):
            break
        frame = frame.f_back
    frame = frame or first
    if frame is None:
        return ""
    name = frame.f_code.co_filename
    with suppress(ValueError, OSError):
        relative = os.path.relpath(name)
        if not relative.startswith(os.pardir):
            name = relative
    return f"{name}:{frame.f_lineno}:1: "


def _async_raise(thread: int, exc: type[BaseException] | None) -> None:
    """Ask CPython to raise `exc` in `thread` at its next line (None: take back a pending
    one)."""
    import ctypes

    arg = ctypes.py_object(exc) if exc is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), arg)


_ACTIVE: list[Bound] = []  # the bound the main thread runs within, if any


def check_deadline(bound: Bound) -> None:
    """Raise GameTimeout if the game is past its end (between moves, in any thread)."""
    if time.monotonic() > bound.end:
        raise GameTimeout


@contextmanager
def same_process() -> Iterator[None]:
    """Run engine code and end, silently, any process it forks that comes back here: a
    fork at import returned into the command in both processes, and the child ran the whole
    simulation as well (two reports on stdout, `check -f json` printed `[]` twice)."""
    pid = os.getpid()
    try:
        yield
    finally:
        if os.getpid() != pid:
            os._exit(0)  # the engine's child: nothing of the command's is its to finish


@contextmanager
def guarded_exit_handlers() -> Iterator[None]:
    """Run engine code with its atexit handlers guarded: one that raised printed Python's
    'Exception ignored in atexit callback' and a traceback after the command's output; now
    one line on stderr names it."""
    real = atexit.register

    def register(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Callable[..., Any]:
        name = getattr(func, "__qualname__", None) or repr(func)

        def guarded() -> None:
            try:
                func(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - the engine's, at exit: told, not raised
                with suppress(Exception):
                    sys.stderr.write(
                        f"warning: the engine's exit handler {name} raised "
                        f"{type(exc).__name__}: {exc}\n"
                    )

        real(guarded)
        return func

    atexit.register = register
    try:
        yield
    finally:
        atexit.register = real


@contextmanager
def same_umask() -> Iterator[None]:
    """Run engine code and come back to the file-creation mask it may change: an engine's
    os.umask(0o777) made the command's `--json` report and every later file mode 000."""
    mask = os.umask(0o022)
    os.umask(mask)
    try:
        yield
    finally:
        os.umask(mask)


@contextmanager
def same_folder() -> Iterator[None]:
    """Run engine code and come back to the working folder it may leave: an engine's
    os.chdir() moved a relative `--json rep.json` into its own folder (replacing a file
    there) and made a sweep's next compile miss the game folder."""
    try:
        here = os.getcwd()
    except OSError:  # the working folder is gone already: nothing to come back to
        yield
        return
    try:
        yield
    finally:
        with suppress(OSError):  # a folder since removed stays left
            if os.getcwd() != here:
                os.chdir(here)


_COPIES: dict[int, tuple[tuple[int, int], int]] = {}  # fd → (what it was, a copy of it)


def _copy_of(fd: int) -> tuple[tuple[int, int], int] | None:
    """(identity, copy) of file descriptor `fd` as it is now, kept between calls (one
    fstat when it did not change); None when it is not open."""
    try:
        info = os.fstat(fd)
    except OSError:
        return None
    identity = (info.st_dev, info.st_ino)
    kept = _COPIES.get(fd)
    if kept is None or kept[0] != identity:
        try:
            copy = os.dup(fd)
        except OSError:
            return None
        if kept is not None:
            with suppress(OSError):
                os.close(kept[1])
        kept = _COPIES[fd] = (identity, copy)
    return kept


@contextmanager
def same_streams() -> Iterator[list[str]]:
    """Run engine code and put back the standard streams it closed or replaced: file
    descriptors 1 and 2 (`os.close(1); os.close(2)` left the run no way to say anything:
    no finding, no report, exit 1 in silence), and sys.stdout / sys.stderr (engine code
    prints to stderr, so its `sys.stdout.close()` closed stderr: `check` ended in "lost
    sys.stderr", exit 1, with no report). Yields the list of what was put back, filled
    on the way out, for the caller to report."""
    kept = [(fd, _copy_of(fd)) for fd in (1, 2)]
    out, err = sys.stdout, sys.stderr
    restored: list[str] = []
    try:
        yield restored
    finally:
        for fd, copy in kept:
            if copy is None:
                continue
            try:
                info = os.fstat(fd)
                same = (info.st_dev, info.st_ino) == copy[0]
            except OSError:
                same = False
            if not same:
                restored.append(f"file descriptor {fd}")
                with suppress(OSError):
                    os.dup2(copy[1], fd)
        # engine code prints to stderr: its sys.stdout is sys.stderr, closed by either name
        both = (("sys.stdout or sys.stderr", err),) if out is err else ()
        named = both or (("sys.stdout", out), ("sys.stderr", err))
        restored += [name for name, stream in named if getattr(stream, "closed", False)]
        sys.stderr = _open_again(err, 2)
        sys.stdout = sys.stderr if out is err else _open_again(out, 1)


def _open_again(stream: Any, fd: int) -> Any:
    """`stream` when it is still open, else a new text stream on a copy of `fd`."""
    if stream is None or not getattr(stream, "closed", False):
        return stream
    try:
        raw = io.FileIO(os.dup(fd), "w", closefd=True)
    except OSError:
        return stream
    encoding = getattr(stream, "encoding", None) or "utf-8"
    return io.TextIOWrapper(raw, encoding=encoding, errors="backslashreplace", line_buffering=True)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM) + (
    (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()
)


@contextmanager
def same_signals() -> Iterator[None]:
    """Run engine code and put back the Ctrl-C and SIGTERM handlers it may change: an
    engine's `signal.signal(SIGINT, SIG_IGN)` switched Ctrl-C off for the whole run (only
    the main thread can set handlers, so elsewhere this does nothing). SIGPROF, once a game
    bound uses it, goes back to the fault handler (`_own_profiling_signal`)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = [(number, signal.getsignal(number)) for number in STOP_SIGNALS]
    try:
        yield
    finally:
        for number, handler in before:
            if handler is not None and signal.getsignal(number) is not handler:
                with suppress(ValueError, OSError):
                    signal.signal(number, handler)
        if _STUCK_ARMED:  # the profiling timer's signal: the fault handler's again
            with _STUCK_LOCK:
                _own_profiling_signal()


@contextmanager
def engine_guards() -> Iterator[list[str]]:
    """Every guard engine code runs inside, in a game or outside one (its import, its hooks):
    the working folder, the file-creation mask, the process, the exit handlers, the signal
    handlers and the standard streams it may change are put back. Yields the streams it
    closed and the run opened again (`same_streams`). One list, so a guard added for one
    case covers both."""
    with (
        same_folder(),
        same_umask(),
        same_process(),
        guarded_exit_handlers(),
        same_signals(),
        same_streams() as restored,
    ):
        yield restored
