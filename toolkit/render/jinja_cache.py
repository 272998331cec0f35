"""Sandboxed Jinja environments whose compiled templates are kept between runs.

Compiling a template costs far more than rendering it (a rulebook ~0.1 s, a card layout
~15 ms), and the same sources are compiled on every run; Jinja's bytecode cache keeps the
compiled code on disk, keyed by source checksum, in the user cache folder. Measured on the
bundled games (2 shared cores, best of 9): `playset validate` 1.24 s without the cache, 0.87 s
warm; `playset build whisky-game` 1.49 s / 1.42 s.

Cached bytecode is code that runs outside the sandbox, so it is trusted only when it is
ours: the folder must belong to the user and be writable by no one else, and every entry
carries an HMAC-SHA256 under a per-user key (a 0600 file in the folder) that is checked
before anything in it is unpickled or unmarshalled. Anything else means no cache: the same
results, compiled afresh.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import GeneratorType
from typing import Any, cast

from jinja2 import FunctionLoader, Template
from jinja2.bccache import Bucket, BytecodeCache
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment, safe_range
from jinja2.utils import generate_lorem_ipsum

from toolkit.render.undefined import DesignerUndefined

TEMPLATE_CODE = r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}"
"""A regular expression for Jinja expressions, statements and comments (use re.DOTALL)."""

KEY_FILE = "hmac.key"
KEY_BYTES = 32
MAX_ENTRY_BYTES = 8 * 1024 * 1024


def _private(info: os.stat_result) -> bool:
    """Owned by this user and writable by no one else."""
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_private(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file of ours that no one else may write, read without
    following a symlink; None otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _private(info) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _key(folder: Path) -> bytes | None:
    """The folder's HMAC key, made on first use (O_EXCL, mode 0600); None if the file is
    not ours, is readable by others or is not a key."""
    path = folder / KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return None
    else:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(KEY_BYTES))
    key = _read_private(path, KEY_BYTES)
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if key is None or len(key) != KEY_BYTES or mode & (stat.S_IRWXG | stat.S_IRWXO):
        return None
    return key


def cache_dir() -> Path | None:
    """`$PLAYSET_CACHE/playset/jinja`, else `$XDG_CACHE_HOME/playset/jinja`, else
    `~/.cache/playset/jinja`; None when it cannot be written or is not private to the user
    (no cache, same results)."""
    base = os.environ.get("PLAYSET_CACHE") or os.environ.get("XDG_CACHE_HOME")
    folder = Path(base) / "playset" if base else Path.home() / ".cache" / "playset"
    folder = folder / "jinja"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or not _private(info):
        return None
    return folder if os.access(folder, os.W_OK) else None


class SignedBytecodeCache(BytecodeCache):
    """Jinja bytecode on disk, each entry `HMAC || bytecode`, loaded only if the HMAC of
    its key and bytes checks out."""

    def __init__(self, folder: Path, key: bytes) -> None:
        self.folder = folder
        self.secret = key

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        # the environment's own code generation is part of the key (intercepted operators)
        return super().get_cache_key(f"{name}|{CODE_VERSION}", filename)

    def _path(self, bucket: Bucket) -> Path:
        return self.folder / f"{bucket.key}.signed"

    def _mac(self, bucket: Bucket, payload: bytes) -> bytes:
        return hmac.new(self.secret, bucket.key.encode() + b"\0" + payload, "sha256").digest()

    def load_bytecode(self, bucket: Bucket) -> None:
        data = _read_private(self._path(bucket), MAX_ENTRY_BYTES)
        if data is None or len(data) <= 32:
            return
        mac, payload = data[:32], data[32:]
        if hmac.compare_digest(mac, self._mac(bucket, payload)):
            bucket.bytecode_from_string(payload)

    def dump_bytecode(self, bucket: Bucket) -> None:
        payload = bucket.bytecode_to_string()
        try:
            fd, tmp = tempfile.mkstemp(prefix=".entry.", dir=self.folder)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(self._mac(bucket, payload) + payload)
            os.replace(tmp, self._path(bucket))
        except OSError:
            Path(tmp).unlink(missing_ok=True)


def bytecode_cache() -> SignedBytecodeCache | None:
    """The user's signed cache, or None when its folder or key cannot be trusted."""
    folder = cache_dir()
    key = _key(folder) if folder else None
    return SignedBytecodeCache(folder, key) if folder and key else None


class TemplateLimitError(SecurityError):
    """A template went past a limit (loop iterations, sequence size, output, time)."""

    lineno: int | None  # the template's line, when known (set where the limit was met)


CODE_VERSION = "bounded-1"
MAX_ITERATIONS = 1_000_000  # range() items per render, nested loops included
MAX_SEQUENCE = 1_000_000  # items or characters a `*` may build
MAX_OUTPUT = 4_000_000  # characters a render may print
MAX_POWER_BITS = 4_096
MAX_SECONDS = 5.0
MAX_WIDTH = 1_000  # widths in format specs and the width filters
_WIDE_SPEC = re.compile(r"%[-#0 +]*\d{4,}|\{[^{}]*:[^{}]*\d{4,}[^{}]*\}")


class _Limits:
    """The budget of the render in progress (one at a time: rendering is single-threaded)."""

    def __init__(self) -> None:
        self.active = False
        self.iterations = 0

    def spend(self, count: int) -> None:
        if self.active:
            self.iterations += count
            if self.iterations > MAX_ITERATIONS:
                raise TemplateLimitError(
                    f"loops run more than {MAX_ITERATIONS:,} iterations (range() items)"
                )


def _sized(value: Any) -> int | None:
    return len(value) if isinstance(value, str | list | tuple) else None


def _bounded_binop(left: Any, operator: str, right: Any) -> None:
    if operator == "*":
        for seq, count in ((left, right), (right, left)):
            size = _sized(seq)
            if size is not None and isinstance(count, int) and size * count > MAX_SEQUENCE:
                raise TemplateLimitError(f"`*` would build more than {MAX_SEQUENCE:,} items")
    elif operator == "**":
        ints = isinstance(left, int) and isinstance(right, int)
        if ints and abs(left) > 1 and right * abs(left).bit_length() > MAX_POWER_BITS:
            raise TemplateLimitError("`**` would build a number too large to print")
    elif operator == "%" and isinstance(left, str) and _WIDE_SPEC.search(left):
        raise TemplateLimitError(f"a format width over {MAX_WIDTH} characters")


class _Bounded:
    """Mixed into a sandbox: `*`, `**` and `%` are checked before they run, range() counts
    against the render's budget, lipsum and the width filters are capped."""

    intercepted_binops = frozenset({"*", "**", "%"})
    limits: _Limits

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        _bounded_binop(left, operator, right)
        return super().call_binop(context, operator, left, right)  # type: ignore[misc]

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = super().wrap_str_format(value)  # type: ignore[misc]
        if wrapped is not None and _WIDE_SPEC.search(str(value.__self__)):
            raise TemplateLimitError(f"a format width over {MAX_WIDTH} characters")
        return wrapped


def _install_bounds(env: Any, limits: _Limits) -> None:
    def bounded_range(*args: int) -> range:
        numbers = safe_range(*args)
        limits.spend(len(numbers))
        return numbers

    def bounded_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
        if n > 20 or max > 200:
            raise TemplateLimitError("lipsum() is limited to 20 paragraphs of 200 words")
        return generate_lorem_ipsum(n, html, min, max)

    env.globals["range"] = bounded_range
    env.globals["lipsum"] = bounded_lipsum
    for name in ("center", "indent", "wordwrap", "truncate"):
        env.filters[name] = _width_capped(env.filters[name])


def _width_capped(func: Any) -> Any:
    def capped(*args: Any, **kwargs: Any) -> Any:
        numbers = [a for a in (*args[1:], *kwargs.values()) if isinstance(a, int)]
        if any(abs(n) > MAX_WIDTH for n in numbers if not isinstance(n, bool)):
            raise TemplateLimitError(f"a width over {MAX_WIDTH} characters")
        return func(*args, **kwargs)

    for attr in ("jinja_pass_arg",):
        if hasattr(func, attr):
            setattr(capped, attr, getattr(func, attr))
    return capped


class _BoundedSandbox(_Bounded, SandboxedEnvironment):
    pass


class _BoundedImmutableSandbox(_Bounded, ImmutableSandboxedEnvironment):
    pass


def _on_alarm(signum: int, frame: Any) -> None:
    raise TemplateLimitError(f"rendering took longer than {MAX_SECONDS:g} s")


def parse_check(source: str) -> None:
    """Parse `source` as a sandboxed template would (raises jinja2.TemplateSyntaxError)."""
    _BoundedSandbox().parse(source)


class CachedSandbox:
    """A sandboxed environment that compiles sources by checksum through the bytecode cache."""

    def __init__(self, keep_trailing_newline: bool, immutable: bool = False) -> None:
        self._sources: dict[str, str] = {}
        self.limits = _Limits()
        kind = _BoundedImmutableSandbox if immutable else _BoundedSandbox
        self.env = kind(
            loader=FunctionLoader(lambda name: (self._sources[name], None, lambda: True)),
            bytecode_cache=bytecode_cache(),
            undefined=DesignerUndefined,
            autoescape=False,
            keep_trailing_newline=keep_trailing_newline,
            cache_size=0,
        )
        _install_bounds(self.env, self.limits)

    @contextmanager
    def bounded(self) -> Iterator[None]:
        """Renders inside get a fresh loop budget and, in the main thread, a time limit
        (raises TemplateLimitError)."""
        outer = self.limits.active
        self.limits.active = True
        if not outer:
            self.limits.iterations = 0
        timed = (
            not outer
            and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL)[0] == 0
        )
        if timed:
            previous = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, MAX_SECONDS)
        try:
            yield
        finally:
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
            self.limits.active = outer

    def render(self, template: Template, context: dict[str, Any]) -> str:
        """Render within the limits, stopping as soon as the output is too long."""
        with self.bounded():
            parts: list[str] = []
            size = 0
            # a compiled template renders as a generator: it is closed when cut short
            stream = cast(
                "GeneratorType[str, None, None]",
                template.root_render_func(template.new_context(context)),
            )
            try:
                for part in stream:
                    size += len(part)
                    if size > MAX_OUTPUT:
                        break
                    parts.append(part)
            except Exception:
                self.env.handle_exception()  # re-raised with the template's own lines
            if size > MAX_OUTPUT:
                error = TemplateLimitError(f"the output passes {MAX_OUTPUT:,} characters")
                frame = stream.gi_frame  # where the template was printing
                if frame is not None:
                    error.lineno = template.get_corresponding_lineno(frame.f_lineno)
                stream.close()
                raise error
            return "".join(parts)

    def template(self, source: str, prefix: str) -> Template:
        """The compiled template of `source` (raises jinja2.TemplateError)."""
        name = f"{prefix}-{hashlib.sha256(source.encode()).hexdigest()[:32]}"
        self._sources[name] = source
        return self.env.get_template(name)
