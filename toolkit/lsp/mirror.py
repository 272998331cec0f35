"""A private mirror of a game folder that the editor's unsaved buffers are written into, so
that `validate` reads what the designer sees without a byte of the real folder changing.

Files are hard-linked into the mirror (no copy); a buffer replaces its file's link with its
text by a rename, so the real file is never written through. Before each check the mirror is
brought up to date with the folder (a file saved, added or removed outside the editor).
"""

from __future__ import annotations

import codecs
import contextlib
import logging
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

from toolkit.fileio import MAX_DEPTH, MISSING, FileVersion, file_version, sparse, walk

log = logging.getLogger("playset.lsp")
MAX_COPY_BYTES = 64 * 1024 * 1024
"""The largest file any check reads whole (a game's font); a larger one is mirrored as a
sparse file of its size, which the checks refuse by size as they refuse the real one."""
SKIPPED = frozenset({"output", "build", "node_modules", "__pycache__"})
"""Folders a game's checks never read: what builds write, and caches."""
MAX_FILES = 20_000
MAX_MIRROR_BYTES = 1024 * 1024 * 1024
"""Bytes of the files one mirror holds as copies (the game on another file system than the
temporary folder: no hard link), each file over `MAX_COPY_BYTES` and each sparse one not
counted (those are mirrored as sparse files of their size): 20,000 files of 64 MB would be
1.3 TB of a /tmp in RAM. Past it the rest is mirrored as sparse files of their size, and the
editor is told."""
MAX_NOTICES = 5
"""Files named one by one in what the editor is told of a sync (the rest counted)."""
UNSURE = MISSING
"""The identity of a file whose mirroring failed: no real file has it, so the next sync tries
again (or removes the mirror's entry when the game no longer has the file)."""


PREFIX = "playset-lsp-"
LOCK = ".playset-lsp.lock"
"""A file in each mirror's folder that its server holds locked (flock) while it runs: a
mirror whose lock can be taken has no server left (killed with SIGKILL, it never ran its
`close`), and the next server removes it."""
UNLOCKED_GRACE_S = 3600
"""A mirror folder without its lock file is left alone this long (its server may be between
making the folder and locking it; older: a version of Playset that locked none)."""


def remove_stale_mirrors(folder: Path | None = None) -> list[Path]:
    """Remove this user's mirrors (in the temporary folder) that no running server holds:
    a killed server's mirror was left for good, up to MAX_MIRROR_BYTES of copies each.
    Only plain folders of ours named as mirrors, never through a link; what was removed."""
    import time

    folder = Path(folder or tempfile.gettempdir())
    removed: list[Path] = []
    try:
        names = [n for n in os.listdir(folder) if n.startswith(PREFIX)]
    except OSError:
        return removed
    for name in names:
        base = folder / name
        try:
            info = os.lstat(base)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        if _unheld(base, info, time.time()):
            _remove(base)
            removed.append(base)
    return removed


def _remove(base: Path) -> None:
    """Remove a mirror as far as it can be: shutil.rmtree recurses once a folder, and a
    mirror ~1,000 folders deep (made before documents were held to MAX_DEPTH) ended the
    server, and every later one that found it stale, in a RecursionError (probe 65-8)."""
    with contextlib.suppress(RecursionError):
        shutil.rmtree(base, ignore_errors=True)


def _unheld(base: Path, info: os.stat_result, now: float) -> bool:
    """Whether no server holds the mirror at `base`."""
    import fcntl

    try:
        fd = os.open(base / LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return now - info.st_mtime > UNLOCKED_GRACE_S
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held: its server runs
        return False
    finally:
        os.close(fd)  # the lock, if taken, goes with it
    return True


class Mirror:
    """One game folder's mirror, in a private temporary folder, locked while it lives."""

    def __init__(self, root: Path) -> None:
        import fcntl

        self.root = root.resolve()
        remove_stale_mirrors()
        self._base = Path(tempfile.mkdtemp(prefix=PREFIX))
        try:
            os.chmod(self._base, 0o700)
            self._lock = os.open(self._base / LOCK, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError:  # out of descriptors: no folder left behind
            _remove(self._base)
            raise
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        self.path = self._base / self.root.name
        self.path.mkdir()
        self._seen: dict[str, FileVersion] = {}  # rel → the real file's identity
        self._buffers: dict[str, str] = {}  # rel → unsaved text
        self._written: dict[str, str] = {}  # rel → the buffer's text last written (by identity)
        self._copied: dict[str, int] = {}  # rel → bytes its copy holds (no hard link)
        self._copied_total = 0  # their sum
        self._told: set[str] = set()  # rel of the files the editor was told are not copied
        self._notices: list[str] = []  # what the editor is to be told (`notices`)
        self._over_budget = False  # the editor was told the copies are over their budget
        self._short = False

    def close(self) -> None:
        _remove(self._base)
        with contextlib.suppress(OSError):
            os.close(self._lock)

    def rel(self, real: Path) -> str | None:
        """A real path's place in the game folder (None: outside it)."""
        try:
            return real.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None

    def rel_of_mirrored(self, mirrored: Path) -> str | None:
        """A mirrored file's place in the game folder."""
        try:
            return Path(mirrored).absolute().relative_to(self.path).as_posix()
        except ValueError:
            return None

    def real(self, mirrored: str) -> str:
        """A path a diagnostic names in the mirror, as the real file's path."""
        prefix = str(self.path)
        if mirrored == prefix or mirrored.startswith(prefix + os.sep):
            return str(self.root) + mirrored[len(prefix) :]
        return mirrored

    def real_text(self, text: str) -> str:
        """A message with every path into the mirror said as the real file's path (a layout
        finding names the card's file: "fails on advance (en, …/decks/cards.yaml:9)")."""
        prefix = str(self.path)
        if prefix not in text:
            return text
        return re.sub(re.escape(prefix) + r"(?=$|[^\w.-])", lambda _: str(self.root), text)

    def set_buffer(self, rel: str, text: str | None) -> None:
        """An open document's text (None when it is closed: the file on disk counts again).
        A document deeper than MAX_DEPTH folders is none of the game's (a walk of the game
        stops there): mirrored, 2,000 folders deep, its removal ended the server in a
        RecursionError (probe 65-8)."""
        if rel.count("/") >= MAX_DEPTH:
            return
        self._written.pop(rel, None)
        if text is None:
            self._buffers.pop(rel, None)
            self._seen.pop(rel, None)  # relinked at the next sync
        else:
            self._buffers[rel] = text
            self._uncount(rel)

    def _uncount(self, rel: str) -> None:
        self._copied_total -= self._copied.pop(rel, 0)

    def notices(self) -> list[str]:
        """What the editor should show of the syncs since the last call (each said once):
        files not copied into the mirror, which its checks see as holes only."""
        found, self._notices = self._notices, []
        return found

    def sync(self) -> None:
        """Bring the mirror up to date: every file of the folder linked (or its buffer
        written), every file gone from the folder gone from the mirror."""
        present: set[str] = set()
        sparse_files: list[str] = []
        self._short = False  # whether a file of this sync did not fit
        for real in self._files():
            rel = real.relative_to(self.root).as_posix()
            present.add(rel)
            if rel in self._buffers:
                continue
            self._mirror(real, rel, sparse_files)
        for rel, text in list(self._buffers.items()):
            if self._written.get(rel) is text and _regular(self.path / rel):
                present.add(rel)  # written at an earlier sync: each check wrote every open
                continue  # document again, its folders looked at step by step (probe 65-16)
            try:
                self._write(self.path / rel, text)
                self._written[rel] = text
            except OSError as exc:  # a "document" that is a folder, or below a file: the
                # checks read no such file (it stopped every check while it stayed open)
                log.warning("%s cannot be a document of the game: %s", rel, exc.strerror)
                del self._buffers[rel]
                with contextlib.suppress(OSError):
                    target = self.path / rel
                    target.with_name(f".{target.name}.playset-lsp").unlink(missing_ok=True)
                continue
            present.add(rel)
        for rel in [r for r in self._seen if r not in present]:
            stale = self.path / rel
            # below a link mirrored since (a folder of the game replaced by a link): not
            # the mirror's file any more, but what that link names (the user's own file)
            if self._below_folders(stale) and (stale.is_symlink() or not stale.is_dir()):
                with contextlib.suppress(OSError):  # gone with a folder cleared below
                    stale.unlink(missing_ok=True)
            del self._seen[rel]
            self._uncount(rel)
        self._told &= present
        self._tell(sparse_files)
        self._over_budget = self._short  # told again once it happens again

    def _tell(self, sparse_files: list[str]) -> None:
        """Add what the editor is told of the sparse files this sync left uncopied."""
        if not sparse_files:
            return
        named = ", ".join(sparse_files[:MAX_NOTICES])
        more = len(sparse_files) - MAX_NOTICES
        named += f" and {more:,} more" if more > 0 else ""
        self._notices.append(
            f"sparse files (mostly holes, a few bytes stored) are not copied into the editor's"
            f" copy of the game, and are checked there as holes only: {named}"
        )

    def _mirror(self, real: Path, rel: str, sparse_files: list[str] | None = None) -> None:
        """Link (or copy) one file of the game into the mirror unless it is as last seen. A
        file the game changes meanwhile (a link again a file before `readlink`, removed
        before `os.link`: OSError) is tried once more as it is now; failing again, it is
        marked for the next sync, which mirrors it or, gone from the game, removes it (it
        raised out of `sync` and the check published nothing)."""
        for attempt in (1, 2):
            try:
                info = real.lstat()
            except OSError:
                return
            identity = file_version(info)  # a copy rewritten in place: its ctime moved
            if self._seen.get(rel) == identity:
                return
            try:
                left_out = self._link(real, self.path / rel, info, rel)
            except OSError as exc:
                log.debug("%s changed while it was mirrored (%s), try %d", rel, exc, attempt)
                self._seen[rel] = UNSURE
                continue
            # one left out for want of room is tried again at each sync (files removed
            # since may have made room)
            self._seen[rel] = UNSURE if left_out == OVER_BUDGET else self._linked(real, identity)
            self._short = self._short or left_out == OVER_BUDGET
            if left_out == SPARSE and rel not in self._told and sparse_files is not None:
                self._told.add(rel)
                sparse_files.append(rel)
            return

    @staticmethod
    def _linked(real: Path, before: FileVersion) -> FileVersion:
        """The identity of `real` once mirrored: a hard link moves its ctime (the link count
        changed), which is no change of the file (known by the ctime before, it was linked
        again at every check, and every layout read again); anything else moved: UNSURE."""
        try:
            now = file_version(real.lstat())
        except OSError:
            return UNSURE
        return now if now[:4] == before[:4] else UNSURE

    def _below_folders(self, target: Path) -> bool:
        """Whether every step from the mirror's root to `target`'s folder is a real folder
        of the mirror, no link: then `target` is the mirror's own entry. (The mirror is
        private: only this class changes it, so the answer holds until it acts on it.)"""
        here = self.path
        for part in target.relative_to(self.path).parts[:-1]:
            here = here / part
            try:
                if not stat.S_ISDIR(here.lstat().st_mode):
                    return False
            except OSError:
                return False
        return True

    def _make_room(self, target: Path) -> None:
        """Clear the place of a file at `target` in the mirror where the game folder changed
        what it holds (renamed, a branch checked out): a file (or link) where the game now
        has a folder above it, a folder where the game now has a file. What the game does
        not hold as such (a document below a file, or naming a folder) is left as it is;
        only the private mirror is touched, never what a link in it names."""
        parts = target.relative_to(self.path).parts
        mirrored, real = self.path, self.root
        for part in parts[:-1]:
            mirrored, real = mirrored / part, real / part
            moved = mirrored.is_symlink() or (mirrored.exists() and not mirrored.is_dir())
            if moved and real.is_dir() and not real.is_symlink():
                mirrored.unlink()
        real = self.root.joinpath(*parts)
        if not self._below_folders(target):  # a link of the game's above: not ours to clear
            return
        folder = target.is_dir() and not target.is_symlink() and parts
        if folder and (real.is_symlink() or not real.is_dir()) and os.path.lexists(real):
            shutil.rmtree(target)

    def _files(self) -> list[Path]:
        found: list[Path] = []
        for folder, dirs, files in walk(self.root):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.startswith("."))
            found += [Path(folder) / f for f in sorted(files) if not f.startswith(".")]
            if len(found) > MAX_FILES:
                break
        return found[:MAX_FILES]

    def _folder_for(self, target: Path, files_too: bool = True) -> None:
        """Make `target`'s folder in the mirror, each step a real folder: an entry mirrored
        as a link (a dangling link to /abs/dir) that has become a folder of the game since
        is replaced, not written through (its files were linked into /abs/dir once it
        existed, the file there of the same name removed first). With `files_too`, a
        mirrored file that is a folder of the game now is replaced as well; else (an open
        document below a file) the OSError says it cannot be."""
        here = self.path
        for part in target.relative_to(self.path).parts[:-1]:
            here = here / part
            stale_file = files_too and here.exists() and not here.is_dir()
            if here.is_symlink() or stale_file:
                here.unlink()
                self._seen.pop(here.relative_to(self.path).as_posix(), None)
            if not here.exists():
                here.mkdir()

    def _link(self, real: Path, target: Path, info: os.stat_result, rel: str = "") -> str:
        """Mirror one file; why it was mirrored as a sparse file of its size ('' if not)."""
        self._make_room(target)
        self._folder_for(target)
        target.unlink(missing_ok=True)
        self._uncount(rel)
        if stat.S_ISLNK(info.st_mode):  # as it is: the checks refuse one that leads outside
            os.symlink(self._link_text(real), target)
            return ""
        try:
            # a link swapped in since the lstat is linked as the link, not as its target
            os.link(real, target, follow_symlinks=False)
            return ""
        except OSError:  # another file system (a /tmp in memory): a copy
            room = MAX_MIRROR_BYTES - self._copied_total
            copied, why = _copy(real, target, info, room)
        self._copied[rel] = copied
        self._copied_total += copied
        if why == OVER_BUDGET and not self._over_budget:
            self._over_budget = True
            self._notices.append(
                f"the editor's copy of the game holds {MAX_MIRROR_BYTES:,} bytes of copied"
                " files (the game lies on another file system than the temporary folder,"
                f" so its files are copied, not linked); {rel} and the files after it are"
                " not copied, and the editor's findings on them may be wrong: keep the game"
                " on the file system of the temporary folder, or set TMPDIR to a folder on"
                " the game's"
            )
        return why

    def _link_text(self, real: Path) -> str:
        """What a link of the game says, for its copy in the mirror, so that it leads where
        the game's link leads: to a place in the game, that place in the mirror (an absolute
        path to the real game would leave it: a false finding in the editor only); anywhere
        else, where the game's link resolves (refused by the checks as `validate` refuses
        the game's). A relative text copied as it was resolved elsewhere from the mirror,
        which sits at another depth: `../../x`, dangling in the game, named a folder of the
        user's from the mirror (and the mirror cleared files through it)."""
        text = os.readlink(real)
        resolved = os.path.realpath(real)
        rel = self.rel(Path(resolved))
        if rel is not None:
            return str(self.path / rel) if rel != "." else str(self.path)
        return text if os.path.isabs(text) else resolved

    def _write(self, target: Path, text: str) -> None:
        self._make_room(target)
        self._folder_for(target, files_too=False)
        fresh = target.with_name(f".{target.name}.playset-lsp")
        # a lone surrogate (JSON "\ud800") has no UTF-8: written as "?", as an editor saving
        # the text must; it stopped every check of the game (probe 65-15)
        fresh.write_text(text, encoding="utf-8", errors="replace")
        os.replace(fresh, target)  # the link to the real file is replaced, never written


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


UNREAD_COPY_BYTES = 1024 * 1024
"""A larger file that no check reads (not one of `READ_SUFFIXES`, neither text nor a picture,
font or workbook by its first bytes: art sources, archives) is mirrored as a sparse file of
its size when it must be copied: the game's 764 MB of .psd files were copied whole into a
/tmp in memory at each editor session whose game lay on another file system."""
READ_SUFFIXES = frozenset(
    {".yaml", ".yml", ".md", ".py", ".csv", ".tsv", ".xlsx", ".ods", ".po", ".pot", ".json"}
    | {".svg", ".png", ".jpg", ".jpeg", ".webp", ".gif", ".ttf", ".otf", ".txt"}
)
READ_MAGIC = (
    b"\x89PNG",
    b"\xff\xd8\xff",
    b"GIF8",
    b"RIFF",
    b"PK\x03\x04",
    b"OTTO",
    b"ttcf",
    b"true",
    b"\x00\x01\x00\x00",
)


def _may_be_read(real: Path, head: bytes) -> bool:
    """Whether a check may read the file whose first bytes are `head`: by its suffix, as a
    picture, font or workbook by its bytes (a check opens a picture by what it holds, not
    its name), or as text (no NUL, UTF-8)."""
    if real.suffix.lower() in READ_SUFFIXES or head.startswith(READ_MAGIC):
        return True
    if b"\0" in head:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _sparse(target: Path, size: int) -> None:
    with open(target, "wb") as handle:
        handle.truncate(size)


SPARSE = "sparse"
OVER_BUDGET = "over budget"


def _copy(real: Path, target: Path, info: os.stat_result, room: int) -> tuple[int, str]:
    """Mirror one file by a copy, bounded: a FIFO as a FIFO (a copy would wait for a writer;
    shutil refused it and the check failed), a device or socket not at all (no check reads
    one), a large file no check reads as a sparse file of its size (`UNREAD_COPY_BYTES`),
    a file over MAX_COPY_BYTES as a sparse file of its size (a 1 GB sparse file in the
    game became 1 GB of memory in a /tmp in RAM), a sparse file (`fileio.sparse`) as one
    of its size too (50 sparse 63 MB notes, 204 kB on disk, became 3.15 GB of a /tmp in
    RAM: the checks refuse the copy as sparse as they refuse the file), and a file that
    does not fit in `room` (bytes the mirror's copies may still take) as well. The bytes
    copied, and why the file was mirrored as holes only (SPARSE, OVER_BUDGET, or '')."""
    mode = info.st_mode
    if stat.S_ISFIFO(mode):
        os.mkfifo(target, 0o600)
        return 0, ""
    if not stat.S_ISREG(mode):
        return 0, ""
    if info.st_size > MAX_COPY_BYTES:
        _sparse(target, info.st_size)
        return 0, ""
    fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # switched since the listing
            return 0, ""
        size = opened.st_size
        if size > MAX_COPY_BYTES or (
            size > UNREAD_COPY_BYTES and not _may_be_read(real, os.pread(fd, 64, 0))
        ):
            _sparse(target, size)
            return 0, ""
        if sparse(fd, opened):
            _sparse(target, size)
            return 0, SPARSE
        if size > room:
            _sparse(target, size)
            return 0, OVER_BUDGET
        with os.fdopen(os.dup(fd), "rb") as source, open(target, "wb") as copy:
            copied = copy.write(source.read(min(room, MAX_COPY_BYTES + 1)))
        return copied, ""
    finally:
        os.close(fd)
