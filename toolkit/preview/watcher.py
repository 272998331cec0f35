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

import itertools
import os
import sys
import threading
import time
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


def left_out() -> tuple[str, ...]:
    """The folders of a game folder the preview never watches: what build writes, and tool
    folders (watchfiles' defaults)."""
    return (*DefaultFilter.ignore_dirs, "output")


EDITOR_COPIES = ("flycheck_", ".#")
"""Name prefixes of what editors write beside a file they edit (flycheck's check copy,
Emacs's lock): watchfiles' default filter ignores every name so starting. A name of the game
may start so too (`flycheck_cards.yaml`, named in game.yaml): it is ignored only while the
file it would be the copy of is there (probe 68-5)."""


def editor_copy(path: str) -> bool:
    """Whether `path` is an editor's copy (or lock) of a file beside it (EDITOR_COPIES)."""
    folder, name = os.path.split(path)
    return any(
        name.startswith(prefix) and os.path.lexists(os.path.join(folder, name[len(prefix) :]))
        for prefix in EDITOR_COPIES
        if len(name) > len(prefix)
    )


class ContentFilter(DefaultFilter):
    """watchfiles' default filter, narrowed to the files a game is made of (and never what
    `build` or `export` write into `output/`). With `roots`, only each root's own `output/`
    and tool folders (`.git`, `.venv`, `node_modules`, …) are left out: a game may keep
    content in a folder so named deeper down, and its edits went unseen (probes 66-5,
    68-5); without, every folder so named. A name starting as an editor's copy does is left
    out only when it is one (`editor_copy`): the default patterns hid `flycheck_cards.yaml`
    and `.#cards.yaml` at any depth (68-5); the other patterns (`~`, `.swp`, `.pyc`, …) never
    end in a suffix the preview reads."""

    ignore_dirs = left_out()
    ignore_entity_patterns = tuple(
        pattern
        for pattern in DefaultFilter.ignore_entity_patterns
        if pattern not in (r"^flycheck_", r"^\.\#")
    )

    def __init__(self, roots: Iterable[Path] | None = None) -> None:
        self._left_out: tuple[str, ...] = ()
        if roots is not None:
            self.ignore_dirs = ()
            self._left_out = tuple(str(Path(root, name)) for root in roots for name in left_out())
        super().__init__()

    def __call__(self, change: Change, path: str) -> bool:
        if path in self._left_out or path.startswith(tuple(o + os.sep for o in self._left_out)):
            return False
        wanted = path.lower().endswith(WATCHED_SUFFIXES) or _new_folder(change, path)
        return wanted and super().__call__(change, path) and not editor_copy(path)


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
    skipped = set(left_out())
    for root in roots:
        for walked, (folder, dirs, files) in enumerate(walk(root)):
            if walked == MAX_WALKED:
                break
            top = Path(folder) == Path(root)
            dirs[:] = sorted(
                (
                    d
                    for d in dirs
                    if not (top and d in skipped)  # what build writes, tools; deeper, content
                    and not os.path.islink(os.path.join(folder, d))
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


POLL_SECONDS = 0.5
"""How often a folder watchfiles cannot watch is looked at instead."""
MAX_POLLED = 2_000
"""Files of the polled folders stat()ed each time they are looked at, in turn: a polled
folder of 100,000 files stat()ed every time kept a core busy while the preview waited (probe
68-2); so a save there is seen within ceil(files / MAX_POLLED) looks."""
MAX_LISTED = 20_000
"""Names of the polled folders listed each time (a listing reads no file's details: ~7 ms for
20,000 names, 1.5 % of a core at a look every 0.5 s): what was added or removed is seen at
the next look; past them, nothing is (said once)."""


def _named_in_utf8(folder: Path, names: Iterable[str]) -> bool:
    """Whether the folder and every name in it are UTF-8 text: watchfiles names what it
    reports as UTF-8 text, and a file named in other bytes (`notes\\xff.txt`) ended the
    watcher thread in an error, the preview showing the game as it was for ever (probe 66-1)."""
    return _utf8(folder) and all(_utf8(Path(name)) for name in names)


Stamp = tuple[int, int] | None
"""A file's change time and size (the change time: a save may put the modification time back,
not it); None when it could not be read."""


def _stamp(path: str) -> Stamp:
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return info.st_ctime_ns, info.st_size


class Polled:
    """The folders watchfiles cannot watch, looked at every POLL_SECONDS: each look lists
    their names (a file added or removed, a folder made: seen at once) and stats MAX_POLLED of
    their files in turn (a file saved), so every file is looked at within ceil(files /
    MAX_POLLED) looks. The same first 2,000 entries were looked at every time, and a save past
    them was never seen (probe 69-1). Names past the first MAX_LISTED, in folder order, are
    not looked at: said once, with the folder where they were cut (probe70-6). Paths are
    kept as text (a `Path` a name would cost more than the listing itself) and made `Path`s
    when reported."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders
        self.cut_at: Path | None = None  # the folder where the names were cut, if they were
        listed, self.dirs, self.cut = self._listing()
        self.files: dict[str, Stamp] = {path: _stamp(path) for path in listed}
        self._turn = 0

    def _listing(self) -> tuple[list[str], set[str], bool]:
        """The files the preview reads and the folders in the polled folders (not below),
        no more than MAX_LISTED names, and whether there were more."""
        files: list[str] = []
        dirs: set[str] = set()
        left = MAX_LISTED
        for folder in self.folders:
            try:
                with os.scandir(folder) as listed:
                    entries = list(itertools.islice(listed, left + 1))
            except OSError:
                continue
            cut = len(entries) > left  # one more than is left was asked for
            entries = entries[:left]
            left -= len(entries)
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        dirs.add(entry.path)
                    elif entry.name.lower().endswith(WATCHED_SUFFIXES):
                        files.append(entry.path)
                except OSError:
                    continue
            if cut:
                self.cut_at = folder
                return files, dirs, True
        return files, dirs, False

    def look(self) -> tuple[list[Path], set[Path]]:
        """The folders made and the files added, removed or saved since the last look."""
        listed, dirs, self.cut = self._listing()
        made = sorted(dirs - self.dirs)
        self.dirs = dirs
        now = set(listed)
        changed = {path for path in self.files if path not in now}
        for path in changed:
            del self.files[path]
        added = [path for path in listed if path not in self.files]
        for path in added:
            self.files[path] = _stamp(path)
        changed.update(added)
        order = list(self.files)
        turn = max(0, min(MAX_POLLED - len(added), len(order)))
        start = self._turn % len(order) if order else 0
        window = order[start : start + turn] + order[: max(0, start + turn - len(order))]
        for path in window:
            stamp = _stamp(path)
            if stamp != self.files[path]:
                self.files[path] = stamp
                changed.add(path)
        self._turn = start + turn
        return [Path(path) for path in made], {Path(path) for path in changed}


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
        self._warned_polled = False
        self._warned_part = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="preview-watcher", daemon=True)
        self.ready = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def _folders(self) -> tuple[list[Path], list[Path]]:
        """The folders to watch, and those to look at every POLL_SECONDS instead: watchfiles
        takes a folder's path as UTF-8 text (one named in other bytes, Latin-1 say, ended the
        watcher thread in a UnicodeEncodeError), and reports a file's the same way (a file
        so named ended it too); the folders not named in UTF-8 are said once, and left
        unwatched; those holding a file not so named are polled."""
        folders: list[Path] = []
        unnamed: list[Path] = []
        polled: list[Path] = []
        # a sub-folder's name as well: a folder so named made while watching ended the
        # watch, and every folder of the game was polled from then (probe 68-2)
        names = {Path(folder): [*dirs, *files] for folder, dirs, files in walk_all(self.roots)}
        chosen, left_out = chosen_folders(self.roots)
        if left_out and not self._warned_more:
            self._warned_more = True
            self._warn(
                f"the game holds more than {MAX_WATCHED:,} folders: {MAX_WATCHED:,} are watched"
                " (those holding its files first), and what is saved in the others is not"
                " seen; remove the folders the game does not use"
            )
        for folder in chosen:
            if not _utf8(folder):
                unnamed.append(folder)
            elif _named_in_utf8(folder, names.get(folder, ())):
                folders.append(folder)
            else:
                polled.append(folder)
        if polled and not self._warned_polled:
            self._warned_polled = True
            shown = os.fsencode(polled[0]).decode("utf-8", "backslashreplace")
            self._warn(
                f"folder {shown} holds a file or folder not named in UTF-8: it is looked at"
                f" every {POLL_SECONDS:g} s instead of watched (rename it)"
            )
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
        return folders, polled

    def _run(self) -> None:
        while not self._stop.is_set():
            folders, polled = self._folders()
            if not folders and not polled:  # nothing to watch: served as it is until stopped
                self.ready.set()
                self._stop.wait()
                return
            try:
                made = self._watch(folders, polled)
            except RuntimeError:  # watchfiles' error: a file named in other bytes came in
                now_polled = self._folders()[1]
                if now_polled == polled:  # no such file seen: poll them all
                    made = self._poll([*folders, *polled], [])
                else:  # what was saved in them until they are polled counts as a change
                    made = [f for f in now_polled if f not in polled]
            # what was saved in a new folder before it was watched counts as a change
            saved = {
                Path(folder, name)
                for folder, _, names in walk_all(made)
                for name in names
                if name.lower().endswith(WATCHED_SUFFIXES)
            }
            if saved:
                self._on_change(saved)

    def _watch(self, folders: list[Path], polled: list[Path]) -> list[Path]:
        """Report what is saved in `folders` (and in `polled`, looked at every POLL_SECONDS)
        until a folder is made, then return the folders made."""
        if not folders:
            return self._poll(polled, [])
        changes = watch(
            *folders,
            watch_filter=ContentFilter(self.roots),
            stop_event=self._stop,
            debounce=400,  # a burst of saves (an editor writing, then renaming) is one
            step=20,  # ms without further events before a burst is reported
            yield_on_timeout=True,
            rust_timeout=200,
            raise_interrupt=False,
            recursive=False,  # each folder on its own: a recursive watch follows links
            ignore_permission_denied=True,
        )
        looking, looked = self._polled(polled), time.monotonic()
        for batch in changes:
            self.ready.set()
            made = [Path(path) for change, path in batch if _new_folder(change, path)]
            files = {Path(path) for _, path in batch} - set(made)
            if polled and time.monotonic() - looked >= POLL_SECONDS:
                made_there, saved = looking.look()
                looked = time.monotonic()
                made += made_there
                files |= saved
            if files:
                self._on_change(files)
            if made:  # a folder was made: watch it too, from now
                changes.close()
                return made
        return []

    def _poll(self, polled: list[Path], made: list[Path]) -> list[Path]:
        """Look at `polled` every POLL_SECONDS until a folder is made in one (returned) or the
        watcher is stopped."""
        looking = self._polled(polled)
        self.ready.set()
        while not made and not self._stop.wait(POLL_SECONDS):
            made, files = looking.look()
            if files:
                self._on_change(files)
        return made

    def _polled(self, folders: list[Path]) -> Polled:
        """`folders` to look at in turn, said once when a look cannot take in all of them."""
        looking = Polled(folders)
        if (looking.cut or len(looking.files) > MAX_POLLED) and not self._warned_part:
            self._warned_part = True
            looks = -(-len(looking.files) // MAX_POLLED)
            cut_at = os.fsencode(looking.cut_at or "").decode("utf-8", "backslashreplace")
            said = (
                f"the folders looked at hold more than {MAX_LISTED:,} names: only the first"
                f" {MAX_LISTED:,} are looked at, and what is saved or added past them (in"
                f" {cut_at} and the folders looked at after it) is not seen"
                if looking.cut
                else f"the folders looked at hold {len(looking.files):,} files: a save there"
                f" is seen within {looks * POLL_SECONDS:g} s"
            )
            self._warn(f"{said} (rename the file not named in UTF-8 to have them watched)")
        return looking

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout=timeout)  # watchfiles looks at its stop event every 200 ms
