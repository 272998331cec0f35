"""What playing a config's games needs, built once per run: the game loaded and compiled
once in the main process, pickled for the workers, kept by each process between batches.

`SimConfig` is the picklable description a worker receives; `run_batch` is the one task
every executor runs (toolkit.sim.executors), whatever process or machine it lands on.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolkit.diagnostics import Span
from toolkit.fileio import open_regular, real_path, walk
from toolkit.sim.bots import GENERIC_BOTS, Bot
from toolkit.sim.deadline import GameTimeout
from toolkit.sim.engine import CompiledGame, GameSetup
from toolkit.sim.engines import (
    E_LOAD,
    Engine,
    EngineError,
    compile_checked,
    declared_engine,
    describe,
    display,
    engine_code,
    engine_of,
    no_engine_message,
    own_frame,
    source_refusal,
    where_defined,
)
from toolkit.sim.runner import GameRecord, play_one
from toolkit.sim.signals import is_stop
from toolkit.sim.variants import with_rules

if TYPE_CHECKING:
    from toolkit.content.game import Game


@dataclass
class SimConfig:
    """What to simulate; picklable, so each worker rebuilds the compiled game itself."""

    game_dir: Path
    setup: GameSetup
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    games: int = 100
    batch: int = 0  # games per task; 0 picks a size that gives a few seconds of work
    rules: tuple[tuple[str, object], ...] = ()  # (dotted path in `rules`, value) overrides
    game_id: str = ""  # the game the main process loaded: a worker that reads another says so
    digest: str = ""  # what it plays (content_digest): a worker that reads other content says so

    def __post_init__(self) -> None:
        # a worker that loads the folder itself (a game's own engine does not pickle) may
        # run elsewhere (`--dask tcp://…`): `.` there was the worker's own folder, and the
        # report of whatever game it held was printed under this one's name
        self.game_dir = Path(os.path.abspath(self.game_dir))


Prepared = tuple[CompiledGame, list[Bot]]
"""A compiled game and one bot per seat: what playing a config's games needs."""

_WORKER: dict[str, Prepared] = {}  # one entry: the last config's


def compile_game(game_dir: Path, rules: tuple[tuple[str, object], ...] = ()) -> CompiledGame:
    """Load and compile a game folder (raises ValueError if it has no engine or is invalid,
    EngineError if its engine cannot be loaded), with some rules values replaced (see
    toolkit.sim.variants)."""
    from toolkit.content.game import load_game

    return compile_loaded(load_game(game_dir), rules)


def compile_loaded(game: Game, rules: tuple[tuple[str, object], ...] = ()) -> CompiledGame:
    """`compile_game` for a game already loaded (the CLI's gated game): no file read again."""
    if rules:
        game = with_rules(game, rules)
    errors = [d for d in game.diagnostics if d.severity == "error"]
    if errors:
        raise ValueError(f"{game.root}: content has {len(errors)} error(s); run playset validate")
    engine = engine_of(game) if game.manifest is not None else None
    if engine is None:
        raise ValueError(no_engine_message(game.id))
    return compile_checked(engine, game)


def make_bots(game_dir: Path, names: Sequence[str], players: int) -> list[Bot]:
    from toolkit.content.game import load_game

    return seat_bots(load_game(game_dir), names, players)


def seat_bots(game: Game, names: Sequence[str], players: int) -> list[Bot]:
    """One bot per seat, the names cycled, from the generic bots and the game engine's own."""
    engine = engine_of(game)
    table: dict[str, Callable[[int], Bot]] = {**GENERIC_BOTS, **(engine.bots if engine else {})}
    return [_bot(table[names[seat % len(names)]], seat, engine) for seat in range(players)]


def _bot(make: Callable[[int], Bot], seat: int, engine: Engine | None) -> Bot:
    """make(seat), the engine's own bot maker included: what it raises (or a loop) is an
    E001 at its line, not a traceback."""
    try:
        with engine_code():
            return make(seat)
    except BaseException as exc:
        if is_stop(exc) or engine is None:
            raise
        at = own_frame(exc.__traceback__, engine.root) or where_defined(make, engine.root)
        at = at or (engine.source or Path("game.yaml"), 1)
        if isinstance(exc, GameTimeout):
            message = f"BOTS: making the bot of seat {seat} ran past the time bound (a loop?)"
        else:
            message = f"BOTS: making the bot of seat {seat} raised {describe(exc)}"
        raise EngineError(E_LOAD.at(display(at[0]), Span(at[1], 1), message)) from None


def _key(config: SimConfig, shipped: bytes | None = None) -> str:
    """What a process's kept game is known by: the config, and the shipped game's digest
    (a long-lived worker, as Dask's, then never plays an edited game's stale copy)."""
    digest = hashlib.blake2b(shipped, digest_size=16).hexdigest() if shipped else ""
    return f"{config.game_dir}|{config.bots}|{config.setup}|{config.rules}|{config.digest}|{digest}"


def prepare(
    config: SimConfig, game: Game | None = None, compiled: CompiledGame | None = None
) -> tuple[Prepared, bytes | None]:
    """Compile `config`'s game once (from the loaded `game`, else its folder read once) and
    keep it for this process's batches; also return it pickled for the workers of a pool or
    a cluster (None if the engine's objects do not pickle: each worker then loads and
    compiles the game itself). `compiled`: the game already compiled with `config.rules`
    (a sweep's points that differ only in options share it)."""
    if game is None:
        from toolkit.content.game import load_game

        game = load_game(config.game_dir)
    bots = seat_bots(game, config.bots, config.setup.players)
    prepared = (compiled or compile_loaded(game, config.rules), bots)
    try:
        shipped: bytes | None = pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        shipped = None
    forget()
    _WORKER[_key(config, shipped)] = prepared
    return prepared, shipped


def forget() -> None:
    """Drop this process's kept game (a fresh worker keeps nothing)."""
    _WORKER.clear()


def _prepared(config: SimConfig, shipped: bytes | None = None) -> Prepared:
    """This process's compiled game and bots for `config`: kept from an earlier batch,
    unpickled from what the main process shipped, else loaded and compiled here."""
    key = _key(config, shipped)
    if key not in _WORKER:
        forget()
        kept = _unpickled(shipped)
        if kept is None:
            kept = _loaded_here(config)
        _WORKER[key] = kept
    return _WORKER[key]


def _loaded_here(config: SimConfig) -> Prepared:
    """The game loaded and compiled in this process, from the folder the main process named:
    a worker of a remote cluster that has no such folder, or another game there, is one
    finding, not another game's report or a traceback."""
    from toolkit.content.game import load_game

    game = load_game(config.game_dir)
    where = display(config.game_dir / "game.yaml")
    if config.game_id and game.id != config.game_id:
        found = f"the game {game.id!r}" if game.manifest is not None else "no game"
        raise EngineError(
            E_LOAD.at(
                where,
                Span(),
                f"a worker read {found} at {config.game_dir}, not {config.game_id!r}: start"
                " the Dask workers where the game's folder is at the same path",
            )
        )
    valid = game.manifest is not None and not any(d.severity == "error" for d in game.diagnostics)
    if config.digest and valid and content_digest(game) != config.digest:
        raise EngineError(
            E_LOAD.at(
                where,
                Span(),
                f"the game's files at {config.game_dir} changed since the run started (a "
                "worker read other content or engine code than the game that was validated):"
                " the workers would play another game; run again",
            )
        )
    try:
        compiled = compile_loaded(game, config.rules)
    except ValueError as exc:
        raise EngineError(
            E_LOAD.at(where, Span(), f"a worker could not load the game: {exc}")
        ) from None
    return compiled, seat_bots(game, config.bots, config.setup.players)


CHUNK_BYTES = 1024 * 1024
"""Bytes of a source file hashed at a time (`content_digest`): never a whole file in memory."""
MAX_DIGEST_BYTES = 256 * 1024 * 1024
"""Bytes of the Python files outside the engine that `content_digest` reads, together; past
it (or for one that is sparse or over engines.MAX_SOURCE_BYTES) a file counts by its size
only: no engine imports them (a `venv/` kept in the game folder), and a 3 GB sparse
notes/scratch.py was read whole (59 s, 3.2 GB with `--workers 2`)."""


def content_digest(game: Game) -> str:
    """A digest of what a run of `game` plays: its content as an engine sees it, and the
    Python sources in its folder (a folder engine's modules). The main process takes it of
    the game it validated; a worker that loads the folder itself compares (a save during a
    `--dask` run made the workers play the edited game under the first one's report).

    Every file is read in chunks, from inside the game folder only: a link counts as its
    text (and, leading to a file inside the game, that file's bytes), never what it names
    outside. The engine's own sources (its file, or every .py of its package folder) are
    hashed whole, and one that is sparse or over engines.MAX_SOURCE_BYTES is an EngineError
    at that file, as importing it would be; any other .py as long as `MAX_DIGEST_BYTES`
    lasts, else by its size."""
    from toolkit.sim.content_view import content_view

    digest = hashlib.blake2b(digest_size=16)
    try:
        digest.update(repr(content_view(game)).encode("utf-8", "surrogateescape"))
    except Exception as exc:  # noqa: BLE001 - content an engine could not be given
        digest.update(f"no content: {type(exc).__name__}".encode())
    root = os.path.abspath(game.root)
    engine = _engine_scope(game)
    room = [MAX_DIGEST_BYTES]  # what the files outside the engine may still read
    for folder, subfolders, files in walk(root):
        subfolders[:] = sorted(
            d
            for d in subfolders
            if not d.startswith(".")
            and d != "__pycache__"
            and not (folder == root and d == "output")
        )
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                own = engine is not None and Path(rel).is_relative_to(engine)
                digest.update(os.fsencode(rel) + b"\0")
                digest.update(_source_digest(path, root, own, room) + b"\0")
    return digest.hexdigest()


def _engine_scope(game: Game) -> Path | None:
    """The engine's sources, relative to the game folder: its file, or its package folder
    (every module it may import); None without a folder engine."""
    from toolkit.content.game import _inside

    rel = declared_engine(game)
    target = _inside(Path(game.root), rel) if rel is not None else None
    if target is None:
        return None
    return target.relative_to(real_path(Path(game.root)))


def _source_digest(path: str, root: str, own: bool, room: list[int]) -> bytes:
    """What stands for one .py file in `content_digest`: a digest of its bytes (read in
    chunks), a link's text (and its file's bytes, when that lies inside the game folder
    `root`), its kind or error; `own`: a source of the engine; `room`: the bytes the other
    files may still read (decreased)."""
    try:
        if os.path.islink(path):
            text = os.fsencode(os.readlink(path))
            target = real_path(Path(path))
            if not target.is_relative_to(real_path(Path(root))):
                return b"link " + text  # what it names outside the game is not read
            if os.path.islink(target):  # a loop: the path itself comes back (still a link)
                return b"link loop " + text
            return b"link " + text + b"\0" + _source_digest(str(target), root, own, room)
        with open_regular(Path(path), inside=Path(root)) as (fd, info):
            why = source_refusal(fd, info)
            if why is not None:
                if own:
                    shown = display(Path(path))
                    raise EngineError(E_LOAD.at(shown, Span(1, 1), why))
                return f"unread {info.st_size}".encode()
            if not own:
                if info.st_size > room[0]:
                    return f"unread {info.st_size}".encode()
                room[0] -= info.st_size
            return _hashed(fd, info.st_size)
    except OSError as exc:
        return f"error {exc.errno}".encode()


def _hashed(fd: int, size: int) -> bytes:
    """A digest of the file open as `fd`, read in chunks, no further than `size` + 1 bytes."""
    digest = hashlib.blake2b(digest_size=16)
    left = size + 1
    while left > 0:
        chunk = os.read(fd, min(CHUNK_BYTES, left))
        if not chunk:
            break
        digest.update(chunk)
        left -= len(chunk)
    return digest.digest()


def _unpickled(shipped: bytes | None) -> Prepared | None:
    """The shipped game, or None when this process cannot rebuild it (a game folder's own
    engine module, imported by name in the main process only, on a spawned or remote
    worker): the worker then loads the folder itself."""
    if shipped is None:
        return None
    try:
        found: Prepared = pickle.loads(shipped)
    except Exception:  # ModuleNotFoundError, AttributeError…: whatever unpickling raises
        return None
    return found


def run_batch(
    config: SimConfig, indices: Sequence[int], shipped: bytes | None = None
) -> list[GameRecord]:
    """The task every executor runs: games `indices` of `config`, in order."""
    compiled, bots = _prepared(config, shipped)
    return [play_one(compiled, config.setup, bots, i, config.seed) for i in indices]
