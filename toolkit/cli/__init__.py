"""The `playset` command line: thin wrappers that parse, call the library and print."""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import signal
import sys
from typing import Any


def _stop_quietly(signum: int, frame: object) -> None:
    """Ctrl-C while the command is still loading its modules: end at once, as later (exit
    130), not with a KeyboardInterrupt traceback through typer's or the toolkit's imports."""
    os._exit(128 + signum)


# Only as the `playset` command (or `python -m toolkit`), never in a process that imports
# the CLI to call it (tests, an editor's plugin): main() puts Python's handler back.
_COMMAND = os.path.basename(sys.argv[0] if sys.argv else "")
_AS_COMMAND = _COMMAND in ("playset", "playset.exe", "__main__.py")
if _AS_COMMAND and (signal.getsignal(signal.SIGINT) is signal.default_int_handler):
    signal.signal(signal.SIGINT, _stop_quietly)

# A command is short-lived and most of what it allocates lives to the end (modules, classes,
# validators, fonts): with the default thresholds the collector rescans them hundreds of times
# while they load, ~70 ms of a 0.6 s build on a 2-core machine. A young-generation collection
# walks every object still alive since the last one, so what costs is walking the long-lived
# ones at all: at 20,000 a cold build of 100 cards still made 5 collections (~45 ms CPU of
# ~0.6 s); at 200,000 it makes none, and a larger job walks the survivors once either way.
# Cyclic garbage waiting for a collection stays bounded by the threshold.
gc.set_threshold(200_000, 50, 100)

COMMANDS: dict[str, str] = {
    "list": "games:list_games",
    "validate": "validate:validate",
    "rules": "rules:list_rules",
    "build": "build:build",
    "simulate": "simulate:simulate",
    "check": "simulate:check",
    "sweep": "sweep:sweep",
    "tune": "sweep:tune",
    "replay": "sweep:replay",
    "new": "new:new",
    "calibrate": "calibrate:calibrate",
    "preview": "preview:preview",
    "lsp": "lsp:lsp",
    "reference": "reference:reference",
    "icons": "reference:icons",
    "convert": "convert:convert",
}
"""Each command by name: `module:function` of toolkit.cli, imported only when the app made
holds that command (a run imports the module of the one command it runs, not all of them)."""
GROUPS: dict[str, str] = {"schemas": "schemas:app", "i18n": "i18n:app", "export": "export:app"}
"""Each command group by name: `module:attribute` of its typer.Typer, as COMMANDS."""

if _AS_COMMAND:
    # ~110 dataclasses are made on a cold build, their methods compiled from the same sources
    # every run: their code is kept between runs (toolkit.dataclass_code), from typer's on,
    # each command's apart (a command reads only the code it uses)
    from toolkit import dataclass_code

    _FIRST = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), "")
    dataclass_code.install(_FIRST if _FIRST in COMMANDS or _FIRST in GROUPS else "")
    if _FIRST in ("build", "validate"):
        # reportlab imports PIL's Image at its top (~70 M instructions); a build of text
        # cards never reads it, one with a picture loads it then (toolkit.deferred_imports);
        # nor do validate's checks after a card edit (the fit of a text needs reportlab's
        # fonts, never its images)
        from toolkit.deferred_imports import defer

        defer("PIL.Image")

import importlib  # noqa: E402

import typer  # noqa: E402


def _load(spec: str) -> Any:
    module, _, attribute = spec.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)


def make_app(only: str | None = None) -> typer.Typer:
    """The command line; with `only`, just that command or group (typer inspects every
    registered command's signature on each run, ~25 ms for all of them)."""
    made = typer.Typer(
        name="playset",
        help="Check, simulate and print tabletop games written as YAML and Markdown.",
        no_args_is_help=True,
        add_completion=only is None,  # `--install-completion` for bash, zsh, fish, PowerShell
        pretty_exceptions_enable=False,
    )
    made.callback()(_group)  # a lone command stays a subcommand: `playset build …`
    for name, command in COMMANDS.items():
        if only in (None, name):
            made.command(name)(_load(command))
    for name, group in GROUPS.items():
        if only in (None, name):
            made.add_typer(_load(group), name=name)
    from toolkit.cli.help_types import readable_help

    return readable_help(made)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"playset {version('playset')}")
        except PackageNotFoundError:
            typer.echo("playset (not installed)")
        raise typer.Exit()


def _group(
    show_version: bool = typer.Option(
        False,
        "--version",
        help="Print the version and exit.",
        callback=_show_version,
        is_eager=True,
    ),
) -> None:
    """Check, simulate and print tabletop games written as YAML and Markdown."""
    from toolkit.build_date import source_date_epoch

    try:  # read by reportlab wherever a PDF is drawn, the checks' too: refused once, here
        source_date_epoch()
    except ValueError as exc:
        sys.stderr.write(f"error: {exc}\n")
        raise SystemExit(2) from None


def __getattr__(name: str) -> Any:
    """`app`, the whole command line, is made on first use (tests, `reference`): a run of
    one command makes only that command's."""
    if name == "app":
        made = globals()["app"] = make_app()
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


WHOLE = frozenset({"reference"})
"""Commands that read the whole command line from their context (the reference documents
every command), so they run in the full app, not one built for them alone."""


def app_for(args: list[str]) -> typer.Typer:
    """The app that runs `playset ARGS`: only the command or group named first (typer turns
    every command it holds into click's on each run), the whole one for anything else."""
    first = next((arg for arg in args if not arg.startswith("-")), None)
    alone = (first in COMMANDS or first in GROUPS) and first not in WHOLE
    return make_app(first) if alone else make_app()


_TERMINATED: list[int] = []


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM (`timeout`, a CI job cancelled, an editor's stop button, `kill`) and SIGHUP
    (the terminal closed, an ssh session dropped) stop a command as Ctrl-C does, so that
    what it staged is taken back the same way (an export's images, a half-made `playset
    new`): their default ended the process where it stood, and left them. A second one
    ends the process at once."""
    if _TERMINATED:
        with contextlib.suppress(Exception):  # os._exit skips atexit, which removes them
            if pictures := sys.modules.get("toolkit.render.pictures"):
                pictures.discard()
        os._exit(128 + signum)
    _TERMINATED.append(signum)
    raise KeyboardInterrupt


def _stop_on_sigterm() -> bool:
    """Take SIGTERM and SIGHUP as Ctrl-C for this command (main thread, handler not set by
    a caller: `nohup`'s SIG_IGN for SIGHUP stays)."""
    taken = False
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None or signal.getsignal(number) is not signal.SIG_DFL:
            continue
        try:
            signal.signal(number, _terminate)
        except ValueError:  # not the main thread
            return False
        taken = True
    return taken


def main() -> None:
    _standard_streams()
    absolute_temp_folder()
    _check_home()
    # typer makes a pydantic validator for each option it reads: pydantic is told first
    # whether it has plugins, from the registries' one read of the installed entry points
    from toolkit.registry import spare_pydantic_scan

    spare_pydantic_scan()
    chosen = app_for(sys.argv[1:])
    if signal.getsignal(signal.SIGINT) is _stop_quietly:  # loaded: typer handles Ctrl-C now
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _stop_on_sigterm()
    try:
        try:
            chosen()
        except OSError as exc:  # typer passes on all but a broken pipe
            raise SystemExit(_output_lost(exc)) from None
    except SystemExit as done:
        if _TERMINATED:  # stopped as by Ctrl-C (130), by SIGTERM: 143, SIGHUP: 129
            done.code = 128 + _TERMINATED[0]
        done.code = _output_written(done.code)  # before report_done, which hides a failure
        _report_done()
        _save_code()  # before a thread that never ends makes the process end at once
        _end_despite_threads(done.code)
        _end_now(done.code)
        raise
    finally:
        _report_done()
        _save_code()
        # A short-lived command ends here: freezing the heap spares the interpreter a last
        # garbage-collection pass over every object at exit (~45 ms of a 0.5 s build on a
        # 2-core machine). Objects are still freed; only cycles are left to the OS.
        gc.freeze()


def settle() -> None:
    """As the `playset` command, take what the process holds now as living to its end (a
    loaded game: its parsed files, models and validators, with the modules and classes
    before them): moved out of the collector's sight (`gc.freeze`, as `main` does at the
    end), so the young generation starts empty. A validate after one card edit loads ~100,000
    objects and its checks make ~165,000 more: the collection at 200,000 walked every one of
    them (~20-45 ms CPU on a shared 2-core machine) and found next to no garbage. A frozen
    object is still freed when its last reference goes; only a cycle among them is left to
    the end of the process. Nothing in a process that imports the CLI (tests, an editor)."""
    if _AS_COMMAND:
        gc.freeze()


_OUTLIVING: list[object] = []


def outlive(value: object) -> None:
    """As the `playset` command, keep `value` (the game a `validate` checked last) to the end
    of the process, which `_end_now` reaches without freeing it: the system takes its memory
    back whole. None lets the value held go (before the next game is loaded: one at a time).
    Nothing in a process that imports the CLI (tests, an editor)."""
    if _AS_COMMAND:
        _OUTLIVING[:] = [] if value is None else [value]


def absolute_temp_folder() -> None:
    """Ignore a relative TMPDIR, TEMP or TMP (as a relative XDG_CACHE_HOME is): `tempfile`
    took `TMPDIR=.` as given, so in a game folder the editor's mirror and the pictures'
    private copies were made inside the game (the mirror then mirrored itself up to its
    bound). The variables are taken out for the engines and tools the command starts too."""
    names = ("TMPDIR", "TEMP", "TMP")
    relative = [
        name for name in names if name in os.environ and not os.path.isabs(os.environ[name])
    ]
    if not relative:
        return
    for name in relative:
        del os.environ[name]
    # chosen again, without them (tempfile chooses on its first use: a command that has
    # not imported it yet, or writes no file, imports it later, if ever)
    tempfile: Any = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile.tempdir = None


def _check_home() -> None:
    """`$PLAYSET_HOME` names the folder holding the toolkit's templates (and content/,
    schemas/): one without them was a FileNotFoundError traceback from the first font read
    (validate, build, simulate, export, i18n, icons)."""
    home = os.environ.get("PLAYSET_HOME")
    if home and not _has_fonts(os.path.join(home, "templates", "fonts")):
        sys.stderr.write(
            f"error: PLAYSET_HOME={home!r} has no templates/fonts/ with Playset's fonts: it"
            " must name the folder holding Playset's content/, templates/ and schemas/ (or"
            " be unset)\n"
        )
        raise SystemExit(2)


def _has_fonts(folder: str) -> bool:
    """Whether `folder` holds the shipped faces (an empty templates/ passed the check and
    then gave the same traceback from the first font read)."""
    try:
        names = set(os.listdir(folder))
    except OSError:
        return False
    return {"NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf"} <= names


STREAMS = ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY))


def _standard_streams() -> None:
    """A standard stream closed when the command started (`playset list >&-`, `playset lsp
    <&-`): /dev/null takes its file descriptor and Python's stream is made again on it.
    Without it every command that printed ended in a traceback ('NoneType' object has no
    attribute 'write'), and the first file the command opened became file descriptor 1,
    where a library's or an engine's writes to stdout would have landed. What is printed
    then goes nowhere, as the caller asked; the exit code is the command's."""
    for fd, name, flags in STREAMS:
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        try:
            null = os.open(os.devnull, flags)
        except OSError:
            continue
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        if getattr(sys, name) is None:
            mode = "r" if fd == 0 else "w"
            setattr(sys, name, open(fd, mode, encoding="utf-8", closefd=False))  # noqa: SIM115
    _tell_stdout_failures()


def _tell_stdout_failures() -> None:
    """The process's stdout made again with writes that raise StdoutError when they fail,
    so a full disk there is told apart from a bug (both were an OSError traceback)."""
    from toolkit.fileio import stdout_stream

    stream: Any = sys.stdout
    original: Any = sys.__stdout__
    if stream is None or stream is not original:
        return  # a test's captured stream, a caller's own
    try:
        if stream.fileno() != 1:
            return
        stream.flush()
    except (OSError, ValueError, AttributeError):
        return
    sys.stdout = stdout_stream(1, stream)  # sys.__stdout__ stays Python's own


def _stdout_failing() -> OSError | None:
    """The error writing what is still buffered for stdout raises (None: it is written)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:
        return exc
    except (ValueError, AttributeError):  # closed, or replaced by an engine: not ours
        return None
    return None


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so what stays buffered for stdout is
    flushed there at exit, not reported as 'Exception ignored … No space left'."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, 1)
    except OSError:
        pass
    finally:
        os.close(null)


def _say_output_lost(exc: OSError) -> None:
    if exc.errno == errno.EPIPE:  # `| head -1`: the reader has what it wanted
        return
    reason = exc.strerror or str(exc)
    try:
        sys.stderr.write(f"error: cannot write the output to stdout: {reason}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _output_lost(exc: OSError) -> int:
    """An OSError that reached the command line: when writing stdout fails (a full disk,
    /dev/full, an I/O error), one line and exit 1; any other is raised again."""
    from toolkit.fileio import StdoutError

    if not isinstance(exc, StdoutError):
        raise exc
    _silence_stdout()
    _say_output_lost(exc)
    return 1


def _output_written(code: str | int | None) -> str | int | None:
    """The exit code once what the command left buffered for stdout is written: a write
    that fails there (`playset list > /dev/full`) is one line and exit 1, not a traceback
    at exit."""
    failing = _stdout_failing()
    if failing is None:
        return code
    _silence_stdout()
    _say_output_lost(failing)
    return 1


def _report_done() -> None:
    """The command's output is out: a game engine's prints from now on (its atexit
    handlers, `__del__` at exit) go to stderr, not after a JSON or SARIF report."""
    engines = sys.modules.get("toolkit.sim.engines")
    if engines is not None:
        engines.report_done()


def _save_code() -> None:
    """Keep the dataclass methods this run compiled, when the command installed the cache."""
    kept = sys.modules.get("toolkit.dataclass_code")
    if kept is not None:
        kept.save()


ENDS_AT_ONCE = frozenset({"build", "validate"})
"""Commands whose process ends as soon as they are done (`_end_now`): a cold build of 100
cards spent ~17 M instructions (~6 ms CPU, ~2 % of it) freeing its ~50 MB of modules, models
and fonts one object at a time, memory the system takes back whole at exit."""


def _end_now(code: object) -> None:
    """As the `playset` command, a `build` or `validate` that is done ends here with its exit
    code: its output flushed and the `atexit` functions run (a plugin's, logging's, the
    temporary folders' finalizers), as the interpreter does at exit, but without tearing down
    every module and object one by one (Python does not promise `__del__` of objects still
    alive at exit anyway). Anything unusual goes the ordinary way: another command, a
    process that imports the CLI (tests, an editor), a debugger, profiler or coverage
    attached, an exit code other than a small number, stdout that cannot be flushed."""
    if not _AS_COMMAND or _FIRST not in ENDS_AT_ONCE:
        return
    if sys.gettrace() is not None or sys.getprofile() is not None or sys.flags.inspect:
        return
    if code is None:
        code = 0
    if type(code) is not int or not 0 <= code <= 255:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # said and exited as ever, on the interpreter's way out
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        code = 120  # what the interpreter exits with when its last flush fails
    os._exit(code)


THREAD_GRACE = 2.0
"""Seconds a command that is done waits for threads it did not start (an engine's) to end."""


def _end_despite_threads(code: object) -> None:
    """A game engine may start a thread that never ends: the interpreter waits for every
    non-daemon thread at exit, so the command hung after its report, deaf to Ctrl-C. Give
    such threads a moment, then end the process with the command's exit code."""
    import os
    import threading
    import time

    end = time.monotonic() + THREAD_GRACE
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.daemon:
            continue
        thread.join(max(0.0, end - time.monotonic()))
    left = [t for t in threading.enumerate() if t.is_alive() and not t.daemon]
    if left == [threading.main_thread()] or not left:
        return
    status = code if isinstance(code, int) else (0 if code is None else 1)
    try:
        sys.stderr.write(
            f"note: {len(left) - 1} thread(s) still running (started by a game engine?); "
            "ending without waiting for them\n"
        )
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)
