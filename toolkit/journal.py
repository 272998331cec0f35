"""Write several files of a game as one change: all of them or none, even after kill -9.

`fileio.write_many` stages every file before it replaces any, but a process killed between
two renames leaves half the files new and half old. Here the staged files are listed in a
journal in the game folder before the first rename; the renames follow and the journal goes.
The next run that writes the game (`recover`) finishes the renames of a journal it finds, so
the change lands whole, and removes temporary files an interrupted run left behind.

A run that only reads the game (validate, build, export, preview, the language server,
simulate) asks `pending` and refuses the game while a change is half done, naming the
command that finishes it (`playset i18n recover`): it never writes into the game folder
itself (a folder may be read-only, under version control, or being written by the import
that left the journal a millisecond ago), and it never reads the mixed state as the game.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path

from toolkit.fileio import (
    STALE_SECONDS,
    TEMPORARY,
    atomic_write_bytes,
    read_bounded,
    walk,
    write_many,
)

JOURNAL = ".playset-journal.json"
MAX_JOURNAL_BYTES = 1024 * 1024  # a journal lists a game's files: a few kB
_TEMPORARY = TEMPORARY  # the temporary files fileio stages


def write_journaled(root: Path, files: Sequence[tuple[Path, bytes]]) -> None:
    """Write `files` (paths inside the game folder `root`) as one change."""
    journal = Path(root) / JOURNAL
    written = False

    def record(staged: list[tuple[Path, Path]]) -> None:
        nonlocal written
        if len(staged) > 1:
            entries = [[str(tmp), str(target)] for tmp, target in staged]
            # the game folder may come from someone else: a journal linked to a file of
            # the user's is refused, never written through (inside=)
            atomic_write_bytes(journal, json.dumps(entries).encode("utf-8"), inside=root)
            written = True

    write_many(files, on_staged=record, within=root)  # never through a link out of the game
    if written:  # only ours: a folder of that name the game brought is no journal to remove
        journal.unlink(missing_ok=True)


def recover(root: Path) -> list[str]:
    """Finish a change a killed run left half done and remove its stale temporary files;
    what was done, for the user."""
    notes: list[str] = []
    root = Path(root)
    journal = root / JOURNAL
    if journal.is_file() and not journal.is_symlink():
        notes += _finish(root, journal)
    cutoff = time.time() - STALE_SECONDS
    removed = 0
    for folder, dirs, names in walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "output"]
        for name in names:
            path = Path(folder) / name
            if not _TEMPORARY.match(name) or path.is_symlink():
                continue
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
                    removed += 1
            except OSError:
                continue
    if removed:
        notes.append(f"removed {removed} temporary file(s) an interrupted run left")
    return notes


def pending(root: Path) -> list[Path] | None:
    """The files a change a killed run left half done would still put in place (their
    targets), read only: None when the game folder holds no journal of ours. A journal that
    is a link, unreadable, or whose entries are not ours (another folder's, files gone)
    leaves nothing pending, as `recover` would then put nothing in place."""
    journal = Path(root) / JOURNAL
    try:
        if not stat.S_ISREG(os.lstat(journal).st_mode):
            return None  # a link or a folder the game brought: never ours (see recover)
    except OSError:
        return None
    entries = _entries(Path(root), journal)
    if entries is None:
        return []
    base = os.path.realpath(root)
    return [target for tmp, target in entries if _ours(base, tmp, target)]


def _entries(root: Path, journal: Path) -> list[tuple[Path, Path]] | None:
    """The (temporary file, target) pairs a journal lists; None if it cannot be read."""
    try:
        # inside=: a journal switched to a link after the caller's check is not read
        data = read_bounded(journal, MAX_JOURNAL_BYTES, inside=root)
        entries = json.loads(data.decode("utf-8")) if len(data) <= MAX_JOURNAL_BYTES else None
    except (OSError, ValueError, RecursionError):  # it is data in the game folder
        entries = None
    if not isinstance(entries, list):
        return None
    pairs: list[tuple[Path, Path]] = []
    for entry in entries:
        pair = entry if isinstance(entry, list) and len(entry) == 2 else None
        if pair is not None and all(isinstance(e, str) for e in pair):
            pairs.append((Path(pair[0]), Path(pair[1])))
    return pairs


def _finish(root: Path, journal: Path) -> list[str]:
    base = os.path.realpath(root)
    entries = _entries(root, journal)
    if entries is None:
        journal.unlink(missing_ok=True)
        return [f"removed an unreadable {JOURNAL}"]
    done = 0
    failed: list[str] = []
    for tmp, target in entries:
        if _ours(base, tmp, target):
            try:
                os.replace(tmp, target)
            except OSError as exc:  # e.g. a target that is a folder: the journal is data
                failed.append(f"{target} ({exc.strerror or exc})")
                continue
            done += 1
    journal.unlink(missing_ok=True)
    notes = [f"finished an interrupted write: {done} file(s) of it put in place"]
    if failed:
        notes.append(f"{len(failed)} file(s) of it could not be put in place: {', '.join(failed)}")
    return notes


def _ours(base: str, tmp: Path, target: Path) -> bool:
    """A journal entry this module wrote: a temporary file of ours beside its target, both
    inside the game folder (a journal is data in the game folder, so it is checked)."""
    folder = os.path.realpath(target.parent)
    return (
        tmp.parent == target.parent
        and (folder == base or folder.startswith(base + os.sep))
        and bool(_TEMPORARY.match(tmp.name))
        and tmp.is_file()
        and not tmp.is_symlink()
        and not target.is_symlink()
    )
