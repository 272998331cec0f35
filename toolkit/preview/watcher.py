"""Watch a game folder and the layouts for saved files (watchfiles, in its own thread).

Only files the preview reads are reported: YAML content and layouts, sheet decks (CSV, XLSX,
ODS), Markdown rulebooks and icon files. Editor droppings (swap files, `~` backups, an office
program's `.~lock` files), tool folders (.git, .venv) and `output/` are ignored.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

WATCHED_SUFFIXES = (".yaml", ".yml", ".md", ".svg", ".png", ".csv", ".xlsx", ".ods")


class ContentFilter(DefaultFilter):
    """watchfiles' default filter, narrowed to the files a game is made of (and never what
    `build` or `export` write into `output/`)."""

    ignore_dirs = (*DefaultFilter.ignore_dirs, "output")

    def __call__(self, change: Change, path: str) -> bool:
        return path.lower().endswith(WATCHED_SUFFIXES) and super().__call__(change, path)


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
        changes = watch(
            *self.roots,
            watch_filter=ContentFilter(),
            stop_event=self._stop,
            debounce=400,  # a burst of saves (an editor writing, then renaming) is one
            step=20,  # ms without further events before a burst is reported
            yield_on_timeout=True,
            rust_timeout=200,
            raise_interrupt=False,
        )
        for batch in changes:
            self.ready.set()
            if batch:
                self._on_change({Path(path) for _, path in batch})

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
