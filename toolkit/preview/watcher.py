"""Watch a game folder and the layouts for saved files (watchfiles, in its own thread).

Only files the preview reads are reported: YAML content and layouts, sheet decks (CSV, XLSX,
ODS), Markdown rulebooks, icons, pictures and fonts. Editor droppings (swap files, `~`
backups, an office program's `.~lock` files), tool folders (.git, .venv) and `output/` are ignored.

Each folder is watched on its own, as a walk that follows no link finds it: watchfiles'
recursive watch follows links, so a game holding a link to `/usr` had all 15,000 of its
folders watched (inotify watches are a per-user budget editors share), and one to `/` ended
the watcher in a PermissionError. A folder made while the preview runs is watched from then.
No more than MAX_WATCHED folders are watched, the game's own first, and a warning says so
once: 100,000 empty folders in a game took 100,109 of the user's 192,543 watches.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

from toolkit.fileio import walk

WATCHED_SUFFIXES = (
    *(".yaml", ".yml", ".md", ".csv", ".xlsx", ".ods"),  # content, layouts, sheet decks
    *(".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp"),  # icons and pictures (pictures.FORMATS)
    *(".ttf", ".otf"),  # the game's fonts (game_fonts.SUFFIXES)
)
"""What the preview reads: a replaced JPEG, GIF or WebP picture or font left the page showing
the old one until another file was saved (probe 44)."""


class ContentFilter(DefaultFilter):
    """watchfiles' default filter, narrowed to the files a game is made of (and never what
    `build` or `export` write into `output/`)."""

    ignore_dirs = (*DefaultFilter.ignore_dirs, "output")

    def __call__(self, change: Change, path: str) -> bool:
        wanted = path.lower().endswith(WATCHED_SUFFIXES) or _new_folder(change, path)
        return wanted and super().__call__(change, path)


def _new_folder(change: Change, path: str) -> bool:
    return change == Change.added and os.path.isdir(path) and not os.path.islink(path)


MAX_WATCHED = 2_000
"""Folders the preview watches: each takes one inotify watch of a per-user budget (often
8,192, at most some 500,000) the user's editors and other previews share; a game of 100,000
empty folders took 100,109 of them. The bundled games have under 20 folders."""
MAX_WALKED = 20_000
"""Folders a walk looks at to choose them (each one listed; the walk is made again whenever
a folder is made while the preview runs)."""
GAME_FOLDERS = ("decks", "boards", "questions", "layouts", "icons", "fonts", "rulebook")
"""Folders of a game folder (`playset new`'s and the bundled games') that hold what the
preview reads: watched first, even when empty, as the game folder itself is."""


def walk_all(roots: Iterable[Path]) -> Iterable[tuple[str, list[str], list[str]]]:
    """fileio.walk of each root, following no link, tool and output folders left out; a
    root's own GAME_FOLDERS first; no more than MAX_WALKED folders of each root."""
    skipped = set(ContentFilter.ignore_dirs)
    for root in roots:
        for walked, (folder, dirs, files) in enumerate(walk(root)):
            if walked == MAX_WALKED:
                break
            top = Path(folder) == Path(root)
            dirs[:] = sorted(
                (
                    d
                    for d in dirs
                    if d not in skipped and not os.path.islink(os.path.join(folder, d))
                ),
                key=lambda d: (not (top and d in GAME_FOLDERS), d),
            )
            yield folder, dirs, files


def watched_folders(roots: Iterable[Path]) -> list[Path]:
    """The folders under `roots` the preview watches (see `chosen_folders`)."""
    return chosen_folders(roots)[0]


def chosen_folders(roots: Iterable[Path]) -> tuple[list[Path], bool]:
    """The folders under `roots` the preview watches, and whether some were left out: found
    by a walk that follows no link (nor goes deeper than fileio.MAX_DEPTH), tool and output
    folders left out. Those that can hold what the game reads come first (each root, its
    GAME_FOLDERS, a folder holding a file of WATCHED_SUFFIXES), then the others (a folder
    made to hold files later), no more than MAX_WATCHED in all."""
    wanted: list[Path] = []
    others: list[Path] = []
    roots = list(roots)
    for folder, _, files in walk_all(roots):
        path = Path(folder)
        read = path in roots or (path.parent in roots and path.name in GAME_FOLDERS)
        read = read or any(name.lower().endswith(WATCHED_SUFFIXES) for name in files)
        (wanted if read else others).append(path)
    folders = [*wanted, *others]
    more = len(folders) > MAX_WATCHED or len(folders) >= MAX_WALKED  # a walk was cut short
    return folders[:MAX_WATCHED], more


def watch_roots(game_root: Path, extra: Iterable[Path]) -> list[Path]:
    """The game folder, and each extra folder that exists and is not inside it."""
    roots = [game_root.resolve()]
    for folder in extra:
        folder = folder.resolve()
        if folder.is_dir() and not any(folder.is_relative_to(r) for r in roots):
            roots.append(folder)
    return roots


def _utf8(path: Path) -> bool:
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _to_stderr(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr, flush=True)


class Watcher:
    """Calls `on_change(paths)` from its thread for each burst of saves, until `stop`."""

    def __init__(
        self,
        roots: list[Path],
        on_change: Callable[[set[Path]], None],
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.roots = roots
        self._on_change = on_change
        self._warn = warn or _to_stderr
        self._warned = False
        self._warned_more = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="preview-watcher", daemon=True)
        self.ready = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def _folders(self) -> list[Path]:
        """The folders to watch: those watchfiles can name (it takes a folder's path as UTF-8
        text, and one named in other bytes, Latin-1 say, ended the watcher thread in a
        UnicodeEncodeError); the others are said once, and left unwatched."""
        folders: list[Path] = []
        unnamed: list[Path] = []
        chosen, left_out = chosen_folders(self.roots)
        if left_out and not self._warned_more:
            self._warned_more = True
            self._warn(
                f"the game holds more than {MAX_WATCHED:,} folders: {MAX_WATCHED:,} are watched"
                " (those holding its files first), and what is saved in the others is not"
                " seen; remove the folders the game does not use"
            )
        for folder in chosen:
            (folders if _utf8(folder) else unnamed).append(folder)
        if unnamed and not self._warned:
            self._warned = True
            shown = os.fsencode(unnamed[0]).decode("utf-8", "backslashreplace")
            if not _utf8(self.roots[0]):
                self._warn(
                    f"the game folder {shown} is not named in UTF-8: saved files are not seen"
                    " (rename it, or restart the preview after a change)"
                )
            else:
                more = f" and {len(unnamed) - 1} more" if len(unnamed) > 1 else ""
                self._warn(
                    f"folder {shown}{more} is not named in UTF-8: what is saved in it is not"
                    " seen (rename it)"
                )
        return folders

    def _run(self) -> None:
        while not self._stop.is_set():
            folders = self._folders()
            if not folders:  # nothing watchfiles can watch: served as it is until stopped
                self.ready.set()
                self._stop.wait()
                return
            changes = watch(
                *folders,
                watch_filter=ContentFilter(),
                stop_event=self._stop,
                debounce=400,  # a burst of saves (an editor writing, then renaming) is one
                step=20,  # ms without further events before a burst is reported
                yield_on_timeout=True,
                rust_timeout=200,
                raise_interrupt=False,
                recursive=False,  # each folder on its own: a recursive watch follows links
                ignore_permission_denied=True,
            )
            made: list[Path] = []
            for batch in changes:
                self.ready.set()
                made = [Path(path) for change, path in batch if _new_folder(change, path)]
                files = {Path(path) for _, path in batch} - set(made)
                if files:
                    self._on_change(files)
                if made:  # a folder was made: watch it too, from now
                    changes.close()
                    break
            # what was saved in a new folder before it was watched counts as a change
            saved = {
                Path(folder, name)
                for folder, _, names in walk_all(made)
                for name in names
                if name.lower().endswith(WATCHED_SUFFIXES)
            }
            if saved:
                self._on_change(saved)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout=timeout)  # watchfiles looks at its stop event every 200 ms
