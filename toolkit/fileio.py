"""Write output files safely: a temporary file beside the target, then a rename.

A crash or a refusal half-way never leaves a half-written file where a good one was. The
target decides how it is written (docs/architecture.md, the `fileio.py` room):

- a missing path or a regular file: a uniquely named temporary file (O_EXCL, so never a
  planted one) in the same folder, then a rename; a new file gets the umask's mode, a
  replaced file keeps its own;
- a symlink to a regular file: its target is replaced the same way, the link stays;
- a character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe): written into, never
  replaced; a FIFO with no reader is refused instead of blocking;
- a folder, a block device, a socket, a dangling link: refused with a clear message.

Inside an output folder the toolkit fills (`inside=`: `output/`, `--out`), no link is
followed that the toolkit did not make: a symlink where a file or a folder below that
folder would be (`output/<game>/en/cards.pdf -> ~/notes`) is refused, not written through;
the folders are opened one by one without following links (O_NOFOLLOW) and the file is
staged and renamed by name in the open folder, so a folder swapped for a link after the
checks is not followed either.

`build` and the exports hold their output folder open once (`hold_output_root`, a
`HeldFolder`): every folder below it is made, every file written and every stale image
removed from that descriptor, never by the folder's path again, so the output folder
exchanged for a link mid-run is not followed; an output folder, or a game folder written
into, that another user may rename (`others_may_move`, asked of root too) is refused.

Parent folders are never created by a write: callers that own an output folder make it
(`output_folder`, `make_output_root` for the folder a user names, `make_parents` for the
folders above a file inside the current folder), so a path like `/nonexistent/dir/x.pdf` is
refused, not created.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.stale_files import remove_stale


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


class StdoutError(OSError):
    """Writing the command's own standard output failed (a full disk, /dev/full, an I/O
    error): the command line says so in one line, where any other OSError is a bug."""


class _StdoutFile(io.FileIO):
    """The raw file under a command's stdout: a failed write raises StdoutError. A reader
    that stopped reading (`| head -1`, `| true`: a broken pipe) is no failure: what is
    written from then on goes to /dev/null and the command ends with its own exit code
    (it was 1 or 0 depending on whether a write came after the reader had gone)."""

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except BlockingIOError:
            raise
        except OSError as exc:
            if exc.errno == errno.EPIPE and self._to_null():
                return memoryview(data).nbytes
            raise StdoutError(exc.errno, exc.strerror) from None

    def _to_null(self) -> bool:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
        except OSError:
            return False
        try:
            os.dup2(null, self.fileno())
            return True
        except OSError:
            return False
        finally:
            os.close(null)


def is_stdout_stream(stream: Any) -> bool:
    """Whether `stream` is one `stdout_stream` made (the command line's stdout)."""
    return isinstance(getattr(getattr(stream, "buffer", None), "raw", None), _StdoutFile)


def stdout_stream(fd: int, like: Any, closefd: bool = False) -> io.TextIOWrapper:
    """A text stream on `fd` encoded as the stream `like`, whose failed writes raise
    StdoutError (told apart from a bug's OSError by the command line)."""
    return io.TextIOWrapper(
        io.BufferedWriter(_StdoutFile(fd, "w", closefd=closefd)),
        encoding=getattr(like, "encoding", None) or "utf-8",
        errors=getattr(like, "errors", None) or "strict",
        line_buffering=bool(getattr(like, "line_buffering", False)),
    )


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def check_target(path: Path, base: Path | None = None) -> None:
    """Refuse early (before minutes of work) a target that `write_many` would refuse: the
    plan, and for a file to replace, a uniquely named probe created and removed beside it
    (a folder can look writable and still refuse files: /proc, a read-only mount). With
    `base`, missing folders that `make_parents(path, base)` would make are no refusal."""
    path = Path(path)
    if base is not None and _missing_inside(path.parent, base):
        return
    plan = _plan(path, None)
    try:
        if plan.how == "replace":
            os.unlink(_stage(plan, b""), dir_fd=plan.folder)
    finally:
        os.close(plan.folder)


@dataclass(frozen=True)
class _Plan:
    """How one file is written: 'replace' (stage beside it, then rename over `name`) or
    'into' (open and write into it), by name in an open folder, so a folder swapped for a
    link after the checks is not followed."""

    how: str
    folder: int  # an open file descriptor on the folder that holds `name`
    name: str
    path: Path  # as the messages name it


def _plan(path: Path, inside: Path | HeldFolder | None, within: Path | None = None) -> _Plan:
    """The plan for `path`; the caller closes `.folder`. Under `inside` (an output folder
    the toolkit fills) no link is followed: not the file, not a folder between the two.
    With `within` (the game folder a command edits), the folder the file is written in must
    lie inside it, as the kernel names the folder opened: a game file switched to a link
    out of the game after it was read is refused, not written through."""
    if inside is not None and _is_under(path, inside):
        folder = _open_inside(inside, path)
        try:
            return _plan_inside(folder, path)
        except BaseException:
            os.close(folder)
            raise
    how, target = _plan_path(path)
    try:
        folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    if within is not None and not _folder_inside(folder, target.parent, real_path(within)):
        os.close(folder)
        raise OutputError(path, LEADS_OUTSIDE + " (a link): it is not written through")
    return _Plan(how, folder, target.name, path)


def _folder_inside(fd: int, folder: Path, root: Path) -> bool:
    """Whether the folder open as `fd` lies inside `root` (the folder the file is renamed
    in, by name: what is at the name itself is replaced, never followed)."""
    try:
        where = Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        where = real_path(folder)
    return where.is_relative_to(root)


def _is_under(path: Path, root: Path | HeldFolder) -> bool:
    return Path(os.path.abspath(path)).is_relative_to(os.path.abspath(root))


LINK_REFUSED = (
    "it is a symbolic link inside the output folder; the toolkit writes no file through a"
    " link it did not make (remove the link)"
)


class HeldFolder(os.PathLike[str]):
    """A folder held open by a descriptor (`fd`, the caller's to close), named `path` in
    messages: as `inside=` of a write, the file is written below the folder the descriptor
    holds, reached from it without following a link, whatever `path` names by then (`new`
    holds the game folder it made: one exchanged for a link afterwards is not followed)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = Path(path)
        self.fd = fd

    def __fspath__(self) -> str:
        return os.fspath(self.path)

    def __truediv__(self, part: str | os.PathLike[str]) -> Path:
        return self.path / part  # a path below it, for messages and for `inside=` writes

    def __str__(self) -> str:
        return str(self.path)

    def __repr__(self) -> str:
        return f"HeldFolder({str(self.path)!r}, fd={self.fd})"

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> HeldFolder:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _open_inside(root: Path | HeldFolder, path: Path) -> int:
    """An open descriptor on `path`'s folder, reached from `root` one folder at a time
    without following a link (`root` itself may be one: the user named it; a HeldFolder is
    not opened again by its path)."""
    parts = Path(os.path.abspath(path)).parent.relative_to(os.path.abspath(root)).parts
    return _open_below(root, parts, path)


def _open_below(
    root: Path | HeldFolder, parts: Sequence[str], path: Path, make: bool = False
) -> int:
    """An open descriptor on `root/parts…`, each part reached without following a link;
    with `make`, a missing part is made (in the folder opened above it, never by path)."""
    try:
        if isinstance(root, HeldFolder):
            fd = os.dup(root.fd)  # not inherited by a child, as O_CLOEXEC
        else:
            fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise OutputError(path, f"folder {root} does not exist") from None
    except OSError as exc:
        raise OutputError(Path(root), exc.strerror or str(exc)) from None
    current = Path(root)
    try:
        for part in parts:
            current = current / part
            if part == "..":
                raise OutputError(path, f"it is not inside {root}")
            try:
                try:
                    info = os.stat(part, dir_fd=fd, follow_symlinks=False)
                except FileNotFoundError:
                    if not make:
                        raise
                    with contextlib.suppress(FileExistsError):  # made meanwhile: opened
                        os.mkdir(part, 0o777, dir_fd=fd)
                    info = os.stat(part, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISLNK(info.st_mode):
                    raise OutputError(current, LINK_REFUSED)
                flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
                child = os.open(part, flags, dir_fd=fd)
            except FileNotFoundError:
                raise OutputError(path, f"folder {current} does not exist") from None
            except OSError as exc:
                if isinstance(exc, OutputError):
                    raise
                reason = LINK_REFUSED if exc.errno == errno.ELOOP else exc.strerror or str(exc)
                if exc.errno == errno.ENOTDIR:
                    reason = f"it is not a folder inside {root}"
                raise OutputError(current, reason) from None
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_folder_inside(root: Path | HeldFolder, folder: Path) -> int | None:
    """An open descriptor on `folder` (below the output folder `root`, or `root` itself),
    reached one folder at a time without following a link; None when it is gone or a link
    now. What is removed by name in it is then removed there, never in a folder a link
    switched in after a listing names."""
    try:
        return _open_inside(root, Path(folder) / "_")
    except OutputError:
        return None


def remove_inside(root: Path | HeldFolder, path: Path, *, folders_only: bool = False) -> bool:
    """Remove the regular file, or the empty folder, at `path` below the output folder
    `root`, in its folder reached without following a link (`open_folder_inside`); a link,
    anything else, or a path gone meanwhile is left alone. Whether something was removed."""
    folder = open_folder_inside(root, Path(path).parent)
    if folder is None:
        return False
    name = Path(path).name
    try:
        mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
        if stat.S_ISREG(mode) and not folders_only:
            os.unlink(name, dir_fd=folder)
        elif stat.S_ISDIR(mode):
            os.rmdir(name, dir_fd=folder)  # only an empty one: a link is no folder here
        else:
            return False
    except OSError:  # gone, not empty, or not ours to remove: left as it is
        return False
    finally:
        os.close(folder)
    return True


def _plan_inside(folder: int, path: Path) -> _Plan:
    try:
        info = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return _Plan("replace", folder, path.name, path)
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        raise OutputError(path, LINK_REFUSED)
    if stat.S_ISREG(mode):
        return _Plan("replace", folder, path.name, path)
    # A device or FIFO is written into only where the user names it (`--json /dev/stdout`):
    # below an output folder one can only have come with a game folder unpacked as root,
    # and would lead the write to a terminal, a log or a disk.
    raise OutputError(path, not_regular(mode))


def not_regular(mode: int) -> str:
    """What a file that is not a regular one is, said for the user ("it is a FIFO, not a
    regular file")."""
    if stat.S_ISDIR(mode):
        return "it is a folder"
    kinds = {stat.S_ISBLK: "block device", stat.S_ISCHR: "character device"}
    kinds |= {stat.S_ISFIFO: "FIFO", stat.S_ISSOCK: "socket"}
    kind = next((name for test, name in kinds.items() if test(mode)), "file")
    return f"it is a {kind}, not a regular file"


def _plan_path(path: Path) -> tuple[str, Path]:
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
    raise OutputError(path, not_regular(mode))


def _open_into(plan: _Plan) -> int:
    """Open a device or FIFO to write into (before any file is replaced, so a FIFO with no
    reader refuses the whole write, not only its own part)."""
    flags = os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        return os.open(plan.name, flags, dir_fd=plan.folder)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputError(plan.path, "it is a FIFO with no reader") from None
        raise OutputError(plan.path, exc.strerror or str(exc)) from None


def _write_into(plan: _Plan, fd: int, data: bytes) -> None:
    """Write into a device or FIFO without creating, truncating or replacing it; closes
    `fd`."""
    path = plan.path
    try:
        if not (stat.S_ISCHR(os.fstat(fd).st_mode) or stat.S_ISFIFO(os.fstat(fd).st_mode)):
            raise OutputError(path, "it changed while being written")
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        if isinstance(exc, OutputError):
            raise
        raise OutputError(path, exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def _stage(plan: _Plan, data: bytes) -> str:
    """A unique temporary file beside the target (in its open folder) holding `data`, with
    the final mode; its name, relative to `plan.folder`."""
    target = plan.path
    group: int | None = None
    try:
        old = os.stat(plan.name, dir_fd=plan.folder)
        mode, group = stat.S_IMODE(old.st_mode), old.st_gid
    except OSError:
        mode = _umask_mode()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    import secrets  # on a write only: a command that writes nothing never imports it

    for _ in range(100):
        tmp = f".{plan.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o600, dir_fd=plan.folder)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            folder = Path(target).parent
            reason = f"no file can be created in {folder} ({exc.strerror or exc})"
            raise OutputError(target, reason) from None
    else:
        raise OutputError(target, "no unique temporary name beside it")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if group is not None and group != os.fstat(handle.fileno()).st_gid:
                # a file a team shares by its group stays theirs (the writer's own group
                # would shut them out); a group we are not in is left as the system gives
                with contextlib.suppress(OSError):
                    os.fchown(handle.fileno(), -1, group)
            os.fchmod(handle.fileno(), mode)
    except OSError as exc:
        _unlink(plan.folder, tmp)
        raise OutputError(target, exc.strerror or str(exc)) from None
    except BaseException:
        _unlink(plan.folder, tmp)
        raise
    return tmp


def _unlink(folder: int, name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=folder)


def write_many(
    files: Sequence[tuple[Path, bytes]],
    *,
    inside: Path | HeldFolder | None = None,
    on_staged: Callable[[list[tuple[Path, Path]]], None] | None = None,
    within: Path | None = None,
) -> None:
    """Write several files together: every one is staged before any is replaced, so a
    refusal or a full disk leaves all the old ones (one game-language's PDFs, say).
    `on_staged` is told each (temporary file, target) once all are staged, before the
    first rename (`toolkit.journal` records them).

    A file under `inside` (the output folder the toolkit fills: `output/`, `--out`) is
    written without following a link: a symlink in its place, or in place of a folder
    between `inside` and it, is refused (OutputError), never written through. With `within`
    (a game folder the command edits) every file is written in a folder inside it: a link
    that leads out of the game is refused, one that stays inside is written through."""
    if within is not None:
        refuse_unsafe_game(within)
    plans: list[tuple[_Plan, bytes]] = []
    staged: list[tuple[_Plan, str]] = []
    into: list[tuple[_Plan, int, bytes]] = []
    try:
        for path, data in files:
            plans.append((_plan(Path(path), inside, within), data))
        try:
            for plan, data in plans:
                if plan.how == "replace":
                    staged.append((plan, _stage(plan, data)))
                else:
                    into.append((plan, _open_into(plan), data))
            if on_staged is not None:
                on_staged([_staged_paths(plan, tmp) for plan, tmp in staged])
        except BaseException:
            for plan, tmp in staged:
                _unlink(plan.folder, tmp)
            raise
        _put_in_place(staged)
        while into:
            plan, fd, data = into.pop(0)
            _write_into(plan, fd, data)
    finally:
        for _, fd, _ in into:
            os.close(fd)
        for plan, _ in plans:
            os.close(plan.folder)


def refuse_unsafe_game(root: Path) -> None:
    """Refuse (OutputError) to write into the game folder `root` when another user may
    rename it, or put another folder in its place: it lies in a folder that is not the
    user's alone (`others_may_move`, root asked whose folders they are too). Its files are
    written by path from it: exchanged for a link to another folder of the user's between
    the read and the writes (one `renameat2`), the fixed files were written there. Root is
    no exception: the owner of a folder above a game root edits (a user's home) may
    exchange the game for a link to a folder of root's, and root's writes went there."""
    if why := others_may_move(Path(root)):
        raise OutputError(
            root,
            f"the game folder lies in a folder that is not yours alone ({why}), where"
            " another user could exchange it for a link while it is written: move the game"
            " to a folder of your own",
        )


def _put_in_place(staged: list[tuple[_Plan, str]]) -> None:
    """Rename every staged file over its target. One that cannot be (a folder made at its
    name since it was planned: a race) does not stop the others, its staged file is removed,
    and the error names each such file: no staged file stays behind."""
    failed: list[tuple[_Plan, OSError]] = []
    for plan, tmp in staged:
        try:
            os.replace(tmp, plan.name, src_dir_fd=plan.folder, dst_dir_fd=plan.folder)
        except OSError as exc:
            _unlink(plan.folder, tmp)
            failed.append((plan, exc))
    if failed:
        first, error = failed[0]
        others = f" (and {len(failed) - 1} other file(s))" if len(failed) > 1 else ""
        reason = f"it could not be put in place: {error.strerror or error}{others}"
        raise OutputError(first.path, reason) from error


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP while a set's renames run, then act on the first one
    that came: an interrupt between two renames (hundreds of images) left a set part new,
    part old, and every staged file not yet renamed. Main thread only (where Python runs
    its signal handlers); the renames take milliseconds."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            previous[number] = signal.signal(number, lambda signum, _: caught.append(signum))
        except (ValueError, OSError):
            continue
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if caught:
            signal.raise_signal(caught[0])  # its own handler, now back, runs


class StagedSet:
    """Files of one set (an export's images of one language) staged beside their targets
    as they are made, then renamed into place together when the `with` block ends without
    an exception: one that fails (a full disk, an image over its limit) or is interrupted
    half-way removes what it staged and leaves the old set whole, as `write_many` does for
    files held in memory together (hundreds of images need not be). Every file lies under
    `inside`, written without following a link (as `write_many(…, inside=…)`); `inside` is
    opened once (a HeldFolder as it is: held by the caller), and every folder of the set is
    made and opened from that descriptor, never again by its path: the output folder
    exchanged for a link while the set is made is not followed."""

    def __init__(self, inside: Path | HeldFolder) -> None:
        self.inside = inside if isinstance(inside, HeldFolder) else Path(inside)
        self._held: HeldFolder | None = inside if isinstance(inside, HeldFolder) else None
        self._own = False  # whether `_held` is ours to close
        self._folders: dict[str, int] = {}  # an open descriptor per folder written in
        self._staged: list[tuple[_Plan, str]] = []
        self._made: list[tuple[str, ...]] = []  # folders made for the set (below `inside`)
        self._made_root: list[Path] = []  # `inside` and its parents, when the set made them

    def _root(self) -> HeldFolder:
        if self._held is None:
            root = Path(self.inside)
            missing = missing_folders(root)
            output_folder(root)  # made when its parent exists
            self._made_root = missing
            try:
                fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError as exc:
                raise OutputError(root, exc.strerror or str(exc)) from None
            self._held, self._own = HeldFolder(root, fd), True
        return self._held

    def add(self, path: Path, data: bytes) -> None:
        """Stage `path`'s new bytes, making its folders inside `inside` (OutputError when it
        cannot be written)."""
        path = Path(path)
        if not _is_under(path, self.inside):
            raise OutputError(path, f"it is not inside {self.inside}")
        key = os.path.abspath(path.parent)
        folder = self._folders.get(key)
        if folder is None:
            root = self._root()
            parts = Path(key).relative_to(os.path.abspath(root)).parts
            for made in missing_below(root, parts):
                if made not in self._made:
                    self._made.append(made)
            folder = self._folders[key] = _open_below(root, parts, path, make=True)
        plan = _plan_inside(folder, path)
        self._staged.append((plan, _stage(plan, data)))

    def __enter__(self) -> StagedSet:
        return self

    def _before_renames(self, staged: list[tuple[_Plan, str]]) -> None:
        """Told every staged file before the first rename (a journal lists them:
        toolkit.journal.JournaledSet)."""

    def _after_renames(self) -> None:
        """Told once the renames are over, each file in place or its staged file removed."""

    def _opened(self, folder: Path) -> int:
        """A descriptor (the caller's to close) on `folder`, below `inside`, opened from the
        set's own descriptor without following a link (OutputError)."""
        root = self._root()
        parts = Path(os.path.abspath(folder)).relative_to(os.path.abspath(root)).parts
        return _open_below(root, parts, Path(folder) / "_")

    def __exit__(self, kind: object, exc: object, trace: object) -> None:
        whole = False
        try:
            if kind is None:
                with _signals_held():
                    self._before_renames(self._staged)
                    staged, self._staged = self._staged, []
                    try:
                        _put_in_place(staged)  # leaves no staged file, even when it fails
                    finally:
                        self._after_renames()
                    whole = True
        finally:
            for plan, tmp in self._staged:  # not renamed: an error, or one rename failed
                with contextlib.suppress(OSError):
                    _unlink(plan.folder, tmp)
            self._staged.clear()
            for fd in self._folders.values():
                os.close(fd)
            self._folders.clear()
            if not whole and self._held is not None:  # the set failed: no empty folder stays
                remove_empty_below(self._held, self._made)
            self._made.clear()
            if self._own and self._held is not None:
                self._held.close()
                self._held = None
            if not whole:
                remove_made(self._made_root)
            self._made_root = []


def missing_below(root: Path | HeldFolder, parts: Sequence[str]) -> list[tuple[str, ...]]:
    """The folders `root/parts…` that are missing, outermost first, each as its parts below
    `root` (looked at from `root`'s descriptor when held): for `remove_empty_below` to take
    back when what was to be written in them fails."""
    missing: list[tuple[str, ...]] = []
    try:
        fd = _open_below(root, (), Path(root) / "_")
    except OutputError:
        return missing
    try:
        for i, part in enumerate(parts):
            try:
                child = os.open(
                    part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd
                )
            except FileNotFoundError:
                return [tuple(parts[: j + 1]) for j in range(i, len(parts))]
            except OSError:
                return missing
            os.close(fd)
            fd = child
    finally:
        os.close(fd)
    return missing


def remove_empty_below(root: Path | HeldFolder, made: Sequence[tuple[str, ...]]) -> None:
    """Remove the folders `missing_below` listed (innermost first), each only if empty and
    in the folder above it reached from `root` without following a link."""
    for parts in sorted(made, key=len, reverse=True):
        if not parts:
            continue
        try:
            fd = _open_below(root, parts[:-1], Path(root).joinpath(*parts))
        except OutputError:
            continue
        try:
            os.rmdir(parts[-1], dir_fd=fd)  # only an empty one: a file that came keeps it
        except OSError:
            pass
        finally:
            os.close(fd)


def _staged_paths(plan: _Plan, tmp: str) -> tuple[Path, Path]:
    """A staged file and its target as absolute paths (a link's target, as it is replaced)."""
    real = Path(os.path.realpath(plan.path))
    return real.parent / tmp, real.parent / plan.name


def atomic_write_bytes(path: Path, data: bytes, *, inside: Path | HeldFolder | None = None) -> None:
    write_many([(Path(path), data)], inside=inside)


def atomic_write_text(path: Path, text: str, *, inside: Path | HeldFolder | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), inside=inside)


def _missing_inside(folder: Path, base: Path) -> list[Path] | None:
    """The missing folders of `folder`, outermost first, if there are some and they would all
    be made inside `base` (its deepest existing folder is in `base` once links are followed,
    and no missing part is `..`); else None."""
    folder = Path(folder) if Path(folder).is_absolute() else Path.cwd() / folder
    missing: list[Path] = []
    current = folder
    while not current.exists() and not current.is_symlink():
        if current.name in ("", "..") or current.parent == current:
            return None
        missing.insert(0, current)
        current = current.parent
    if not missing or not current.is_dir():
        return None
    if not real_path(current).is_relative_to(real_path(Path(base))):
        return None
    return missing


def make_parents(path: Path, base: Path) -> None:
    """Make the missing folders above output file `path` when they all lie inside `base`
    (the current folder: `--json runs/today/x.json` makes `runs/today`); elsewhere nothing
    is made, and the write refuses the path as before."""
    for folder in _missing_inside(Path(path).parent, base) or []:
        try:
            folder.mkdir(exist_ok=True)
        except OSError as exc:
            raise OutputError(folder, exc.strerror or str(exc)) from None


def make_output_root(root: Path, named: bool = True) -> Path:
    """The output folder (`--out`, or `./output`), made with its parents when missing; what
    is made below it goes through `output_folder`. A link is followed only when the user
    named it: `./output` as a link may come with a game folder from someone else."""
    root = Path(root)
    if not named and root.is_symlink():
        raise OutputError(root, "it is a symbolic link no --out named (a game may bring one)")
    if why := _not_a_folder(root, named):
        raise OutputError(root, why)
    refuse_shared_output(root)
    if root.is_dir():
        return root
    if root.exists() or root.is_symlink():
        raise OutputError(root, os.strerror(errno.ENOTDIR))
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(exc.filename or root, exc.strerror or str(exc)) from None
    return root


def _not_a_folder(root: Path, named: bool = True) -> str | None:
    """Why `root` can be no output folder, whoever owns the folders above it: it, or the
    nearest path above it that is there, is a file; or a name in it is too long. Asked
    first, these were said as a folder "not yours alone" (its owner could not be looked at,
    probe 30)."""
    for step in (root, *root.parents):
        try:
            info = os.stat(step)
        except (FileNotFoundError, NotADirectoryError):
            continue  # to be made, or below a file: said at that file
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:
                longest = max(len(os.fsencode(part)) for part in root.parts)
                return f"its name is too long for the system (a name of {longest:,} bytes)"
            return None  # said by the checks that follow
        if stat.S_ISDIR(info.st_mode):
            return None
        what = "it is" if step == root else f"{step} is"
        fix = "--out names the folder the output goes in" if named else "name a folder (--out)"
        return f"{what} a file, not a folder: {fix}"
    return None


def refuse_shared_output(root: Path) -> None:
    """Refuse (OutputError) an output folder another user may rename, or put theirs in the
    place of: it, or a folder above it, is not the user's alone (`others_may_move`, root
    asked whose folders they are too, as for a game it edits). Exchanged for a link to
    another folder of the user's while a build or an export writes, the files went there,
    and an export's clean-up deleted that folder's images."""
    if why := others_may_move(Path(root) / "_"):
        raise OutputError(
            root,
            f"the output folder lies in a folder that is not yours alone ({why}), where"
            " another user could exchange it for a link while it is written: name a folder"
            " of your own (--out)",
        )


def refuse_shared_file(path: Path) -> None:
    """Refuse (OutputError) an output file (`--json`, `--pdf`, `i18n export --out`) whose
    folder another user may rename, or put theirs in the place of: that folder, or one above
    it, is not the user's alone (`others_may_move`, as `refuse_shared_output` asks of an
    output folder). The file is written by its path at the end of the run: the folder
    exchanged for a link to another folder of the user's meanwhile, the user's same-named
    file there was replaced."""
    if why := others_may_move(Path(path)):
        raise OutputError(
            path,
            f"it lies in a folder that is not yours alone ({why}), where another"
            " user could exchange it for a link while it is written: write in a"
            " folder of your own",
        )


def hold_output_root(root: Path, named: bool = True) -> HeldFolder:
    """The output folder as `make_output_root` makes it, held open (the caller closes it):
    every folder and file below it is then made, written and removed from that descriptor,
    so the folder exchanged for a link mid-run (by its parent's owner) is never followed."""
    root = make_output_root(root, named)
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | (0 if named else os.O_NOFOLLOW)
    try:
        return HeldFolder(root, os.open(root, flags))
    except OSError as exc:
        reason = LINK_REFUSED if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        raise OutputError(root, reason) from None


def refuse_over_game(
    out: Path, game_id: str, game_root: Path, langs: Sequence[str], export: str | None = None
) -> None:
    """Refuse (OutputError) an output folder whose folders for the game (`<out>/<game id>`
    and `<out>/<game id>/<lang>`, where `build` writes its PDFs and the exports write and
    then remove the images this run did not write) include the game folder `game_root`
    itself, or any other game folder (one holding a game.yaml: a copy of the game, with its
    id): `export png --out .` from the folder holding the game made `<out>/<id>/<lang>/png`
    a folder of the game, and the clean-up deleted the designer's own pictures there. (A
    game kept below those folders is left alone by the clean-up: it holds a game.yaml.)

    With `export` (an export's name: it writes below each language's folder in one of its
    own, `<lang>/png/<deck>/…`), a game folder that is that folder or lies below it is
    refused too: a game at `<out>/<id>/<lang>/png` had its own pictures and its rulebook
    folder written over.
    Folders are compared by what they are (device and inode), not by path: a bind mount or
    another path to the game folder is the same folder."""
    root = real_path(Path(game_root))
    mine = identity(root)
    folders = [Path(out) / game_id, *(Path(out) / game_id / lang for lang in langs)]
    for folder in folders:
        if mine is not None and identity(folder) == mine:
            where = folder if folder == folders[0] else Path(out) / game_id / root.name
            raise OutputError(
                where,
                "it is the game folder itself: its files would be replaced or removed by the"
                " output; name another --out (the default is ./output)",
            )
    inner = [Path(out) / game_id / lang / export for lang in langs] if export else []
    if inner and mine is not None:
        own = {identity(folder): folder for folder in inner}
        own.pop(None, None)
        held = next((own[at] for at in map(identity, [root, *root.parents]) if at in own), None)
        if held is not None:
            what = (
                "it is the game folder itself"
                if identity(held) == mine
                else f"the game folder {game_root} lies inside it"
            )
            raise OutputError(
                held,
                f"{what}, and `export {export}` writes its files there: they would replace the"
                " game's own; name another --out (the default is ./output)",
            )
    # another game folder there (a copy of this one, an older version: same id) is no
    # output folder either: its pictures were deleted by the export's clean-up
    for folder in (*folders, *inner):
        if os.path.lexists(folder / "game.yaml"):
            raise OutputError(
                folder,
                "it is a game folder (it holds a game.yaml): its files would be replaced or"
                " removed by the output; name another --out (the default is ./output)",
            )


def identity(path: Path | str) -> tuple[int, int] | None:
    """What a file or folder is, whatever path names it (a link, a bind mount, `..`): its
    device and inode; None when it cannot be looked at (missing)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino)


def missing_folders(path: Path) -> list[Path]:
    """`path` and those of its parents that do not exist yet, outermost first: the folders
    `make_output_root` or `output_folder` are about to make, for `remove_made` to take back
    when the command fails (`--out a/b/c` left `a/b` after a failed export)."""
    path = Path(os.path.abspath(path))
    missing: list[Path] = []
    for folder in (path, *path.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    return missing[::-1]


def remove_made(folders: Sequence[Path]) -> None:
    """Remove the folders `missing_folders` listed, innermost first, each only if empty (a
    file another process put there meanwhile, or a journal an interrupted run needs, keeps
    it and those above it)."""
    for folder in reversed(folders):
        try:
            folder.rmdir()
        except OSError:
            return


def refuse_links_below(root: Path, path: Path) -> None:
    """Refuse (OutputError) `path` when it, or a folder between the output folder `root`
    and it, is a symbolic link (`root` itself may be one: the user named it); a missing part
    ends the check (nothing below it exists to follow)."""
    current = Path(root)
    for part in Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).parts:
        current = current / part
        if part == "..":
            raise OutputError(path, f"it is not inside {root}")
        if current.is_symlink():
            raise OutputError(current, LINK_REFUSED)
        if not current.exists():
            return


def output_folder(root: Path | HeldFolder, *parts: str) -> Path:
    """`root/parts…`, made if missing: `root` only when its own parent exists (no folders
    are made outside it), the parts inside it; a part that is a link (even to a folder
    inside `root`) or not a folder is refused: the toolkit follows no link it did not make
    below an output folder (`root` itself may be one: the user named it)."""
    if isinstance(root, HeldFolder):  # made and opened from its descriptor, not by path
        for part in parts:
            if part in ("", ".", "..") or os.sep in part:
                raise OutputError(root / part, f"it is not a folder inside {root}")
        folder_path = root.path.joinpath(*parts)
        os.close(_open_below(root, parts, folder_path / "_", make=True))
        return folder_path
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
    current = root
    for part in parts:
        current = current / part
        if part in ("", ".", "..") or os.sep in part:
            raise OutputError(current, f"it is not a folder inside {root}")
        if current.is_symlink():
            raise OutputError(current, LINK_REFUSED)
        if current.exists() and not current.is_dir():
            raise OutputError(current, f"it is not a folder inside {root}")
        try:
            current.mkdir(exist_ok=True)
        except OSError as exc:
            raise OutputError(current, exc.strerror or str(exc)) from None
    if current.is_symlink():  # made a link between the check and mkdir
        raise OutputError(current, LINK_REFUSED)
    return folder


class InputError(ValueError):
    """A source file that cannot be read as text: too large, not UTF-8, unreadable."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.col = col


LEADS_OUTSIDE = "it leads outside the game folder"
TOOL_FOLDERS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".jj",
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".venv",
        "node_modules",
    }
)
"""Folders of version control and tools inside a game folder: never the game's own files.
The findings cache does not walk them (toolkit.content.validate_cache), so no game file is
read from one (`open_regular` with `inside`): a deck kept in `decks/node_modules/` was read,
and its edits were never seen by the cache (probe71-4); and no YAML file under one is a
stray deck, board or bank (R008)."""
IN_TOOL_FOLDER = "it lies in a tool's folder ({}), where Playset reads no game file; move it"


def in_tool_folder(real: Path, root: Path) -> str | None:
    """The tool's folder (`TOOL_FOLDERS`) that the real path `real` lies in below the game
    folder's real path `root`, or None. Told from the path alone, whether the file is there
    or not (the findings cache never looks inside such a folder: a file deleted there is
    not seen)."""
    try:
        parts = real.relative_to(root).parts[:-1]
    except ValueError:
        return None
    tool = TOOL_FOLDERS.intersection(parts)
    return min(tool) if tool else None


def read_bounded(path: Path, limit: int, *, inside: Path | None = None) -> bytes:
    """At most `limit` + 1 bytes of a regular file (a FIFO, a device or `/dev/zero` behind
    a link is refused, not waited on or read without end); raises OSError.

    With `inside`, the file is read only if the file opened lies inside that folder: the
    path of what was opened is checked, after the open, so a link switched between a
    caller's own check and the open cannot lead the read elsewhere (OSError EXDEV); one
    whose path leads outside already is not opened at all (opening a device has effects)."""
    with open_regular(path, inside=inside) as (fd, _):
        return read_open(fd, limit)


@contextlib.contextmanager
def open_regular(path: Path, *, inside: Path | None = None) -> Iterator[tuple[int, os.stat_result]]:
    """The regular file at `path`, opened once: its descriptor and what `fstat` says of it,
    checked as `read_bounded` checks it (a FIFO or a device is refused, and with `inside`
    the file opened must lie inside that folder); raises OSError. A caller looks at the
    file (its size, `sparse`, its first bytes: `os.pread`) before it reads it whole
    (`read_open`), all from the one file opened."""
    # the folder resolved once, for both checks: each resolution is a `lstat` per part of
    # its path, for every file a game loads; a link on its path switched between the two
    # checks now refuses the file (what was opened lies outside the folder first resolved)
    root = real_path(inside) if inside is not None else None
    if root is not None:
        real = real_path(path)
        if not real.is_relative_to(root):
            raise OSError(errno.EXDEV, LEADS_OUTSIDE, str(path))
        tool = in_tool_folder(real, root)
        if tool is not None:
            raise OSError(errno.EACCES, IN_TOOL_FOLDER.format(tool), str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise OSError(errno.EINVAL, not_regular(opened.st_mode), str(path))
        if root is not None and not _opened_inside(fd, opened, path, root):
            raise OSError(errno.EXDEV, LEADS_OUTSIDE, str(path))
        yield fd, opened
    finally:
        os.close(fd)


def read_open(fd: int, limit: int) -> bytes:
    """At most `limit` + 1 bytes of the file open as `fd` (`open_regular`), from its start:
    as many as it holds now and one more, then on to its end if it grew (`os.pread`, the
    descriptor's offset untouched). A buffered `read(limit + 1)` made a buffer of that size
    for every file: 4 MB for each YAML file a game loads (~0.1 ms and five page faults a
    file), 256 MB for a picture."""
    want = limit + 1
    ask = min(want, max(os.fstat(fd).st_size, 0) + 1)
    chunks: list[bytes] = []
    got = 0
    while got < want:
        chunk = os.pread(fd, ask, got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
        ask = min(want - got, max(2 * ask, READ_STEP))
    return b"".join(chunks)


READ_STEP = 64 * 1024
"""What `read_open` asks for at least, past the size the file had (one that grew, or one
that says 0, as files under /proc do); each further read asks twice the last, so a file
read on to a large bound takes a few dozen reads, not thousands."""


SPARSE_MIN_BYTES = 1024 * 1024
"""Files smaller than this are never called sparse (`sparse`): a file system may keep a
small file's bytes beside its inode (ext4's inline data, btrfs: a few kB) and report no
blocks."""
SPARSE_SHARE = 8
"""A file is sparse (`sparse`) when less than 1/SPARSE_SHARE of its size is stored."""


def sparse_refusal(info: os.stat_result, kind: str) -> str:
    """Why a sparse file is not read, in one wording for every reader: `kind` is what a
    program saves ("picture", "font", "Python source saved by an editor")."""
    stored = info.st_blocks * 512
    return (
        f"a sparse file ({info.st_size:,} bytes, of which {stored:,} are stored): no {kind}"
        " has holes; save it again"
    )


def sparse(fd: int, info: os.stat_result) -> bool:
    """Whether the regular file open as `fd` (`info`: its fstat) is mostly holes: of at
    least `SPARSE_MIN_BYTES`, less than 1/`SPARSE_SHARE` of its size stored (st_blocks), and
    a hole before its end as the kernel says (SEEK_HOLE). No picture or font file a program
    saves has holes, but one made by `truncate -s 250M` costs nothing on disk or in a sparse
    archive, and 250 MB of zeros to every read of it. Both tests must say so: a file system
    that compresses (ZFS, btrfs) stores fewer blocks than the size without holes, and one
    that reports no blocks at all (some FUSE ones), or has no SEEK_HOLE, reports no hole."""
    blocks = getattr(info, "st_blocks", None)
    if info.st_size < SPARSE_MIN_BYTES or blocks is None:
        return False
    if blocks * 512 * SPARSE_SHARE >= info.st_size:
        return False
    try:
        hole = os.lseek(fd, 0, os.SEEK_HOLE)
    except (AttributeError, OSError):  # no SEEK_HOLE here: no hole is known
        return False
    finally:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
    return hole < info.st_size


def holds(path: Path, data: bytes) -> bool:
    """Whether the regular file (not a link) at `path` holds exactly `data`, read no further
    than its length: a file a command compares before replacing it may be a sparse file of
    gigabytes a game folder brought (a 3 GB one cost a whole read, 37 s and 6.3 GB, to
    compare)."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size != len(data):
            return False
        return read_bounded(path, len(data)) == data
    except OSError:
        return False


def _opened_inside(fd: int, opened: os.stat_result, path: Path, root: Path) -> bool:
    """Whether the file open as `fd` lies inside `root`: where the kernel says it is
    (/proc/self/fd on Linux), else the real path of `path` if that is the same file."""
    try:
        where = Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        where = real_path(path)
        try:
            now = os.stat(where, follow_symlinks=False)
        except OSError:
            return False
        if (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino):
            return False
    return where.is_relative_to(root)


def read_text(path: Path, limit: int, *, inside: Path | None = None) -> str:
    """A UTF-8 text file of at most `limit` bytes, read no further than that (a huge or
    endless file is refused without being read whole); `inside` as for read_bounded."""
    try:
        raw = read_bounded(path, limit, inside=inside)
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


FileVersion = tuple[int, int, int, int, int]


def file_version(info: os.stat_result) -> FileVersion:
    """Which file, in which version, by what `stat` says of it: device, inode, size, mtime
    and ctime (ns). A cache kept while a file is "unchanged" keys on it: a file replaced
    by another of the same size with the old mtime kept (`cp -p`, `rsync -a`, `tar x`, an
    older copy unzipped) has another inode, and its ctime moved."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


MISSING: FileVersion = (-1, -1, -1, -1, -1)
"""The version of a file `stat` cannot see (a cache reads it again once it is there)."""


def real_path(path: Path) -> Path:
    """The absolute path with symlinks followed, like Path.resolve(), but a symlink loop
    gives the looping path instead of raising RuntimeError (Python 3.11): the caller's own
    existence or containment check then refuses it with a diagnostic."""
    return Path(os.path.realpath(path))


MAX_DEPTH = 64
"""Folders below a walked root (a game, an output folder) deeper than this are not walked:
os.walk and Path.rglob recurse once per level, and a game holding 1,400 nested folders (a
path still under 4 kB) ended validate, build and import in a RecursionError."""


def walk(root: Path | str) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk(root) (top-down, links to folders listed but not followed), going no deeper
    than MAX_DEPTH folders below `root`; the caller may prune `dirs` as with os.walk."""
    base = os.fspath(root)
    for folder, dirs, files in os.walk(base):
        if os.path.relpath(folder, base).count(os.sep) + 1 >= MAX_DEPTH:
            dirs[:] = []
        yield folder, dirs, files


def walk_inside(
    root: Path | HeldFolder, folder: Path
) -> Iterator[tuple[Path, list[str], list[str], int]]:
    """`walk` of `folder` below the output folder `root`, from descriptors: `folder` is
    reached from `root` without following a link (a link on the way is refused:
    OutputError; nothing when it is missing), and each folder below it is listed through
    the descriptor its parent gave (os.fwalk, links not followed), also yielded: what is
    removed by name in it is removed there, never in a folder a path now leads to. The
    caller may prune `dirs` as with os.walk."""
    folder = Path(folder)
    parts = Path(os.path.abspath(folder)).relative_to(os.path.abspath(root)).parts
    try:
        top = _open_below(root, parts, folder / "_")
    except OutputError as exc:
        if "does not exist" in exc.reason:
            return
        raise
    try:
        walked = os.fwalk(".", dir_fd=top, follow_symlinks=False)
        for at, dirs, files, fd in walked:
            rel = os.path.normpath(at)
            if rel.count(os.sep) + 1 >= MAX_DEPTH:
                dirs[:] = []
            yield folder / rel if rel != "." else folder, dirs, files, fd
    finally:
        os.close(top)


def files_under(root: Path) -> Iterator[Path]:
    """Every entry below `root` that is not a folder (links included), as
    `root.rglob("*")` lists them, within MAX_DEPTH."""
    for folder, _, files in walk(root):
        yield from (Path(folder, name) for name in files)


TEMPORARY = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")
"""The names of the temporary files `_stage` makes (`.<name>.<8 hex>.tmp`)."""


def remove_stale_temporaries(folder: Path | int) -> int:
    """Remove the temporary files a killed run staged in `folder` (not below it; a path, or
    a folder open as that descriptor) and left: regular files of fileio's temporary names
    older than stale_files.STALE_SECONDS (a run in progress stages for seconds); how many. A
    build killed between two renames left them in output/<game>/<lang>/ for ever."""
    return remove_stale(folder, lambda name: TEMPORARY.match(name) is not None)


def others_may_move(path: Path, *, as_root: bool = True) -> str | None:
    """Why another user could rename what is made at `path` (a folder about to be made, or
    one that is there), or put theirs in its place, or None: the nearest folder above it
    that exists, or any folder above that one (real paths, up to /), belongs to another
    user than us or root, or others may write to it without its sticky bit. In a sticky
    folder (/tmp) only an entry's owner renames it, so our own entry stays ours; in a folder
    anyone may write to without it, another user exchanges our new game folder for a link
    to another of ours (`renameat2`, one system call) while it is written, or replaces the
    game afterwards. The folders above `path` as named (a link on the way lies in one) count
    as those above its real path.

    Root is asked whose folders they are too by default (`new`, the game writers, the
    output folders: the owner of a folder above may exchange what root writes for a link
    to a folder of root's); `as_root=False` only asks whether others may write to them.
    The folders are looked at with search permission only (O_PATH): one of mode 0711
    above is no refusal."""
    user = os.geteuid()
    owners = user != 0 or as_root

    def unsafe(info: os.stat_result, step: object) -> str | None:
        if owners and info.st_uid not in (user, 0):
            return f"{step} belongs to another user (uid {info.st_uid})"
        if info.st_mode & 0o002 and not info.st_mode & 0o1000:
            return f"others may write to {step}"
        return None

    start: Path | None = None  # the nearest folder above `path` that exists
    for step in Path(path).parents:  # as named (relative: from the current folder)
        try:
            info = os.stat(step)
        except (FileNotFoundError, NotADirectoryError):
            continue  # a folder still to be made (by us, inside the ones looked at)
        except OSError as exc:
            return f"{step} cannot be looked at ({exc.strerror})"
        if why := unsafe(info, step):
            return why
        start = start or step
    # then the folders the kernel reaches by `..` from it, up to / (the real ones, by
    # descriptor: a game deeper than PATH_MAX has no absolute path to stat)
    # O_PATH: a folder one may pass but not list (0711: /home on shared hosts) is looked
    # at with search permission only (fstat and `..` need no more)
    flags = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_CLOEXEC
    try:
        fd = os.open(start if start is not None else ".", flags)
    except OSError as exc:
        return f"{start} cannot be looked at ({exc.strerror})"
    try:
        while True:
            info = os.fstat(fd)
            if why := unsafe(info, _name_of(fd)):
                return why
            parent = os.open("..", flags, dir_fd=fd)
            os.close(fd)
            fd = parent
            above = os.fstat(fd)
            if (above.st_dev, above.st_ino) == (info.st_dev, info.st_ino):
                return None  # / is its own parent
    except OSError as exc:
        return f"a folder above {path} cannot be looked at ({exc.strerror})"
    finally:
        os.close(fd)


def _name_of(fd: int) -> str:
    """The path of the folder open as `fd`, for a message."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "a folder above it"


@contextlib.contextmanager
def locked(lock: Path) -> Iterator[None]:
    """An exclusive lock on `lock` (a file of ours, made if missing, no link followed),
    held while the block runs: two runs that read, change and write the same files take
    turns (two imports at once each wrote the file as it read it, and one's entries were
    lost though both said "applied")."""
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
