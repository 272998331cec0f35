"""Write output files safely: a temporary file beside the target, then a rename.

A crash or a refusal half-way never leaves a half-written file where a good one was. The
target decides how it is written (design.md, "Rendering"):

- a missing path or a regular file: a uniquely named temporary file (O_EXCL, so never a
  planted one) in the same folder, then a rename; a new file gets the umask's mode, a
  replaced file keeps its own;
- a symlink to a regular file: its target is replaced the same way, the link stays;
- a character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe): written into, never
  replaced; a FIFO with no reader is refused instead of blocking;
- a folder, a block device, a socket, a dangling link: refused with a clear message.

Parent folders are never created here: callers that own an output folder make it
(`output_folder`), so a path like `/nonexistent/dir/x.pdf` is refused, not created.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path


class OutputError(OSError):
    """A target that cannot or must not be written; the message says why, for the user."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(errno.EPERM, reason, str(path))
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.reason}"


def describe(exc: OSError) -> str:
    """One line for the user from any OSError a write raised."""
    if isinstance(exc, OutputError):
        return str(exc)
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot write{where}: {exc.strerror or exc}"


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def check_target(path: Path) -> None:
    """Refuse early (before minutes of work) a target that `write_many` would refuse: the
    plan, and for a file to replace, a uniquely named probe created and removed beside it
    (a folder can look writable and still refuse files: /proc, a read-only mount)."""
    how, target = _plan(Path(path))
    if how == "replace":
        os.unlink(_stage(target, b""))


def _plan(path: Path) -> tuple[str, Path]:
    """('replace', file to replace or create) or ('into', path to open and write into)."""
    try:
        link = os.lstat(path)
    except FileNotFoundError:
        parent = path.parent
        if not parent.is_dir():
            raise OutputError(path, f"folder {parent} does not exist") from None
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OutputError(path, f"folder {parent} is not writable") from None
        return "replace", path
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    try:
        info = os.stat(path)
    except OSError:
        raise OutputError(path, "it is a symlink to a missing file") from None
    mode = info.st_mode
    if stat.S_ISREG(mode):
        real = Path(os.path.realpath(path)) if stat.S_ISLNK(link.st_mode) else path
        if not os.access(real.parent, os.W_OK | os.X_OK):
            raise OutputError(path, f"folder {real.parent} is not writable")
        return "replace", real
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "into", path
    if stat.S_ISDIR(mode):
        raise OutputError(path, "it is a folder")
    kind = "block device" if stat.S_ISBLK(mode) else "socket" if stat.S_ISSOCK(mode) else "file"
    raise OutputError(path, f"it is a {kind}, not a regular file")


def _write_into(path: Path, data: bytes) -> None:
    """Write into a device or FIFO without creating, truncating or replacing it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputError(path, "it is a FIFO with no reader") from None
        raise
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def _stage(target: Path, data: bytes) -> str:
    """A unique temporary file beside `target` holding `data`, with the final mode."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _umask_mode()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        reason = f"no file can be created in {target.parent} ({exc.strerror or exc})"
        raise OutputError(target, reason) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(target, exc.strerror or str(exc)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def write_many(files: Sequence[tuple[Path, bytes]]) -> None:
    """Write several files together: every one is staged before any is replaced, so a
    refusal or a full disk leaves all the old ones (one game-language's PDFs, say)."""
    planned = [(_plan(Path(path)), data) for path, data in files]
    staged: list[tuple[str, Path]] = []
    try:
        for (how, target), data in planned:
            if how == "replace":
                staged.append((_stage(target, data), target))
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    for tmp, target in staged:
        os.replace(tmp, target)
    for (how, target), data in planned:
        if how == "into":
            _write_into(target, data)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    write_many([(Path(path), data)])


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def output_folder(root: Path, *parts: str) -> Path:
    """`root/parts…`, made if missing: `root` only when its own parent exists (no folders
    are made outside it), the parts inside it; refused if a part leads outside `root`."""
    root = Path(root)
    if not root.is_dir():
        if root.exists() or root.is_symlink():
            raise OutputError(root, os.strerror(errno.ENOTDIR))
        if not root.parent.is_dir():
            raise OutputError(root, f"folder {root.parent} does not exist")
        try:
            root.mkdir(exist_ok=True)
        except OSError as exc:
            raise OutputError(root, exc.strerror or str(exc)) from None
    folder = root.joinpath(*parts)
    base = root.resolve()
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            real = current.resolve()
            if not current.is_dir() or not real.is_relative_to(base):
                raise OutputError(current, f"it is not a folder inside {root}")
        try:
            current.mkdir(exist_ok=True)
        except OSError as exc:
            raise OutputError(current, exc.strerror or str(exc)) from None
    return folder


class InputError(ValueError):
    """A source file that cannot be read as text: too large, not UTF-8, unreadable."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.col = col


def read_bounded(path: Path, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a regular file (a FIFO, a device or `/dev/zero` behind
    a link is refused, not waited on or read without end); raises OSError."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read(limit + 1)
    finally:
        os.close(fd)


def read_text(path: Path, limit: int) -> str:
    """A UTF-8 text file of at most `limit` bytes, read no further than that (a huge or
    endless file is refused without being read whole)."""
    try:
        raw = read_bounded(path, limit)
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise InputError(f"the file is larger than the limit of {limit:,} bytes")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise InputError(
            f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save as UTF-8", line, col
        ) from None


def real_path(path: Path) -> Path:
    """The absolute path with symlinks followed, like Path.resolve(), but a symlink loop
    gives the looping path instead of raising RuntimeError (Python 3.11): the caller's own
    existence or containment check then refuses it with a diagnostic."""
    return Path(os.path.realpath(path))
