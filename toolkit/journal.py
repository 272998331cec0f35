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

import contextlib
import json
import os
import stat
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from toolkit.fileio import (
    TEMPORARY,
    HeldFolder,
    StagedSet,
    atomic_write_bytes,
    open_folder_inside,
    read_bounded,
    remove_stale_temporaries,
    walk,
    write_many,
)
from toolkit.stale_files import STALE_SECONDS, remove_stale

JOURNAL = ".playset-journal.json"
MAX_JOURNAL_BYTES = 1024 * 1024  # a journal lists a game's files: a few kB
_TEMPORARY = TEMPORARY  # the temporary files fileio stages


def write_journaled(
    root: Path, files: Sequence[tuple[Path, bytes]], *, inside: Path | None = None
) -> None:
    """Write `files` (paths inside the game folder `root`) as one change; under `inside`
    (a folder of the game) no link at all is followed (`fileio.write_many`)."""
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

    # never through a link out of the game
    write_many(files, on_staged=record, within=root, inside=inside)
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
            if not _TEMPORARY.match(name) or path.is_symlink() or not _beside_target(path):
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


def _beside_target(path: Path) -> bool:
    """Whether a file of a temporary's name (`.<name>.<8 hex>.tmp`) lies beside the file it
    would have replaced: what fileio stages always does (a journaled write replaces files of
    the game). A designer's own `art/.sketch.20241201.tmp` has no `sketch` beside it and is
    theirs, not a killed write's: it was deleted by the next `i18n import`."""
    target = path.with_name(_target(path.name))
    return target.exists() or target.is_symlink()


def pending(root: Path) -> list[Path] | None:
    """The files a change a killed run left half done would still put in place (their
    targets), read only: None when the game folder holds no journal of ours. A journal that
    is a link, unreadable, or whose entries are not ours (another folder's, files gone)
    leaves nothing pending, as `recover` would then put nothing in place."""
    found = pending_of(root)
    return None if found is None else found[0]


def pending_of(root: Path) -> tuple[list[Path], int] | None:
    """`pending`, with how many files the journal lists in all: when every one of them is
    still pending, the run was killed before its first file was put in place, and no file
    holds the new text yet."""
    journal = Path(root) / JOURNAL
    try:
        if not stat.S_ISREG(os.lstat(journal).st_mode):
            return None  # a link or a folder the game brought: never ours (see recover)
    except OSError:
        return None
    entries = _entries(Path(root), journal)
    if entries is None:
        return [], 0
    base = os.path.realpath(root)
    return [target for tmp, target in entries if _ours(base, tmp, target)], len(entries)


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


# --- an output folder: one language's files of a build -------------------------------------
# `build` replaces out/<game>/<lang>/'s files together (fileio.write_many stages them all
# first), but a build killed between two renames left a mix of the new and the old PDFs:
# a rules sheet that names cards the cards.pdf beside it does not hold yet. The staged files
# are listed here (their names only: they are all in that one folder) before the first
# rename, and the next build of that language puts the rest in place before anything else,
# so the folder goes from one build's set to the next one's, never staying mixed. The folder
# is the toolkit's own (fileio.output_folder: no link in it is followed), the journal is
# read and the renames made in the folder opened without following a link, and a rename
# replaces whatever is at a name: nothing is written through a link.

OUTPUT_JOURNAL = ".playset-build-journal.json"


def write_output_files(
    out: Path | HeldFolder, folder: Path, files: Sequence[tuple[str, bytes]]
) -> list[str]:
    """Write `files` (name, bytes) into the output folder `folder` (below `out`, made by
    fileio.output_folder) as one change, after finishing the change a killed build left
    there; what was finished, for the user. `folder` is opened from `out` (held: opened
    once for the command) without following a link, and everything is done in it: the
    output folder exchanged for a link mid-run is not followed."""
    fd = open_folder_inside(out, folder)
    if fd is None:  # a link or gone: the write says why
        write_many([(Path(folder) / name, data) for name, data in files], inside=out)
        return []
    try:
        notes = finish_output(fd, folder)
        remove_stale_temporaries(fd)  # what a build killed before its journal left
        written = False

        def record(staged: list[tuple[Path, Path]]) -> None:
            nonlocal written
            if len(staged) > 1:
                entries = [[tmp.name, target.name] for tmp, target in staged]
                held = HeldFolder(Path(folder), fd)
                data = json.dumps(entries).encode("utf-8")
                atomic_write_bytes(Path(folder) / OUTPUT_JOURNAL, data, inside=held)
                written = True

        held = HeldFolder(Path(folder), fd)
        write_many(
            [(Path(folder) / name, data) for name, data in files], inside=held, on_staged=record
        )
        if written:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(OUTPUT_JOURNAL, dir_fd=fd)
        return notes
    finally:
        os.close(fd)


def write_language(
    out: Path | HeldFolder, game_id: str, lang: str, files: Sequence[tuple[str, bytes]]
) -> list[str]:
    """`write_output_files` into out/<game_id>/<lang>/, made (from `out`'s descriptor when
    held) if missing; the folders made for it are taken back when the write fails (a full
    disk left `out/<game>/<lang>/` empty)."""
    from toolkit.fileio import missing_below, output_folder, remove_empty_below

    made = missing_below(out, (game_id, lang))
    try:
        folder = output_folder(out, game_id, lang)
        return write_output_files(out, folder, files)
    except BaseException:
        remove_empty_below(out, made)
        raise


def write_set(
    files: Sequence[tuple[Path, bytes]], *, inside: Path | None = None, what: str = "convert"
) -> list[str]:
    """Write `files`, all in one folder outside any game (`convert --out elsewhere/x.csv`:
    the sheet and its NAME.deck.yaml), as one change: their staged names are listed in that
    folder's OUTPUT_JOURNAL before the first rename, as a build's language is, after the
    change a killed run left there is finished and the stale temporaries of these files'
    names are removed; what was finished, for the user. A convert killed between its two
    renames left the new sheet beside the old NAME.deck.yaml and a .tmp nobody removed (probe
    18 L4). Files in several folders (or a link's target elsewhere) are written together
    without a journal (`fileio.write_many`, `inside` as there)."""
    folders = {os.path.realpath(Path(path).parent) for path, _ in files}
    if len(folders) != 1:
        write_many(files, inside=inside)
        return []
    folder = Path(folders.pop())
    names = {Path(path).name for path, _ in files}
    notes = finish_output(folder, what=what, only=names)
    remove_stale(folder, lambda name: bool(_TEMPORARY.match(name)) and _target(name) in names)
    journal = folder / OUTPUT_JOURNAL
    written = False

    def record(staged: list[tuple[Path, Path]]) -> None:
        nonlocal written
        entries = [[tmp.name, target.name] for tmp, target in staged if tmp.parent == folder]
        if len(entries) > 1:
            atomic_write_bytes(journal, json.dumps(entries).encode("utf-8"), inside=folder)
            written = True

    write_many(files, inside=inside, on_staged=record)
    if written:  # only ours: a file of that name the folder had was replaced by ours
        journal.unlink(missing_ok=True)
    return notes


def _target(temporary: str) -> str:
    """The name of the file a temporary (`.<name>.<8 hex>.tmp`) was staged to replace."""
    return temporary[1 : -len(".00000000.tmp")]


def finish_output(
    folder: Path | int,
    name: Path | None = None,
    what: str = "build",
    only: Collection[str] | None = None,
) -> list[str]:
    """Put in place the files a build (or an export: `what`) killed between its renames left
    staged in `folder` (its journal's; a path, or a folder open as that descriptor, named
    `name`), then remove the journal; nothing when it holds none of ours. With `only` (a
    command writing those names in a folder the user named, not an output tree of ours:
    `convert --out`, `i18n add-language --out`), nothing unless every entry puts one of
    those names in place in the folder itself: a planted journal there made convert
    replace `docs/thesis.txt` (probe 20 H2)."""
    try:
        if isinstance(folder, int):
            fd = os.dup(folder)
        else:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return []
    where = name if name is not None else folder
    try:
        entries = _output_entries(fd)
        if entries is None:
            return []
        if only is not None and any(sub or target not in only for sub, _, target in entries):
            return [f"ignored a journal in {where} naming files this {what} does not write"]
        done = 0
        for sub, tmp, target in entries:
            try:
                at = _open_sub(fd, sub)
            except OSError:  # gone, or a link now: nothing of it is put in place
                continue
            try:
                if not stat.S_ISREG(os.lstat(tmp, dir_fd=at).st_mode):
                    continue
                os.replace(tmp, target, src_dir_fd=at, dst_dir_fd=at)
            except OSError:  # already put in place, or a folder at the name: left as it is
                continue
            finally:
                os.close(at)
            done += 1
        with contextlib.suppress(OSError):
            os.unlink(OUTPUT_JOURNAL, dir_fd=fd)
        notes = [f"finished the interrupted {what} in {where}: {done} file(s) put in place"]
        say = _TOLD.get()
        if say is not None:
            for note in notes:
                say(note)
        return notes
    finally:
        os.close(fd)


_TOLD: ContextVar[Callable[[str], None] | None] = ContextVar("journal_told", default=None)


@contextlib.contextmanager
def telling(say: Callable[[str], None]) -> Iterator[None]:
    """While the block runs, what `finish_output` finishes of a killed run is said through
    `say` as it is done: a build's languages and an export's sets (a plugin's too) finish
    theirs deep in their own code, and `export png`/`tts` and `build` put a killed run's
    files in place without a word (probe 18 L1). The command says them as
    `finish_interrupted` says a game's."""
    token = _TOLD.set(say)
    try:
        yield
    finally:
        _TOLD.reset(token)


def _open_sub(fd: int, sub: tuple[str, ...]) -> int:
    """A descriptor (the caller's to close) on the folder `sub` below the folder open as
    `fd`, each part opened without following a link."""
    at = os.dup(fd)
    for part in sub:
        try:
            below = os.open(
                part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=at
            )
        finally:
            os.close(at)
        at = below
    return at


def _output_entries(fd: int) -> list[tuple[tuple[str, ...], str, str]] | None:
    """The (folder below, temporary file, file) names an output folder's journal lists (a
    build's entries are `[tmp, name]`, in the folder itself; an export's may name the
    folder below as a third, first item: `["deck/sub", tmp, name]`); None when there is no
    journal, or it is not a regular file (never followed)."""
    try:
        jfd = os.open(OUTPUT_JOURNAL, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(jfd).st_mode):
            return None
        with os.fdopen(os.dup(jfd), "rb") as handle:
            data = handle.read(MAX_JOURNAL_BYTES + 1)
    finally:
        os.close(jfd)
    try:
        entries = json.loads(data.decode("utf-8")) if len(data) <= MAX_JOURNAL_BYTES else None
    except (ValueError, RecursionError):
        entries = None
    triples: list[tuple[tuple[str, ...], str, str]] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, list) or len(entry) not in (2, 3):
            continue
        if not all(isinstance(e, str) for e in entry):
            continue
        sub = tuple(entry[0].split("/")) if len(entry) == 3 else ()
        tmp, target = entry[-2:]
        if (
            all(_plain_name(e) for e in (*sub, tmp, target))
            and _TEMPORARY.match(tmp)
            and (sub or target != OUTPUT_JOURNAL)
        ):
            triples.append((sub, tmp, target))
    return triples


def _plain_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and "/" not in name and "\0" not in name


# --- an export's set: files in an output folder and the folders below it --------------------


class JournaledSet(StagedSet):
    """A `fileio.StagedSet` (an export's files of one language) whose staged files are listed
    in a journal in `folder` (below `inside`; every file of the set lies in it or below it)
    before the first rename, the journal removed after the last: `export png`/`tts` killed
    between two renames left a TTS save of the old run naming the new sheets, and its staged
    files. The next set in that folder finishes the renames first (`finish_output`), as the
    next build does a language's."""

    def __init__(self, inside: Path | HeldFolder, folder: Path, what: str = "export") -> None:
        super().__init__(inside)
        self.folder = Path(folder)
        self.what = what
        self.notes: list[str] = []
        self._journal: int | None = None  # the folder holding our journal, while it is there

    def __enter__(self) -> JournaledSet:
        # opened from `inside` without following a link (a link: the set's writes refuse it)
        opened = open_folder_inside(self.inside, self.folder)
        if opened is not None:
            try:
                self.notes = finish_output(opened, self.folder, self.what)
            finally:
                os.close(opened)
        return self

    def _before_renames(self, staged: list[tuple[Any, str]]) -> None:
        if len(staged) < 2:
            return
        base = os.path.abspath(self.folder)
        entries: list[list[str]] = []
        for plan, tmp in staged:
            sub = os.path.relpath(os.path.abspath(Path(plan.path).parent), base)
            if sub.startswith(".."):
                raise ValueError(f"{plan.path} is not inside {self.folder}")
            entries.append([tmp, plan.name] if sub == "." else [sub, tmp, plan.name])
        fd = self._opened(self.folder)
        try:
            data = json.dumps(entries).encode("utf-8")
            atomic_write_bytes(
                self.folder / OUTPUT_JOURNAL, data, inside=HeldFolder(self.folder, fd)
            )
        except BaseException:
            os.close(fd)
            raise
        self._journal = fd

    def _after_renames(self) -> None:
        if self._journal is None:
            return
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(OUTPUT_JOURNAL, dir_fd=self._journal)
        finally:
            os.close(self._journal)
            self._journal = None
