"""The user's cache folder and its signed entries, shared by every cache Playset keeps.

A cache is only a shortcut: deleting it is always safe, and anything in it that is not
plainly ours is ignored. A cache folder is used only when it belongs to the user and no one
else may write to it; every entry carries an HMAC-SHA256, under a per-user key kept in a 0600
file in the folder, over its name and its bytes, checked before anything in it is used.
Anything else (a folder others may write, a key others may read, a linked, truncated or
forged entry) means no cache: the same results, worked out afresh.

Light on purpose (no third-party import): a command answered from a cache starts quickly.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from toolkit.stale_files import remove_stale

KEY_FILE = "hmac.key"
KEY_BYTES = 32
MAC_BYTES = 32


NO_CACHE_ENV = "PLAYSET_NO_CACHE"
SWITCH_STATES = {
    **dict.fromkeys(("1", "true", "t", "yes", "y", "on"), True),
    **dict.fromkeys(("", "0", "false", "f", "no", "n", "off"), False),
}
"""What PLAYSET_NO_CACHE may say: click's boolean words (validate's and build's --no-cache
read the variable through click; a test keeps the two tables the same)."""


def no_cache_env() -> bool:
    """Whether PLAYSET_NO_CACHE turns the caches off; ValueError for a value that says
    neither (`maybe` was a usage error for validate and build, "on" for the preview)."""
    raw = os.environ.get(NO_CACHE_ENV, "")
    state = SWITCH_STATES.get(raw.strip().lower())
    if state is None:
        raise ValueError(
            f"{NO_CACHE_ENV}={raw[:40]!r} is neither on (1, true, yes) nor off (0, false, no)"
        )
    return state


def private(info: os.stat_result) -> bool:
    """Owned by this user and writable by no one else."""
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_private(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file of ours that no one else may write, read without
    following a symlink; None otherwise."""
    parts = read_private_parts(path, limit, 0)
    return parts[1] if parts is not None else None


def read_private_parts(path: Path, limit: int, head: int) -> tuple[bytes, bytes] | None:
    """`read_private`, as its first `head` bytes and the rest, each read into its own bytes
    (a signed entry's MAC and payload: slicing them apart copied the payload, and reading
    into a buffer of `limit` bytes made one that large; an entry of the code store is
    ~0.6 MB, each copy ~140 page faults)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not private(info) or info.st_size > limit:
            return None
        first = _read_up_to(fd, head) if head else b""
        # the size it has now, and one byte more: a file grown since is seen as such
        rest = _read_up_to(fd, max(0, min(limit, info.st_size) - len(first)) + 1)
        return first, rest
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_up_to(fd: int, size: int) -> bytes:
    """At most `size` bytes from `fd`, fewer only at its end: `os.read` straight from the
    descriptor (a buffered file object over a `dup` of it cost five more system calls per
    entry, and a command reads ~60 entries)."""
    data = os.read(fd, size)
    if not data or len(data) == size:
        return data
    chunks = [data]
    left = size - len(data)
    while left > 0 and (chunk := os.read(fd, left)):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def folder_key(folder: Path) -> bytes | None:
    """The folder's HMAC key, made on first use (mode 0600); None if the file is not ours, is
    readable by others or cannot be made. A key file of ours of the wrong length (left empty
    by a write that failed on a full disk: every later run refused it, so that store stayed
    off for good) is made afresh: no entry can be signed with it."""
    path = folder / KEY_FILE
    key = _key(path)
    if key is not None:
        return key
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError:
        return None
    if info is not None and not _truncated_key(info):
        return None  # a link, another's file, one others may read: refused, never replaced
    if not _make_key(folder, path, replace=info is not None):
        return None
    return _key(path)


def _truncated_key(info: os.stat_result) -> bool:
    """A key file of ours, private, but of the wrong length: what a write that failed left."""
    mode = info.st_mode
    ours = stat.S_ISREG(mode) and private(info) and not mode & (stat.S_IRWXG | stat.S_IRWXO)
    return ours and info.st_size != KEY_BYTES


def _key(path: Path) -> bytes | None:
    """The key in `path`: a regular file of ours, readable by no one else, of KEY_BYTES."""
    key = read_private(path, KEY_BYTES)
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if key is None or len(key) != KEY_BYTES or mode & (stat.S_IRWXG | stat.S_IRWXO):
        return None
    return key


def _make_key(folder: Path, path: Path, replace: bool) -> bool:
    """Write a new key beside `path` and put it in place whole (linked where none is, so a
    key another run made meanwhile is kept; renamed over a broken one); False when it cannot
    be written (a full disk: an OSError, never a traceback)."""
    import secrets  # imported by what writes only: a run answered from its caches
    import tempfile  # writes nothing (random and tempfile, ~1.5 ms of its start)

    try:
        fd, tmp = tempfile.mkstemp(prefix=TEMPORARY, dir=folder)  # 0600; cleaned if left
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(KEY_BYTES))
        if replace:
            os.replace(tmp, path)
        else:
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return True


def prune_least_used(paths: Iterable[Path], limit: int) -> None:
    """Delete the files used longest ago (their mtime: a hit touches its entry) until those
    left hold at most `limit` bytes; caches that keep whole drawings grow with every edit."""
    entries = []
    for path in paths:
        with contextlib.suppress(OSError):
            info = path.lstat()
            entries.append((info.st_mtime_ns, info.st_size, path))
    _prune_oldest(entries, limit)


def _prune_oldest(entries: Sequence[tuple[int, int, str | Path]], limit: int) -> None:
    """Delete the files of `entries` (modification time, size, path), oldest first, until
    those left hold at most `limit` bytes."""
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            return
        with contextlib.suppress(OSError):
            os.unlink(path)
        total -= size


def xdg_folder(variables: tuple[str, ...], fallback: str) -> Path:
    """The folder the first of the environment `variables` names, else `~/<fallback>`. A
    relative value is ignored, as the XDG specification says: it named a folder under the
    current one, and a game folder unpacked there could bring files of its own (a cache
    store with its key beside it, whose code the next command ran; a printers.yaml)."""
    for variable in variables:
        base = os.environ.get(variable, "")
        if os.path.isabs(base):
            return Path(base)
    return Path.home() / fallback


def cache_root() -> Path:
    """`$PLAYSET_CACHE/playset`, else `$XDG_CACHE_HOME/playset`, else `~/.cache/playset`
    (relative values ignored: `xdg_folder`)."""
    return xdg_folder(("PLAYSET_CACHE", "XDG_CACHE_HOME"), ".cache") / "playset"


def cache_dir(name: str) -> Path | None:
    """The cache folder `name` under `cache_root()`, made if missing; None when it cannot be
    written or is not private to the user (no cache, same results)."""
    folder = cache_root() / name
    if not folder.is_absolute():  # a relative HOME: no cache rather than one under here
        return None
    there = folder
    while not os.path.lexists(there) and there != there.parent:
        there = there.parent
    if there != folder and not _held(there):
        # asked before anything is made: a refused folder (another user's) was filled
        # with the stores' empty folders
        return None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or not private(info) or not _held(folder.parent):
        return None
    return folder if os.access(folder, os.W_OK) else None


def _held(folder: Path) -> bool:
    """Whether no other user can rename or replace what `folder` holds: it and every folder
    above it belong to this user or root, and none that others may write lacks the sticky
    bit (as /tmp has). A PLAYSET_CACHE in a folder others may write let them rename our
    store folders away and put others in their place (only `cache_dir`'s own folder was
    checked). The folders a link on the way leads through count as well: with
    PLAYSET_CACHE=clink and clink -> ww777/mine, only clink's own parents were checked, never
    ww777."""
    uid, gid = os.getuid(), os.getgid()
    folders = _on_the_way(folder)
    if folders is None:
        return False
    for current in sorted(folders):
        try:
            info = os.stat(current)  # the folders a link leads to are the ones written in
        except OSError:
            return False
        if info.st_uid not in (0, uid):
            return False
        sticky = bool(info.st_mode & stat.S_ISVTX)
        others = info.st_mode & stat.S_IWOTH or (info.st_mode & stat.S_IWGRP and info.st_gid != gid)
        if others and not sticky:
            return False
    return True


def _on_the_way(folder: Path) -> set[Path] | None:
    """Every folder whose entries decide where `folder` leads: those on its path, and for
    each link met, those on its text's path (followed in turn, a bounded number of links)
    and on its resolved path; None when a link cannot be read or there are too many."""
    found: set[Path] = set()
    pending = [Path(os.path.abspath(folder)), Path(os.path.realpath(folder))]
    links = 0
    while pending:
        path = pending.pop()
        for current in (path, *path.parents):
            if current in found:
                continue
            found.add(current)
            if os.path.islink(current):
                links += 1
                if links > 40:
                    return None
                try:
                    text = os.readlink(current)
                except OSError:
                    return None
                target = os.path.normpath(os.path.join(current.parent, text))
                pending += [Path(target), Path(os.path.realpath(current))]
    return found


class SignedStore:
    """Entries `HMAC(name || payload) || payload` in a private folder, read back only when
    the HMAC checks out; writes go to a temporary file renamed into place (a reader sees a
    whole entry or none)."""

    def __init__(
        self, folder: Path, key: bytes, max_bytes: int, keep_bytes: int | None = None
    ) -> None:
        self.folder = folder
        self.secret = key
        self.max_bytes = max_bytes
        self.keep_bytes = keep_bytes
        # the temporary files a killed write left are removed at an unbounded store's first
        # write of a run (a bounded one's, when it is pruned), not here: listing a folder of
        # thousands of entries cost every run that only reads ~4 ms
        self._swept = keep_bytes is not None
        self._pruned = False  # by this store, in this run (when no ledger counts: `_noted`)
        self._written = 0  # bytes written since this store last pruned

    @classmethod
    def open(cls, name: str, max_bytes: int, keep_bytes: int | None = None) -> SignedStore | None:
        """The user's store `name`, or None when its folder or key cannot be trusted.
        `keep_bytes`: the store's entries are pruned to that many bytes, oldest written
        first, each time a quarter of it has been written since the last pruning, by this
        run or earlier ones (`LEDGER`; a store keyed by content gains an entry at each edit:
        an editor checking as one types filled it without end); None: the caller bounds the
        store itself (the build cache, the preview's pages)."""
        folder = cache_dir(name)
        key = folder_key(folder) if folder else None
        return cls(folder, key, max_bytes, keep_bytes) if folder and key else None

    def _mac(self, name: str, payload: bytes) -> bytes:
        signed = hmac.new(self.secret, name.encode() + b"\0", hashlib.sha256)
        signed.update(payload)  # not joined to the name first: a copy of the payload
        return signed.digest()

    def read(self, name: str) -> bytes | None:
        """The payload of entry `name`; None when absent, not ours or not signed by us."""
        parts = read_private_parts(self.folder / name, self.max_bytes + MAC_BYTES, MAC_BYTES)
        if parts is None or len(parts[0]) < MAC_BYTES or len(parts[1]) > self.max_bytes:
            return None
        mac, payload = parts
        return payload if hmac.compare_digest(mac, self._mac(name, payload)) else None

    def write(self, name: str, payload: bytes) -> bool:
        """Sign and store `payload` as entry `name`; False (and nothing left behind) when the
        folder cannot be written or the payload is too large to keep."""
        if len(payload) > self.max_bytes:
            return False
        if not self._swept:
            self._swept = True
            remove_stale_entries(self.folder)
        import tempfile  # on a write only (see `_make_key`)

        try:
            fd, tmp = tempfile.mkstemp(prefix=".entry.", dir=self.folder)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(self._mac(name, payload))
                handle.write(payload)
            # the entry it replaces is taken away first: ext4 allocates and starts writing out
            # a file renamed over another at once (`auto_da_alloc`, which guards files renamed
            # in place against a crash), 4-12 ms a `validate` of a card edit for its two
            # entries; a reader meanwhile finds none, as in a cache emptied (a miss)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.folder / name)
            os.replace(tmp, self.folder / name)
        except BaseException as exc:  # Ctrl-C too: the temporary file is not left behind
            with contextlib.suppress(OSError):
                Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError):
                return False
            raise
        if self.keep_bytes is not None:
            self._noted(MAC_BYTES + len(payload), self.keep_bytes)
        return True

    def _noted(self, size: int, keep_bytes: int) -> None:
        """Note `size` bytes written in the store's ledger (`LEDGER`), and prune the store when
        a `1/PRUNE_SHARE` of its bound has been written since it was last pruned, or when it
        has no ledger (a store made before, or one whose ledger went: pruned now to be sure)."""
        ledger = os.path.join(self.folder, LEDGER)
        kib = -(-size // 1024)
        self._written += size
        try:
            info = os.lstat(ledger)
        except OSError:
            info = None
        # a file of its own: a hard link to one of the user's files would get the bytes
        # appended through it (probe70-5), a link or folder is no ledger
        own = info is not None and stat.S_ISREG(info.st_mode) and info.st_nlink == 1
        noted = info.st_size if info is not None and own else None
        if noted is not None and (noted + kib) * 1024 <= keep_bytes // PRUNE_SHARE:
            try:
                fd = os.open(ledger, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
                try:
                    if os.write(fd, bytes(kib)) == kib:
                        return
                finally:
                    os.close(fd)
            except OSError:  # a ledger that cannot count (its mode changed, a full disk)
                pass
        elif noted is not None or not self._pruned:
            self._prune_now()  # a quarter written since, or no ledger: one is made anew
            return
        # no ledger counts (one that is no file, or cannot be written, not made anew by a
        # pruning): pruned at this store's first write of the run, then each quarter of the
        # bound the run writes, as before the ledger; a folder named so made every write
        # list the store (probe70-2)
        if not self._pruned or self._written > keep_bytes // PRUNE_SHARE:
            self._prune_now()

    def _prune_now(self) -> None:
        self._pruned = True
        self._written = 0
        self.prune()

    def prune(self) -> None:
        """Keep at most `keep_bytes` of entries, the ones written last (a miss rewrites an
        entry pruned while still in use, so it is then among the newest)."""
        if self.keep_bytes is None:
            return
        remove_stale_entries(self.folder)  # what killed writes left (a listing: not each run)
        ledger = os.path.join(self.folder, LEDGER)
        with contextlib.suppress(OSError):  # a new ledger, empty (none truncated: see write)
            os.unlink(ledger)
        with contextlib.suppress(OSError):
            os.close(os.open(ledger, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
        with contextlib.suppress(OSError):
            # each entry's `lstat` asked of the listing's own entry, not of a path made of
            # it (the same system call; ~250 entries: ~3 ms that way, half so). One folder:
            # its paths sort as their names.
            entries = []
            with os.scandir(self.folder) as listing:
                for entry in listing:
                    if entry.name in (KEY_FILE, LEDGER) or entry.name.startswith(TEMPORARY):
                        continue
                    with contextlib.suppress(OSError):
                        info = entry.stat(follow_symlinks=False)
                        entries.append((info.st_mtime_ns, info.st_size, entry.path))
            _prune_oldest(entries, self.keep_bytes)


PRUNE_SHARE = 4
"""A store is pruned again once a `1/PRUNE_SHARE` of its `keep_bytes` has been written since
the last pruning: it holds at most that much over its bound."""
LEDGER = ".written"
"""A bounded store's note of what was written since it was last pruned: one byte a KiB
begun of each entry written, appended (its size is the count, one `lstat` to read). Pruning
lists and stats every entry: the validate files' store gains three entries at each card
edit, and pruned at every run's first write its thousands of entries after a long editing
session cost each edit's `validate` several milliseconds. An empty ledger is made at each
pruning; one missing means prune (a store of an older Playset, a ledger removed). Appended,
never truncated and rewritten (ext4 writes such a file out at once, `auto_da_alloc`); two
runs appending at once each count their own bytes."""
TEMPORARY = ".entry."  # the prefix of SignedStore.write's temporary files


def remove_stale_entries(folder: Path) -> int:
    """Remove the temporary files a killed write left in the store `folder` (regular files
    named `.entry.*` older than stale_files.STALE_SECONDS; a write takes milliseconds); how many."""
    return remove_stale(folder, lambda name: name.startswith(TEMPORARY))
