"""Where a game's card layouts and icons come from: its own folder first, then the toolkit's.

The one lookup every layout and icon name goes through (build, validate, the checks and the
preview), so that a designer's `layouts/` and `icons/` reach everything a built-in does and a
game file of the same name shadows the built-in one.

A game's file is read only if it resolves inside the game folder, as decks and rulebooks
are: a `layouts/x.yaml` or `icons/x.svg` symlinked outside, or a `layouts/` or `icons/`
folder that is itself a link outside, is found but marked `outside` and never opened, and
its reader reports it (the built-ins under the toolkit's own `templates/` are trusted).
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from toolkit.content.game import display_path, repo_root
from toolkit.fileio import real_path

T = TypeVar("T")


@dataclass(frozen=True)
class Kind:
    """One kind of asset: the folder a game keeps it in, its file suffix, and the toolkit's
    own folder of built-ins (None when the built-ins are code, as icons are)."""

    folder: str
    suffix: str
    builtin: tuple[str, ...] | None
    most: int | None = None  # files of the kind a game may hold, if fewer than MAX_FILES
    most_bytes: int | None = None  # bytes those files may hold together (None: no bound)


MAX_LAYOUT_FILES = 100
"""Layout files a game may hold (the bundled games hold 1 to 9). A layout costs ~5 ms a
validate (parsed, its templates compiled, its glyphs and languages checked, each face fitted
through it): 990 decks each printing with its own layout took 8 s (probe 44 L1)."""

MAX_LAYOUT_BYTES = 512 * 1024
"""Bytes a game's layout files may hold together (the bundled games' hold 1 to 18 kB, a
layout at most 4 kB: 100 such fit). A layout element costs ~0.7 ms a validate however few
cards print with it (parsed, validated, its fonts checked, fitted): 20 layouts of 1,500 text
elements (3.4 MB) took 20 s, 20 of 15,000 boxes 48 s and 2 GB (probe 45 L2); 512 kB hold
~4,600 text elements."""

LAYOUTS = Kind(
    "layouts", ".yaml", ("templates", "cards"), most=MAX_LAYOUT_FILES, most_bytes=MAX_LAYOUT_BYTES
)
ICONS = Kind("icons", ".svg", None)


@dataclass(frozen=True)
class Found:
    """A game file of one kind found where the game or the toolkit keeps such files."""

    path: Path
    display: str  # as diagnostics show it
    in_game: bool
    outside: str = ""
    """Why the game's file must not be read (it or its folder links outside the game
    folder), as a diagnostic says it; empty for a file that may be read."""
    unread: str = ""
    """Why the game's file is not read although it may be: it comes after the first files
    of its kind by name in a folder that holds more than the game may (`most_files`)."""


def _folders(kind: Kind, game_root: Path | None) -> list[tuple[Path, bool]]:
    folders = [(game_root / kind.folder, True)] if game_root is not None else []
    if kind.builtin is not None:
        folders.append((repo_root().joinpath(*kind.builtin), False))
    return folders


def _display(kind: Kind, path: Path, in_game: bool) -> str:
    if in_game:
        return display_path(path)
    assert kind.builtin is not None
    return "/".join((*kind.builtin, path.name))


def _leaves(path: Path, game_root: Path, real_root: Path | None = None) -> bool:
    """Whether `path` resolves outside the game folder. `real_root` is the game folder's real
    path when the caller has it: then a path that is no link, directly in the game folder or
    in one of its kinds' folders, resolves as its folder's real path and its name (what
    os.path.realpath gives, without resolving every folder above it again)."""
    if real_root is None:
        return not real_path(path).is_relative_to(real_path(game_root))
    return not _real(path, game_root, real_root).is_relative_to(real_root)


def _real(path: Path, game_root: Path, real_root: Path) -> Path:
    """`real_path(path)` for a path within two levels of `game_root` (real path
    `real_root`): each level that is no link adds its name to its folder's real path."""
    if path == game_root:
        return real_root
    near = path.parent == game_root or path.parent.parent == game_root
    if near and not path.is_symlink():
        return _real(path.parent, game_root, real_root) / path.name
    return real_path(path)


def folder_outside(kind: Kind, game_root: Path | None, real_root: Path | None = None) -> str:
    """Why the game's folder of that kind is refused as a whole ('' if it is not): a link
    (or a path through one) that leads outside the game folder (`real_root`: as `_leaves`)."""
    if game_root is None:
        return ""
    folder = game_root / kind.folder
    if not (folder.is_dir() or folder.is_symlink()) or not _leaves(folder, game_root, real_root):
        return ""
    return f"the {kind.folder}/ folder links outside the game folder, so it is not read"


def _outside(kind: Kind, path: Path, game_root: Path, real_root: Path | None = None) -> str:
    """Why a game file is refused ('' if it may be read; `real_root`: as `_leaves`)."""
    refused = folder_outside(kind, game_root, real_root)
    if refused:
        return refused
    if (path.is_symlink() or path.exists()) and _leaves(path, game_root, real_root):
        return f"{kind.folder}/{path.name} links outside the game folder, so it is not read"
    return ""


_STEADY: ContextVar[dict[Any, Any] | None] = ContextVar("steady_assets", default=None)


@contextmanager
def steady() -> Iterator[None]:
    """While the block runs (one run of the checks), each name is looked up once: the checks
    ask for a layout at every face of every card (~200 lookups of a dozen names, each
    several stats and a real path, ~20 ms of a validate after one card edit). The files are
    taken as they are when first asked, as the run reads them; the next block asks afresh
    (the preview and the language server check again after a save)."""
    token = _STEADY.set({})
    try:
        yield
    finally:
        _STEADY.reset(token)


def steady_memo() -> dict[Any, Any] | None:
    """The memo of the `steady` block running in this context, or None."""
    return _STEADY.get()


def find(kind: Kind, name: str, game_root: Path | None = None) -> Found | None:
    """The file for `name`: the game folder's if it has one, else the toolkit's; None if
    neither has it. A game file (or folder) that leads outside is found, marked `outside`:
    it shadows the built-in of that name, so the refusal is reported, never bypassed."""
    return _steadily(("find", kind, name, game_root), lambda: _find(kind, name, game_root))


def _find(kind: Kind, name: str, game_root: Path | None) -> Found | None:
    # the game folder resolved once, not at each test (a layout is looked up at every face)
    real_root = real_path(game_root) if game_root is not None else None
    for folder, in_game in _folders(kind, game_root):
        path = folder / f"{name}{kind.suffix}"
        if in_game and game_root is not None:
            refused = _outside(kind, path, game_root, real_root)
            if refused:
                return Found(path, _display(kind, path, in_game), in_game, refused)
        # the game's own of that name shadows the built-in even when it cannot be read (a
        # FIFO, a folder, a dangling link): its reader says why, nothing falls back silently
        if path.is_file() or (in_game and (path.exists() or path.is_symlink())):
            unread = _past_the_first(kind, path, game_root) if in_game else ""
            return Found(path, _display(kind, path, in_game), in_game, unread=unread)
    return None


def _past_the_first(kind: Kind, path: Path, game_root: Path | None) -> str:
    """Why the game's file `path` is not read ('' if it is): its folder holds more files
    of the kind than the game may, and it is not among the first by name. A deck naming it
    found it anyway, so 990 decks each naming its own layout read all 990 (probe 44 L1)."""
    if _STEADY.get() is None and not _may_be_too_full(kind, path.parent):
        return ""  # the usual case outside a `steady` block: one listing, no name looked at
    kept, more = _files(kind, game_root)
    if not more or path in kept:
        return ""
    return f"{kind.folder}/{path.name} is not read: {_overflow(kind, more)}"


def _overflow(kind: Kind, more: str) -> str:
    """Why a file is not read in a folder that holds more than the game may (`_files`'s
    `more`)."""
    holds, first = _holds(kind, more)
    return f"{holds}, and it is not among {first}"


def _holds(kind: Kind, more: str) -> tuple[str, str]:
    """What a folder that holds more than the game may (`_files`'s `more`) holds, and
    which of its files are read."""
    noun = kind.folder.rstrip("s")
    if more == "bytes":
        return (
            f"the {kind.folder}/ folder's {noun} files hold more than"
            f" {kind.most_bytes or 0:,} bytes together",
            "the first by name that fit",
        )
    most = most_files(kind)
    return f"the {kind.folder}/ folder holds more than {most:,} {noun} files", (
        f"the first {most:,} by name"
    )


def expected(kind: Kind, name: str, game_root: Path | None = None) -> Found:
    """Where `name` would be read from: the file found, else the toolkit's (or the game's)
    path, so that a missing file is reported at a path the designer recognises."""
    found = find(kind, name, game_root)
    if found is not None:
        return found
    folder, in_game = _folders(kind, game_root)[-1]
    path = folder / f"{name}{kind.suffix}"
    return Found(path, _display(kind, path, in_game), in_game)


def in_game(kind: Kind, game_root: Path | None) -> list[Found]:
    """Every file of that kind the game folder holds, by name, those that may be read
    (see `refused` for the others)."""
    return [found for found in _listed(kind, game_root) if not found.outside]


def refused(kind: Kind, game_root: Path | None) -> list[Found]:
    """The game's files of that kind that lead outside the game folder, or the folder
    itself (one entry) when it does: what `in_game` leaves out, for a diagnostic."""
    if game_root is not None and folder_outside(kind, game_root):
        folder = game_root / kind.folder
        return [Found(folder, display_path(folder), True, folder_outside(kind, game_root))]
    return [found for found in _listed(kind, game_root) if found.outside]


MAX_FILES = 1_000
"""Files of one kind a game's `layouts/` or `icons/` lists (the first by name; the bundled
games hold under 20): each one listed is read and checked, used or not, at every validate,
preview save and editor pause (5,000 tiny layouts took 42 s). Past it the folder is one
finding (`too_full`) and the files after the first MAX_FILES are not read, not even a layout
a deck names (`Found.unread`). Layouts have a lower bound of their own (MAX_LAYOUT_FILES)."""


def _may_be_too_full(kind: Kind, folder: Path) -> bool:
    """Whether `folder` lists more names of the kind than a game may hold (a cheap bound
    on `_files`'s answer: no name is looked at)."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(kind.suffix)]
    except OSError:
        return False
    if len(names) > most_files(kind):
        return True
    return kind.most_bytes is not None and sum(map(_size, names, [folder] * len(names))) > (
        kind.most_bytes
    )


def _size(name: str, folder: Path) -> int:
    """The bytes of the file `name` in `folder` (0: none that can be looked at)."""
    try:
        return os.stat(folder / name).st_size
    except (OSError, ValueError):
        return 0


def most_files(kind: Kind) -> int:
    """Files of that kind a game's folder may hold: the first by name are read."""
    return min(MAX_FILES, kind.most) if kind.most is not None else MAX_FILES


def too_full(kind: Kind, game_root: Path | None) -> str:
    """Why the game's folder of that kind is listed only in part ('' if it is not): it
    holds more than `most_files` files of that kind."""
    more = _files(kind, game_root)[1]
    if not more:
        return ""
    holds, first = _holds(kind, more)
    keep = (
        f"keep only the {kind.folder} the game prints with, and keep them small"
        if more == "bytes"
        else f"keep the {kind.folder} the game prints with"
    )
    return f"{holds}; those after {first} are not read: {keep}"


def _listed(kind: Kind, game_root: Path | None) -> list[Found]:
    if game_root is None:
        return []
    return _steadily(("listed", kind, game_root), lambda: _list(kind, game_root))


def _list(kind: Kind, game_root: Path) -> list[Found]:
    real_root = real_path(game_root)  # resolved once, not at each file
    files = _files(kind, game_root)[0]
    return [Found(p, display_path(p), True, _outside(kind, p, game_root, real_root)) for p in files]


def _files(kind: Kind, game_root: Path | None) -> tuple[list[Path], str]:
    """The first `most_files` files of that kind in the game's folder by name (as many as
    fit in `most_bytes`), and whether there are more: '', 'files' or 'bytes' (what the
    first past them passed); listed once in a `steady` block (a validate asks 7 times)."""
    return _steadily(("files", kind, game_root), lambda: _first_files(kind, game_root))


def _steadily(key: Any, work: Callable[[], T]) -> T:
    """`work()`, done once in the running `steady` block (every time outside one)."""
    memo = _STEADY.get()
    if memo is None:
        return work()
    if key not in memo:
        memo[key] = work()
    done: T = memo[key]
    return done


def _first_files(kind: Kind, game_root: Path | None) -> tuple[list[Path], str]:
    """`_files`, worked out: the folder's names are read as strings and heaped (linear),
    then taken in order only as far as the files kept need; only those are looked at. A
    folder of 300,000 names was sorted whole as paths, 7 times a validate (20 s)."""
    if game_root is None or folder_outside(kind, game_root):
        return [], ""
    folder = game_root / kind.folder
    if not folder.is_dir():
        return [], ""
    suffix = kind.suffix  # as Path.suffix matches it: a name longer than the suffix
    most, room = most_files(kind), kind.most_bytes
    names = [n for n in os.listdir(folder) if n.endswith(suffix) and len(n) > len(suffix)]
    heapq.heapify(names)
    files: list[Path] = []
    while names:
        path = folder / heapq.heappop(names)
        # a FIFO or a device by that name is listed too: its reader says what it is (a use
        # of it said "no icon" although the name was there); a folder is no file of the kind
        if (path.exists() and not path.is_dir()) or _leaves(path, game_root):
            if len(files) == most:
                return files, "files"
            if room is not None:
                room -= 0 if _leaves(path, game_root) else _size(path.name, folder)
                if room < 0:
                    return files, "bytes"
            files.append(path)
    return files, ""
