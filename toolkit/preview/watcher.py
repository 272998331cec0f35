"""Watch a game folder and the layouts for saved files (watchfiles, in its own thread).

Only files the preview reads are reported: YAML content and layouts, sheet decks (CSV, XLSX,
ODS), Markdown rulebooks and icon files. Editor droppings (swap files, `~` backups, an office
program's `.~lock` files), tool folders (.git, .venv) and `output/` are ignored.

Each folder is watched on its own, as a walk that follows no link finds it: watchfiles'
recursive watch follows links, so a game holding a link to `/usr` had all 15,000 of its
folders watched (inotify watches are a per-user budget editors share), and one to `/` ended
the watcher in a PermissionError. A folder made while the preview runs is watched from then.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

from toolkit.fileio import walk

WATCHED_SUFFIXES = (".yaml", ".yml", ".md", ".svg", ".png", ".csv", ".xlsx", ".ods")


class ContentFilter(DefaultFilter):
    """watchfiles' default filter, narrowed to the files a game is made of (and never what
    `build` or `export` write into `output/`)."""

    ignore_dirs = (*DefaultFilter.ignore_dirs, "output")

    def __call__(self, change: Change, path: str) -> bool:
        wanted = path.lower().endswith(WATCHED_SUFFIXES) or _new_folder(change, path)
        return wanted and super().__call__(change, path)


def _new_folder(change: Change, path: str) -> bool:
    return change == Change.added and os.path.isdir(path) and not os.path.islink(path)


def walk_all(roots: Iterable[Path]) -> Iterable[tuple[str, list[str], list[str]]]:
    """fileio.walk of each root, following no link, tool and output folders left out."""
    skipped = set(ContentFilter.ignore_dirs)
    for root in roots:
        for folder, dirs, files in walk(root):
            dirs[:] = sorted(
                d for d in dirs if d not in skipped and not os.path.islink(os.path.join(folder, d))
            )
            yield folder, dirs, files


def watched_folders(roots: Iterable[Path]) -> list[Path]:
    """Every folder under `roots` the preview may read from: found by a walk that follows no
    link (nor goes deeper than fileio.MAX_DEPTH), tool and output folders left out."""
    return [Path(folder) for folder, _, _ in walk_all(roots)]


def watch_roots(game_root: Path, extra: Iterable[Path]) -> list[Path]:
    """The game folder, and each extra folder that exists and is not inside it."""
    roots = [game_root.resolve()]
    for folder in extra:
        folder = folder.resolve()
        if folder.is_dir() and not any(folder.is_relative_to(r) for r in roots):
            roots.append(folder)
    return roots


class Watcher:
    """Calls `on_change(paths)` from its thread for each burst of saves, until `stop`."""

    def __init__(self, roots: list[Path], on_change: Callable[[set[Path]], None]) -> None:
        self.roots = roots
        self._on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="preview-watcher", daemon=True)
        self.ready = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            changes = watch(
                *watched_folders(self.roots),
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

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
