"""Where games are: the repository's bundled games, a GAME argument, the game folder around
the current directory, and how a path is shown in diagnostics.

Kept apart from the game loader (and free of pydantic and ruamel) so that a command that
only needs to find games, such as a `validate` answered from its cache, starts quickly.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from toolkit.fileio import TOOL_FOLDERS as TOOL_FOLDERS
from toolkit.home import repo_root

MANIFEST = "game.yaml"


def bundled_games() -> dict[str, Path]:
    """Bundled game ids and their folders, sorted."""
    root = repo_root() / "content"
    if not root.is_dir():
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if (p / MANIFEST).is_file()}


def game_folder_around(start: Path) -> Path | None:
    """The game folder `start` is in: the nearest folder upwards holding a game.yaml (as ruff
    finds its configuration), or None.

    Above `start`, a game.yaml another user owns in a folder anyone may write to (/tmp) is
    passed over: anyone could have put it there, and `playset simulate` run in /tmp/mine
    would have imported the engine.py beside a planted /tmp/game.yaml (as git ignores a
    repository another user owns)."""
    here = start.resolve()
    for folder in (here, *here.parents):
        try:
            found = (folder / MANIFEST).is_file()
        except OSError:  # a path too long to name (`path_too_long` says so)
            continue
        if found and (folder == here or not planted(folder)):
            return folder
    return None


PATH_MAX = 4096
"""The longest path Linux (and macOS, at 1,024) gives a name to: past it, every system call
on the path fails with ENAMETOOLONG."""
PATH_ROOM = 256
"""Bytes a game folder's path leaves below it for its files (`decks/<id>.yaml`) and what
commands write beside them (`output/<game>/<lang>/png/<deck>/<card>-front.png`)."""


def path_too_long(folder: Path, what: str) -> str | None:
    """Why the game folder `folder` (`what`: how to name it) cannot be used, when its path
    leaves its files no room under PATH_MAX; else None. Without this, a command run inside
    such a folder ended in a traceback, and a game named by a short relative path was
    refused with findings saying its own files "lead outside the game folder"."""
    length = len(os.fsencode(os.path.abspath(folder)))
    if length + PATH_ROOM <= PATH_MAX:
        return None
    return (
        f"the path of {what} is {length:,} bytes long: the system names no file by a path"
        f" longer than {PATH_MAX:,} bytes, and the game's files need room below it; move"
        " the game to a folder with a shorter path"
    )


def planted(folder: Path) -> bool:
    """Whether anyone may write to `folder` and its game.yaml is another user's: the entry
    itself (a link another user made to a game.yaml of ours counts: following it, as
    `os.stat` did, saw us as its owner, and `simulate` in /tmp/mine ran the planter's
    /tmp/engine.py beside a /tmp/game.yaml -> mine/mygame/game.yaml), what it leads to, or
    a second name of one of ours (a hard link: another user may make one where the kernel
    allows it)."""
    try:
        if not os.stat(folder).st_mode & 0o002:
            return False
        entry, target = os.lstat(folder / MANIFEST), os.stat(folder / MANIFEST)
    except OSError:
        return True
    user = os.geteuid()
    return entry.st_uid != user or target.st_uid != user or target.st_nlink > 1


def others_may_change(path: Path, up_to: Path | None = None, *, as_root: bool = True) -> str | None:
    """Why another user could change `path` (a file or folder), or None: it, or a folder
    from its own up to `up_to` (real paths), belongs to another user than us or root, or
    others may write to it. Code Playset runs, and a folder it makes a game in, must be
    none of those (as ssh's StrictModes and git's safe.directory rule): another user who
    may replace an `engine.py` runs their code in our account at the next `simulate`.

    `as_root=False`: when we are root, whose files they are is not asked (only whether
    anyone may write): root runs the games of the users it works for (a container working
    on the host user's files) as `sudo make` runs their Makefile."""
    user = os.geteuid()
    owners = user != 0 or as_root
    try:
        here = Path(os.path.realpath(path))
        top = Path(os.path.realpath(up_to)) if up_to is not None else here
        chain = [here, *(p for p in here.parents if p.is_relative_to(top))]
        for step in chain:
            info = os.stat(step)
            if owners and info.st_uid not in (user, 0):
                return f"{step} belongs to another user (uid {info.st_uid})"
            if info.st_mode & 0o002:
                return f"others may write to {step}"
    except OSError as exc:
        return f"{path} cannot be looked at ({exc.strerror})"
    return None


class GameNotFound(Exception):
    """GAME is neither a bundled id nor a folder holding game.yaml (a usage error)."""


def resolve_game(arg: str) -> Path:
    """Turn a CLI GAME argument (bundled id or folder path) into a game folder."""
    games = bundled_games()
    if arg in games:
        return games[arg]
    path = Path(arg)
    try:
        if path.is_file() and path.name == MANIFEST:
            path = path.parent
        if arg and path.is_dir():
            return path
    except OSError:  # a name too long for the file system, a folder we may not search
        pass
    known = ", ".join(games) or "none"
    raise GameNotFound(f"no bundled game or folder {arg!r} (bundled: {known})")


def display_path(path: Path) -> str:
    """How a path is shown in diagnostics: relative to the working directory when it lies
    inside it, else absolute (an installed game is not shown as ../../usr/lib/…)."""
    try:
        relative = os.path.relpath(path, Path.cwd())
    except ValueError:
        return str(path)
    if relative == ".." or relative.startswith(".." + os.sep):
        return str(Path(path).absolute())
    return relative


def modeline_schema_exists(
    file: str | Path,
    target: str,
    game_root: str | Path,
    real: Callable[[str], str] | None = None,
) -> bool | None:
    """Whether the schema an editor modeline in `file` names is a file (R009); None when it
    is not looked at: a target outside both the game folder and the toolkit's own schemas,
    where a finding would tell whoever runs `validate` whether a path of theirs exists (a
    game folder may come from someone else). `real`: `os.path.realpath` (None), or one pass's
    `real_paths()` (a game's files name the same few schemas from the same few folders)."""
    resolve = real or os.path.realpath
    where = resolve(os.path.join(os.path.dirname(file), target))
    for root in (os.fspath(game_root), os.fspath(repo_root() / "schemas")):
        base = resolve(root)
        if where == base or where.startswith(base.rstrip(os.sep) + os.sep):
            return os.path.isfile(where)
    return None


def real_paths() -> Callable[[str], str]:
    """`os.path.realpath` with each path resolved once, for one pass over a game's files (a
    walk of the findings cache, R009's check), and not kept past it. A resolution costs a
    `lstat` of each part of the path, and a game's files name the same few schemas from the
    same few folders: the passes of one `validate` after a card edit of a bundled game
    asked for ~870 of them, nearly all repeats."""
    known: dict[str, str] = {}

    def real(path: str) -> str:
        found = known.get(path)
        if found is None:
            found = known[path] = os.path.realpath(path)
        return found

    return real
