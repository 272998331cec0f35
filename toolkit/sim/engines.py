"""Find and load a game's engine: an `engine:` beside the game, else its installed plugin's.

A game folder may name `engine: engine.py` (or a package folder) in game.yaml. The module
exposes `compile_game(content) -> CompiledGame` (content: toolkit.api.GameContent) and
optionally `BOTS = {name: make(seat) -> Bot}`. Only the commands that play call `engine_of`:
validate, build, preview, export and i18n never run a game folder's code.

Every mistake while loading (no file, a syntax or import error, no `compile_game`, a
`compile_game` that raises or returns something else, a State missing a contract method) is
an `EngineError` holding one diagnostic at the engine file's line, never a traceback.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import numbers
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from toolkit.content.folders import others_may_change
from toolkit.diagnostics import Diagnostic, Span, rule
from toolkit.fileio import open_regular, read_open, real_path, sparse, sparse_refusal
from toolkit.sim import deadline
from toolkit.sim.deadline import GameTimeout, engine_guards, game_deadline
from toolkit.sim.engine import CompiledGame, GameSetup
from toolkit.sim.exits import refuse_exit
from toolkit.sim.signals import is_stop

E_LOAD = rule(
    "E001",
    "engine-load",
    "The game's engine cannot be loaded: no such file, a syntax or import error, no "
    "compile_game(content), or compile_game raised.",
)
E_CONTRACT = rule(
    "E002",
    "engine-contract",
    "The engine breaks the engine contract: a missing method, compile_game returned "
    "something that is not a CompiledGame, or its max_turns is no whole number of 1 or more.",
)
E_ILLEGAL = rule(
    "E003", "illegal-move", "A bot chose a move that is not among the state's legal actions."
)
E_RAISED = rule("E004", "engine-raised", "The engine or a bot raised an exception mid-game.")
E_ENDLESS = rule(
    "E005",
    "endless-game",
    "A game went past the engine's declared max_turns moves without ending, offered no "
    "legal action before the end, or ran past its time bound (a call that never returns).",
)

DOCS = "docs/engines.md"
CONTRACT_METHODS = ("current_player", "legal_actions", "apply", "is_terminal", "returns", "clone")
STATE_FIELDS = ("rng", "turns", "rounds", "events", "card_plays")


class EngineError(Exception):
    """The engine cannot be used; `diagnostic` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic)  # the args pickle: a worker's error reaches the CLI whole
        self.diagnostic = diagnostic

    def __str__(self) -> str:
        return self.diagnostic.message


@dataclass
class Engine:
    """A loaded engine: how to compile the game, its own bots, and where its code lives
    (findings point at lines under `root`)."""

    compile: Callable[[Any], CompiledGame]
    bots: dict[str, Callable[[int], Any]] = field(default_factory=dict)
    root: Path | None = None
    source: Path | None = None  # the file named in game.yaml (findings without a frame)


def display(path: Path) -> str:
    from toolkit.content.game import display_path

    return display_path(path)


def own_frame(tb: Any, root: Path | None) -> tuple[Path, int] | None:
    """The innermost traceback frame in a file under `root` (the engine's own code)."""
    if root is None:
        return None
    found = None
    for frame in traceback.extract_tb(tb):
        path = Path(frame.filename)
        if path.is_relative_to(root) and frame.lineno:
            found = (path, frame.lineno)
    return found


def where_defined(obj: Any, root: Path | None) -> tuple[Path, int] | None:
    """The file and line where a function or class is defined, if under `root`."""
    if root is None:
        return None
    if isinstance(obj, property) and obj.fget is not None:  # `timed_out`: its getter's line
        obj = obj.fget
    try:
        target = inspect.unwrap(obj)
        file = inspect.getsourcefile(target)
        line = inspect.getsourcelines(target)[1]
    except (TypeError, OSError):
        return None
    if file is None or not Path(file).resolve().is_relative_to(root):
        return None
    return Path(file).resolve(), max(1, line)


MAX_MESSAGE = 500
"""Characters of an engine exception's message kept in a finding (a 20 MB message was kept
and printed whole, ten findings at a time: 4 GB and 200 MB of output)."""


def describe(exc: BaseException) -> str:
    """`Type: message`, the message cut to MAX_MESSAGE characters; an exception whose
    str() itself raises is named without it (never a traceback from the report)."""
    name = type(exc).__name__[:MAX_MESSAGE]
    try:
        text = str(exc)
    except BaseException as inner:  # noqa: BLE001 - the engine's own __str__ failed
        if is_stop(inner):
            raise
        text = f"(its message cannot be shown: str() raised {type(inner).__name__})"
    text = shortened(text) if isinstance(text, str) else ""
    return f"{name}: {text}" if text else name


_HUGE_NUMBER = re.compile(r"(?<![\w.])\d{40,}(?![\w.])")
"""A whole number of 40 digits or more in a message: no seed or count is that long, and
`hand_size: 1e308` was printed as the engine's int(), 309 digits."""


def _scientific(found: re.Match[str]) -> str:
    digits = found.group()
    mantissa = f"{digits[0]}.{digits[1:3]}".rstrip("0").rstrip(".")
    return f"{mantissa}e+{len(digits) - 1} ({len(digits)} digits)"


def shortened(text: str) -> str:
    """`text` cut to MAX_MESSAGE characters, saying how long it was; a huge whole number in
    it shown as `1e+308 (309 digits)`."""
    size = len(text)
    if size >= 40:  # only the part that may be kept is looked at
        text = _HUGE_NUMBER.sub(_scientific, text[: 2 * MAX_MESSAGE])
    return text if size <= MAX_MESSAGE else f"{text[:MAX_MESSAGE]}… ({size:,} characters)"


class _MainThreadStdout:
    """sys.stdout once engine code has run in this process: the main thread writes through
    (the report, `check --format sarif`), any other thread to stderr, and so does everyone
    once the command is done (`report_done`: an engine's atexit handler or `__del__` printed
    after the report). A thread an engine starts prints whenever it likes, also while no
    redirect is in place (between hooks, while the report is written), and its lines made
    the JSON and SARIF unreadable."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.done = False

    def _target(self) -> Any:
        if not self.done and threading.current_thread() is threading.main_thread():
            return self._stream
        return sys.stderr

    def write(self, text: str) -> int:
        return int(self._target().write(text))

    def writelines(self, lines: Any) -> None:
        self._target().writelines(lines)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


def _report_stream(stream: Any) -> Any:
    """The stream the report goes on, with file descriptor 1 itself given to stderr: what an
    engine writes to the process's stdout by another path than print() (`os.write(1, …)`,
    `sys.__stdout__`, a child process it starts, C code) went into `check -f json` as well.
    Only the process's own stdout is moved (not a test's captured stream)."""
    from toolkit.fileio import is_stdout_stream, stdout_stream

    original: Any = sys.__stdout__
    try:  # the command line's stdout (toolkit.cli) is the process's own as well
        if (stream is not original and not is_stdout_stream(stream)) or stream.fileno() != 1:
            return stream
        stream.flush()
        if original is not None and original is not stream:
            original.flush()  # what went there before goes out before fd 1 moves
        saved = os.dup(1)
    except (AttributeError, OSError, ValueError):
        return stream
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(saved)
        return stream
    return stdout_stream(saved, stream, closefd=True)  # the report's, for the whole run


def _threads_to_stderr() -> None:
    """Wrap sys.stdout (once per stream) so that only the main thread writes to it, and
    only through a file descriptor of its own (fd 1 then writes to stderr)."""
    if not isinstance(sys.stdout, _MainThreadStdout):
        sys.stdout = _MainThreadStdout(_report_stream(sys.stdout))


def report_done() -> None:
    """The command's output is written: what engine code prints from now on (atexit
    handlers, `__del__` at exit) goes to stderr."""
    if isinstance(sys.stdout, _MainThreadStdout):
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        sys.stdout.done = True


@contextlib.contextmanager
def engine_code() -> Iterator[None]:
    """Run engine code outside a game (its import, compile_game, the setup hooks): its
    print()s go to stderr, never into a report on stdout (`check --format sarif`), and so do
    those of any thread it starts, then and later; it comes back to the working folder and
    the signal handlers it found, and is bounded in time as one step of a game is
    (`deadline.CALL_SECONDS`: a loop at import hung every command for ever)."""
    _threads_to_stderr()
    with (
        contextlib.redirect_stdout(sys.stderr),
        engine_guards(),
        game_deadline(deadline.call_seconds()),
    ):
        yield


def _looping(what: str) -> str:
    return f"{what} still running after {deadline.call_seconds():g} s (a loop without end?)"


def declared_engine(game: Any) -> str | None:
    """The `engine:` game.yaml names, if any (read without importing anything)."""
    manifest = getattr(game, "manifest", None)
    return getattr(manifest, "engine", None) if manifest is not None else None


def has_engine(game: Any) -> bool:
    """Whether the game declares an engine (beside it, or by its plugin); imports nothing."""
    return declared_engine(game) is not None or game.plugin.engine is not None


def no_engine_message(game_id: str) -> str:
    return (
        f"{game_id} has no simulation engine; add one with `playset new GAME --engine` "
        f"(a working engine.py to edit) or `engine: engine.py` in game.yaml (see {DOCS})"
    )


def engine_of(game: Any) -> Engine | None:
    """The game's engine (the folder's own, else its plugin's), or None if it has none."""
    rel = declared_engine(game)
    if rel is not None:
        return _folder_engine(game, rel)
    if game.plugin.engine is None:
        return None
    module = sys.modules.get(getattr(game.plugin.engine, "__module__", ""), None)
    file = getattr(module, "__file__", None)
    root = Path(file).resolve().parent if file else None
    return Engine(game.plugin.engine, dict(game.plugin.bots), root, None)


def _manifest_at(game: Any, message: str, rule_: Any = E_LOAD) -> EngineError:
    file = game.manifest_file
    span = file.doc.span(("engine",)) if file is not None and file.doc is not None else Span()
    return EngineError(rule_.at(file.rel if file else "game.yaml", span, message))


_MODULES: dict[Path, ModuleType] = {}


def _folder_engine(game: Any, rel: str) -> Engine:
    from toolkit.content.game import _inside

    target = _inside(game.root, rel)
    if target is None:
        raise _manifest_at(game, f"engine {rel!r} leaves the game folder")
    if target.is_dir():
        entry = target / "__init__.py"
        if not entry.is_file():
            raise _manifest_at(game, f"engine folder {rel!r} has no __init__.py")
        if not real_path(entry).is_relative_to(real_path(Path(game.root))):
            raise _manifest_at(game, f"engine {rel!r}: its __init__.py leaves the game folder")
    elif target.is_file():
        if target.suffix != ".py":
            raise _manifest_at(game, f"engine {rel!r} is not a Python file (.py)")
        entry = target
    else:
        raise _manifest_at(game, f"no engine file {rel!r} (see {DOCS})")
    if why := others_may_change(entry, game.root, as_root=False):
        raise _manifest_at(
            game,
            f"engine {rel!r} is not run: {why}, so another user could change the code"
            " Playset would run in your account (make it yours: chown, chmod o-w)",
        )
    module = _import(entry, target if target.is_dir() else None, Path(game.root))
    make = getattr(module, "compile_game", None)
    if not callable(make):
        raise EngineError(
            E_LOAD.at(
                display(entry),
                Span(1, 1),
                f"{rel} has no compile_game(content) -> CompiledGame (see {DOCS})",
            )
        )
    bots = getattr(module, "BOTS", {}) or {}
    if not isinstance(bots, dict):
        raise EngineError(
            E_CONTRACT.at(display(entry), Span(1, 1), f"{rel}: BOTS must map names to make(seat)")
        )
    root = target.resolve() if target.is_dir() else entry.resolve().parent
    return Engine(_with_view(make), dict(bots), root, entry.resolve())


def _with_view(make: Callable[[Any], CompiledGame]) -> Callable[[Any], CompiledGame]:
    """A folder engine compiles from the read-only content view, not the loader's models."""

    def compile_from(game: Any) -> CompiledGame:
        from toolkit.sim.content_view import content_view

        return make(content_view(game))

    compile_from.__wrapped__ = make  # type: ignore[attr-defined]
    return compile_from


MAX_SOURCE_BYTES = 16 * 1024 * 1024
"""Bytes of one Python source file of a folder engine (a module of 400,000 lines). A file
over it, or a sparse one, is refused unread: a 3 GB sparse engine.py was read whole (38 s,
3.2 GB) to end in "source code string cannot contain null bytes"."""


class SourceRefused(ImportError):
    """A source file of an engine that is not read: sparse, or over MAX_SOURCE_BYTES."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message, path=path)


def source_refusal(fd: int, info: os.stat_result) -> str | None:
    """Why the engine source file open as `fd` (`info`: its fstat) is not read: a sparse
    file, or one over `MAX_SOURCE_BYTES`; None if it may be."""
    if sparse(fd, info):
        return "it is " + sparse_refusal(info, "Python source saved by an editor")
    if info.st_size > MAX_SOURCE_BYTES:
        return (
            f"it is {info.st_size:,} bytes, more than the {MAX_SOURCE_BYTES:,} bytes a Python"
            " source file of an engine may have"
        )
    return None


class _SourceLoader(importlib.machinery.SourceFileLoader):
    """Loads an engine's module from its `.py` source, and only from it: Python's own
    loader runs a `__pycache__/<name>.cpython-3x.pyc` beside the source instead of it (an
    "unchecked-hash" one without looking at the source at all, so a game folder could ship
    code that is not in the engine.py a user reads) and writes one there (through a
    `__pycache__` link the game brought, outside the game folder). A source file is opened
    once and looked at before it is read (`source_refusal`)."""

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return compile(self.get_data(path), path, "exec", dont_inherit=True)

    def get_data(self, path: str) -> bytes:
        with open_regular(Path(path)) as (fd, info):
            why = source_refusal(fd, info)
            if why is not None:
                raise SourceRefused(why, path)
            data = read_open(fd, MAX_SOURCE_BYTES)
        if len(data) > MAX_SOURCE_BYTES:  # it grew since it was looked at
            message = f"it is more than the {MAX_SOURCE_BYTES:,} bytes a Python source file of"
            raise SourceRefused(message + " an engine may have", path)
        return data


class _EngineFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of a folder engine's package (`from . import bots`) as sources
    loaded by `_SourceLoader`; names outside an engine package are left to Python's
    finders, names inside one never are: those would load a sourceless `.pyc` or an
    extension module from the game folder, unchecked. Every file imported (a module, a
    sub-package's `__init__.py`) is checked as the engine's entry is: inside the game
    folder, and no other user may change it or a folder above it up to the game folder."""

    packages: dict[str, Path] = {}  # an engine package's name → its game folder (real path)

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        root = self.packages.get(fullname.split(".", 1)[0])
        if path is None or root is None:
            return None
        last = fullname.rpartition(".")[2]
        for folder in path:
            package = Path(folder) / last
            if (package / "__init__.py").is_file():
                file = _checked(package / "__init__.py", root)
                loader = _SourceLoader(fullname, str(file))
                return importlib.util.spec_from_file_location(
                    fullname, file, loader=loader, submodule_search_locations=[str(package)]
                )
            module = Path(folder) / f"{last}.py"
            if module.is_file():
                file = _checked(module, root)
                loader = _SourceLoader(fullname, str(file))
                return importlib.util.spec_from_file_location(fullname, file, loader=loader)
            if package.is_dir():  # a folder without __init__.py: a namespace package
                _checked(package, root)
                spec = importlib.machinery.ModuleSpec(fullname, None, is_package=True)
                spec.submodule_search_locations = [str(package)]
                return spec
        others = sorted(
            f"{last}{suffix}"
            for folder in path
            for suffix in importlib.machinery.all_suffixes()
            if suffix != ".py" and (Path(folder) / f"{last}{suffix}").exists()
        )
        if others:
            raise ImportError(
                f"{others[0]} is not imported: an engine's modules are .py source files"
                " (no compiled or extension module is imported from a game folder)",
                name=fullname,
            )
        raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)


def _checked(candidate: Path, root: Path) -> Path:
    """`candidate`, a file or folder of an engine package about to be imported, when it lies
    inside the game folder `root` and no other user may change it (ImportError otherwise)."""
    shown = candidate.name
    if shown == "__init__.py":
        shown = f"{candidate.parent.name}/{shown}"
    if not real_path(candidate).is_relative_to(root):
        # a link the game brought to code elsewhere: the user read the game folder's
        # Python, not that
        raise ImportError(f"{shown} leaves the game folder (a link)")
    if why := others_may_change(candidate, root, as_root=False):
        raise ImportError(f"{shown} is not run: {why}")
    return candidate


_FINDER = _EngineFinder()


def _import(entry: Path, package: Path | None, root: Path | None = None) -> ModuleType:
    """Import the engine file (once per process and file); errors become diagnostics. A
    package's modules are imported only from files inside `root` (the game folder; by
    default the package's own folder)."""
    key = entry.resolve()
    stamp = key.stat().st_mtime_ns
    cached = _MODULES.get(key)
    if cached is not None and getattr(cached, "__playset_stamp__", None) == stamp:
        return cached
    # os.fsencode: a folder named in Latin-1 bytes is no UTF-8 (str.encode raised)
    name = "playset_engine_" + hashlib.blake2b(os.fsencode(key), digest_size=6).hexdigest()
    locations = [str(package.resolve())] if package is not None else None
    if locations is not None:
        assert package is not None
        _EngineFinder.packages[name] = real_path(root if root is not None else package)
        if _FINDER not in sys.meta_path:
            sys.meta_path.insert(0, _FINDER)
    spec = importlib.util.spec_from_file_location(
        name, key, loader=_SourceLoader(name, str(key)), submodule_search_locations=locations
    )
    if spec is None or spec.loader is None:
        raise EngineError(E_LOAD.at(display(entry), Span(), "cannot load this file as Python"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with refuse_exit(), engine_code():
            spec.loader.exec_module(module)
    except SourceRefused as exc:  # at the file refused, however deep it was imported
        sys.modules.pop(name, None)
        file = Path(exc.path).resolve() if exc.path else key
        raise EngineError(E_LOAD.at(display(file), Span(1, 1), str(exc))) from None
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        file = Path(exc.filename).resolve() if exc.filename else key
        span = Span(exc.lineno or 1, max(1, exc.offset or 1))
        raise EngineError(E_LOAD.at(display(file), span, f"syntax error: {exc.msg}")) from None
    except BaseException as exc:  # an import error, anything raised, sys.exit(), a loop
        sys.modules.pop(name, None)
        if is_stop(exc):
            raise
        root = package.resolve() if package is not None else key.parent
        at = own_frame(exc.__traceback__, root) or (key, 1)
        if isinstance(exc, GameTimeout):
            message = _looping("importing the engine:")
        else:
            message = f"importing the engine raised {describe(exc)}"
        raise EngineError(E_LOAD.at(display(at[0]), Span(at[1], 1), message)) from None
    module.__playset_stamp__ = stamp  # type: ignore[attr-defined]
    _MODULES[key] = module
    return module


def compile_checked(engine: Engine, game: Any) -> CompiledGame:
    """Compile the game and make one state, checking the contract's shape: a positioned
    E001/E002 when compile_game raises, returns the wrong thing, or its states lack a
    method or field the runner reads."""
    with refuse_exit():
        return _compile_checked(engine, game)


def _compile_checked(engine: Engine, game: Any) -> CompiledGame:
    try:
        with engine_code():
            compiled = engine.compile(game)
    except BaseException as exc:  # sys.exit() too: never a silent exit
        if is_stop(exc):
            raise
        raise _raised(engine, exc, "compile_game raised") from None
    make = inspect.unwrap(engine.compile)
    if not isinstance(compiled, CompiledGame):
        at = where_defined(make, engine.root) or _source_at(engine)
        message = (
            f"compile_game returned {type(compiled).__name__}, not a CompiledGame "
            f"(subclass toolkit.api.CompiledGame; see {DOCS})"
        )
        raise EngineError(E_CONTRACT.at(display(at[0]), Span(at[1], 1), message))
    missing = [
        name
        for name in ("game_id", "max_turns", "min_players", "max_players")
        if not hasattr(compiled, name)
    ]
    if missing:
        at = where_defined(type(compiled), engine.root) or _source_at(engine)
        message = f"{type(compiled).__name__} does not set {', '.join(missing)}"
        raise EngineError(E_CONTRACT.at(display(at[0]), Span(at[1], 1), message))
    limit = compiled.max_turns
    if isinstance(limit, bool) or not isinstance(limit, numbers.Integral) or limit < 1:
        # "100" was a TypeError at the first move of every game, in the runner's loop
        from toolkit.sim.wrong_results import shown

        at = where_defined(type(compiled), engine.root) or _source_at(engine)
        message = (
            f"{type(compiled).__name__}.max_turns is {shown(limit)}: it must be a whole number"
            " of moves, 1 or more (no game goes past it)"
        )
        raise EngineError(E_CONTRACT.at(display(at[0]), Span(at[1], 1), message))
    players = getattr(game.manifest.players, "min", 2) if game.manifest else 2
    try:
        with engine_code():
            state = compiled.new_state(GameSetup(players), 0)
    except BaseException as exc:
        if is_stop(exc):
            raise
        raise _raised(engine, exc, "new_state raised", E_CONTRACT) from None
    lacking = [m for m in CONTRACT_METHODS if not callable(getattr(state, m, None))]
    lacking += [f for f in STATE_FIELDS if not hasattr(state, f)]
    if lacking:
        at = where_defined(type(state), engine.root) or _source_at(engine)
        message = (
            f"{type(state).__name__} lacks {', '.join(lacking)} of the engine contract "
            f"(subclass toolkit.api.State; see {DOCS})"
        )
        raise EngineError(E_CONTRACT.at(display(at[0]), Span(at[1], 1), message))
    return compiled


def _source_at(engine: Engine) -> tuple[Path, int]:
    return (engine.source or Path("game.yaml"), 1)


def _raised(engine: Engine, exc: BaseException, what: str, rule_: Any = E_LOAD) -> EngineError:
    at = own_frame(exc.__traceback__, engine.root) or _source_at(engine)
    if isinstance(exc, GameTimeout):
        message = _looping(what.removesuffix(" raised") + ":")
    else:
        message = f"{what} {describe(exc)}"
    return EngineError(rule_.at(display(at[0]), Span(at[1], 1), message))


def setup_facts(
    compiled: CompiledGame, setup: GameSetup
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[bool, ...] | None]:
    """The game's event and card names and the cards a table so set up uses, read once
    before a run: an engine hook that raises, loops or gives the wrong types is an E002 at
    its line (it was a traceback, or a hang, before any game was played)."""
    hook: Any = type(compiled).cards_in_play
    try:
        with engine_code():
            events = _names(compiled.event_names, "event_names", MAX_EVENT_NAMES)
            cards = _names(compiled.card_names, "card_names")
            found = compiled.cards_in_play(setup)
            in_play = None if found is None else tuple(found)
    except BaseException as exc:
        if is_stop(exc):
            raise
        file, line = failure_at(compiled, hook, exc)
        if isinstance(exc, _WrongNames):
            message = str(exc)
        elif isinstance(exc, GameTimeout):
            message = _looping("cards_in_play(setup):")
        else:
            message = f"reading the game's names and cards_in_play(setup) raised {describe(exc)}"
        raise EngineError(E_CONTRACT.at(file, Span(line, 1), message)) from None
    if in_play is not None and (
        len(in_play) != len(cards) or not all(isinstance(v, bool) for v in in_play)
    ):
        file, line = failure_at(compiled, hook, None)
        message = f"cards_in_play(setup) must give one True/False per card ({len(cards)})"
        raise EngineError(E_CONTRACT.at(file, Span(line, 1), message))
    return events, cards, in_play


class _WrongNames(TypeError):
    pass


MAX_EVENT_NAMES = 1000
"""Event names an engine may declare (each is a row of every report)."""
MAX_NAME = 200
"""Characters in an engine's event, card or figure name."""


def _names(found: Any, what: str, most: int | None = None) -> tuple[str, ...]:
    if isinstance(found, str | bytes):  # "abc" was taken as three names, a, b and c
        shown = f"{found[:40]!r}"
        raise _WrongNames(f"{what} must be a list of names, not the {type(found).__name__} {shown}")
    try:
        names: tuple[Any, ...] = tuple(found)
    except TypeError:
        raise _WrongNames(f"{what} must be a list of names, not {type(found).__name__}") from None
    if most is not None and len(names) > most:
        raise _WrongNames(f"{what} holds {len(names):,} names (at most {most})")
    if not all(isinstance(name, str) for name in names):
        raise _WrongNames(f"{what} must be a list of names (str)")
    bad = next((name for name in names if not name_ok(name)), None)
    if bad is not None:
        raise _WrongNames(f"{what} holds {bad[:40]!r}: {name_problem(bad)}")
    if what == "event_names" and len(set(names)) != len(names):  # two rows of one name
        twice = next(name for i, name in enumerate(names) if name in names[:i])
        raise _WrongNames(f"{what} holds {twice[:40]!r} twice (a name counts one event)")
    return names


def name_ok(name: str) -> bool:
    """A name the report can print and write as UTF-8 JSON, of a readable length."""
    return not name_problem(name)


def name_problem(name: str) -> str:
    if len(name) > MAX_NAME:
        return f"a name of {len(name):,} characters (at most {MAX_NAME})"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "not writable as UTF-8 (a lone surrogate)"
    return ""


def failure_at(compiled: Any, fallback: Any, exc: BaseException | None) -> tuple[str, int]:
    """Where a mid-game failure points: the innermost frame in the engine's own files (the
    folder its CompiledGame class comes from), else where `fallback` (the method or bot
    at fault) is defined, else the CompiledGame class."""
    module = sys.modules.get(type(compiled).__module__)
    file = getattr(module, "__file__", None)
    root = Path(file).resolve().parent if file else None
    at = own_frame(exc.__traceback__, root) if exc is not None else None
    at = at or where_defined(fallback, root) or where_defined(type(compiled), root)
    if at is None:
        return (display(Path(file)) if file else "game.yaml", 1)
    return display(at[0]), at[1]
