"""A YAML file's parse kept between `validate` runs (toolkit.content.unit_cache, kind
`parse`): after one card edit only the edited file is composed again, every other file is
read back from an earlier run.

A parse is kept in entries of its own (`Units.files`: a signed store of its own, by
content; its head and its body apart, the body read when first asked for: `BODY`), named by
the SHA-256 of the file's bytes (the parse is a pure function of them;
the parser's code and the installed ruamel are in the units' head, which names the entry
too): an unchanged file's parse is read, never written again, and the game's units entry
does not carry the parses of all its files through every run (1.1 MB of a bundled game's
1.6 MB, decoded twice and written again at each edit). It keeps the data, the span of each
value and key, the shared (aliased, merged) paths, each string's style and the characters
of text its aliases repeat (charged to the game's count when read back, source.GameRepeats),
written by
`marshal` (the store is signed as the code cache is, toolkit.dataclass_code; its format is
the interpreter's, in the head): read back, it gives fresh objects each time (a check that
changed the data could not change what is kept), and the spans are kept as tuples,
made into a `Span` only when a check asks for one (`LazySpans`): a file has thousands, a
run reads few.

Not kept: a refusal (the file's Y finding names its display path, and a broken file is
parsed again anyway), a parse many times larger than its file (`MAX_RATIO`), and a document
holding a value other than plain data (a timestamp, `!!binary` bytes, a key that is neither
a text nor an integer...; see `_plain`).
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from toolkit.content.unit_cache import NotKept, active
from toolkit.diagnostics.diagnostic import Span

if TYPE_CHECKING:
    from toolkit.content.source import Built, Path_, _Refusal

KIND = "parse"
BODY = "parse-body"
"""The kind of a kept parse's body in the units' store of their own (its data, spans, key
spans and styles: `store_parts`), an entry apart from its head (`KIND`: the counts, shared
paths and list lengths the load reads of every file), read when one of its parts is first
asked for: a card edit of a bundled game reads back 22 parses and the data of one (the
manifest's), and read, signed and copied the 1.15 MB of all 22 whole (~1 ms)."""
FORMAT = "playset-parse-8"
"""The first item of a kept parse (8: in the units' store, its head and body entries apart;
7: its data as marshal bytes of its own, decoded on first
use, with the lengths of its top-level lists; 6: the strings' styles as marshal bytes of
their own, decoded on first use; 5: with the values its aliases build; 4: the spans and key spans as
marshal bytes of their own, decoded on first use; 3: with the characters its aliases
repeat; 2: marshal in an entry of its own; 1 was JSON text)."""
MARSHAL_VERSION = 4
"""With references: an object met twice is read back as one, as in the parse itself (the
builder copies what an alias repeats, so only texts and paths are met twice)."""
_SCALARS = (str, int, float, bool, type(None))
MAX_DEPTH = 200
_STYLES = (None, "'", '"', "|", ">")
MAX_RATIO = 256
MAX_UNBOUNDED = 1024 * 1024
"""A parse is not kept when it takes more than `MAX_UNBOUNDED` bytes and more than
`MAX_RATIO` times its file's: a bundled game's largest is under 10 times; a 700-byte file
whose aliases build ~200,000 values is 27 MB of marshal, and a few dozen filled the store
in one run (read back, it costs what parsing it again does)."""


class LazySpans(Mapping["Path_", Span]):
    """Spans by data path, kept as (line, col, end_line, end_col) tuples and made into a
    `Span` the first time one is asked for. Read back from a kept parse, the tuples
    themselves are decoded (and their shape checked) the first time any is asked for: an
    edit run asks for the spans of few of the files it reads back (the decoding was ~6 ms of
    the ~10 ms a bundled game's 22 parses took). `again()` gives the spans of a fresh parse
    of the same bytes, should the kept ones not be spans after all."""

    __slots__ = ("_again", "_kept", "_made", "_read")

    def __init__(
        self,
        raw: dict[Path_, tuple[int, int, int, int]] | bytes | Callable[[], bytes | None],
        again: Callable[[], Mapping[Path_, Span]] | None = None,
    ) -> None:
        self._read: dict[Path_, tuple[int, int, int, int]] | None = None
        self._kept: bytes | Callable[[], bytes | None] | None = None
        if type(raw) is bytes or callable(raw):
            self._kept = raw
        else:
            self._read = raw  # type: ignore[assignment]
        self._again = again
        self._made: dict[Path_, Span] = {}

    @property
    def _raw(self) -> dict[Path_, tuple[int, int, int, int]]:
        raw = self._read
        if raw is None:
            try:
                raw = _spans(marshal.loads(_bytes(self._kept)))
            except (EOFError, ValueError, TypeError):
                if self._again is None:
                    raise ValueError("not spans") from None
                raw = _raw(self._again())
            self._read, self._kept, self._again = raw, None, None
        return raw

    def __getitem__(self, path: Path_) -> Span:
        made = self._made.get(path)
        if made is None:
            made = self._made[path] = Span(*self._raw[path])
        return made

    def get(self, path: Path_, default: Any = None) -> Any:
        return self[path] if path in self._raw else default

    def __contains__(self, path: object) -> bool:
        return path in self._raw

    def __iter__(self) -> Iterator[Path_]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


class KeptData:
    """A kept parse's data, as marshal bytes decoded when it is first read (toolkit.content.
    source.KeptDocument), with the lengths of its top-level lists (`lists`: what the game's
    size budget counts of a file, toolkit.content.game): a card edit's run reads back ~22
    parses and reads the data of few (the manifest's; the budget counts the others' rows),
    and decoding them all was ~1 ms warm (223 kB of marshal; ~3 ms cold). `again()` gives
    a fresh parse of the same bytes, should the kept data not decode."""

    __slots__ = ("_again", "_kept", "lists")

    def __init__(
        self,
        kept: bytes | Callable[[], bytes | None],
        lists: list[tuple[Any, int]] | None,
        again: Callable[[], Any] | None = None,
    ) -> None:
        self._kept = kept
        self.lists = lists
        self._again = again

    def decoded(self) -> Any:
        """The data (fresh objects each call, as a parse read back gives)."""
        try:
            return marshal.loads(_bytes(self._kept))
        except (EOFError, ValueError, TypeError):
            if self._again is None:
                raise ValueError("not data") from None
            return self._again()


def _bytes(kept: Any) -> bytes:
    """A part's marshal bytes: as kept, or read from its body entry (`_Body.part`); a part
    that cannot be read is no marshal (TypeError: a fresh parse gives it)."""
    found = kept if type(kept) is bytes else kept() if callable(kept) else None
    if type(found) is not bytes:
        raise TypeError("no part")
    return found


class _Body:
    """A kept parse's body (`BODY`), read from its entry when one of its parts is first asked
    for, once. A body missing, not signed by us or of another shape is the body of a fresh
    parse of the file's bytes (`fresh()`, one for all its parts), written back for the next
    run: a head whose body had gone (pruned, or a write that failed after the head's) made
    every later run parse the file again for each part asked (probe70-1)."""

    __slots__ = ("_files", "_fresh", "_name", "_parts")

    def __init__(self, files: Any, name: str, fresh: Callable[[], Built | _Refusal]) -> None:
        self._files = files
        self._name = name
        self._fresh = fresh
        self._parts: tuple[bytes, ...] | None = None

    def part(self, at: int) -> bytes | None:
        parts = self._parts
        if parts is None:
            parts = self._parts = self._files.get(BODY, self._name, _body) or self._again()
        return parts[at] if parts else None

    def _again(self) -> tuple[bytes, ...]:
        """The parts of a fresh parse's body, that body written back; () for none (a
        refusal: each part is then the fresh parse's own, `_fresh`)."""
        try:
            _, body = store_parts(self._fresh())
        except NotKept:
            return ()
        self._files.put(BODY, self._name, body)
        return _body(body)


class _Once:
    """`work()` worked out at the first call only: a parse read back whose body must be made
    again, and the same file parsed afresh, are one parse."""

    __slots__ = ("_done", "_work")

    def __init__(self, work: Callable[[], Built | _Refusal]) -> None:
        self._work: Callable[[], Built | _Refusal] | None = work
        self._done: Built | _Refusal | None = None

    def __call__(self) -> Built | _Refusal:
        if self._work is not None:
            self._done, self._work = self._work(), None
        return self._done  # type: ignore[return-value]


def _marshalled(kept: Any, what: str) -> Any:
    """The value of `kept`'s marshal bytes; ValueError (saying `what`) for no bytes or cut
    bytes."""
    if type(kept) is not bytes:
        raise ValueError(f"not a {what}")
    try:
        return marshal.loads(kept)
    except EOFError as exc:
        raise ValueError(f"a cut {what}") from exc


def _body(kept: Any) -> tuple[bytes, ...]:
    """A body entry's parts (data, spans, key spans, styles); ValueError for another shape."""
    value = _marshalled(kept, "parse's body")
    if type(value) is not tuple or len(value) != 5 or value[0] != FORMAT:
        raise ValueError("not a parse's body")
    if not all(type(part) is bytes for part in value[1:]):
        raise ValueError("not a parse's body")
    return value[1:]


def top_lists(data: Any) -> list[tuple[Any, int]] | None:
    """The top-level lists of parsed data as (key, length), in order; None when the data is
    no mapping."""
    if not isinstance(data, dict):
        return None
    return [(key, len(value)) for key, value in data.items() if isinstance(value, list)]


def _lists(value: Any) -> list[tuple[Any, int]] | None:
    """Kept lists' lengths read back; ValueError for another shape."""
    if value is None:
        return None
    if type(value) is not list:
        raise ValueError("not lists")
    lists = []
    for item in value:
        if type(item) is not tuple or len(item) != 2:
            raise ValueError("not a list's length")
        key, length = item
        if type(key) not in (str, int) or type(length) is not int or length < 0:
            raise ValueError("not a list's length")
        lists.append((key, length))
    return lists


class LazyStyles(Mapping["Path_", "str | None"]):
    """Each string scalar's style by data path (`Document.styles`), read back from a kept
    parse as marshal bytes and decoded (its shape checked) the first time one is asked for:
    only a finding placed inside a text asks (`Document.position_in`), and decoding every
    file's styles was ~1 ms (warm; ~2 ms cold) of a card edit's run, which reads back ~22
    parses. `again()` gives the styles of a fresh parse of the same bytes, should the kept
    ones not be styles after all."""

    __slots__ = ("_again", "_kept", "_read")

    def __init__(
        self,
        kept: bytes | Callable[[], bytes | None],
        again: Callable[[], Mapping[Path_, str | None]] | None = None,
    ) -> None:
        self._kept: bytes | Callable[[], bytes | None] | None = kept
        self._read: Mapping[Path_, str | None] | None = None
        self._again = again

    @property
    def _styles(self) -> Mapping[Path_, str | None]:
        read = self._read
        if read is None:
            try:
                read = _styles(marshal.loads(_bytes(self._kept)))
            except (EOFError, ValueError, TypeError):
                if self._again is None:
                    raise ValueError("not styles") from None
                read = self._again()
            self._read, self._kept, self._again = read, None, None
        return read

    def __getitem__(self, path: Path_) -> str | None:
        return self._styles[path]

    def get(self, path: Path_, default: Any = None) -> Any:
        return self._styles.get(path, default)

    def __contains__(self, path: object) -> bool:
        return path in self._styles

    def __iter__(self) -> Iterator[Path_]:
        return iter(self._styles)

    def __len__(self) -> int:
        return len(self._styles)


def _styles(value: Any) -> dict[Path_, str | None]:
    """Styles as kept; ValueError for another shape."""
    if type(value) is not dict or not set(value.values()) <= set(_STYLES):
        raise ValueError("not a style")
    return value


def _plain(value: Any, depth: int = 0) -> None:
    """NotKept unless `value` is plain data (scalars, lists, and mappings whose keys are
    texts or integers), as the builder gives a document without a timestamp, bytes or a
    set: what marshal gives back exactly as it was."""
    kind = type(value)
    if kind in _SCALARS:
        return
    if depth > MAX_DEPTH:
        raise NotKept
    depth += 1
    if kind is list:
        for item in value:
            _plain(item, depth)
        return
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str and type(key) is not int:
                raise NotKept
            _plain(item, depth)
        return
    raise NotKept  # a timestamp, bytes, a set...


def _raw(spans: Mapping[Path_, Span]) -> dict[Path_, tuple[int, int, int, int]]:
    raw: dict[Path_, tuple[int, int, int, int]] = {}
    if type(spans) is LazySpans:  # a fresh parse's: its tuples are what its spans hold
        for path, numbers in spans._raw.items():
            if None in numbers:
                raise NotKept
            if type(path) is not tuple or not all(type(p) is str or type(p) is int for p in path):
                raise NotKept
            raw[path] = numbers
        return raw
    for path, span in spans.items():
        line, col, end_line, end_col = span.line, span.col, span.end_line, span.end_col
        if span.sheet is not None or span.file is not None or end_line is None or end_col is None:
            raise NotKept
        if type(path) is not tuple or not all(type(p) is str or type(p) is int for p in path):
            raise NotKept
        raw[path] = (line, col, end_line, end_col)
    return raw


def _encoded(built: Built | _Refusal) -> tuple[bytes, bytes, bytes, bytes, Any]:
    """The parse's data, spans, key spans and styles as marshal bytes each, and its shared
    paths, counts and top-level lists (`store`, `store_parts`); NotKept for a refusal, a
    parse of another shape, or one nested too deep for marshal."""
    if not isinstance(built, tuple):
        raise NotKept
    data, spans, key_spans, shared, styles, repeated, aliased = built
    _plain(data)
    if not set(styles) <= set(spans) or not set(styles.values()) <= set(_STYLES):
        raise NotKept  # a style for a path without a span: not what the builder gives
    try:
        raw, key_raw = (marshal.dumps(_raw(s), MARSHAL_VERSION) for s in (spans, key_spans))
        kept_styles = marshal.dumps(dict(styles), MARSHAL_VERSION)
        kept_data = marshal.dumps(data, MARSHAL_VERSION)
    except ValueError as exc:  # nested too deep for marshal
        raise NotKept from exc
    return kept_data, raw, key_raw, kept_styles, (set(shared), repeated, aliased, top_lists(data))


def store(built: Built | _Refusal) -> bytes:
    """The parse as kept: marshal's bytes."""
    kept_data, raw, key_raw, kept_styles, (shared, repeated, aliased, lists) = _encoded(built)
    kept = (FORMAT, kept_data, raw, key_raw, shared, kept_styles, repeated, aliased, lists)
    return marshal.dumps(kept, MARSHAL_VERSION)


def store_parts(built: Built | _Refusal) -> tuple[bytes, bytes]:
    """The parse as kept in the units' store: its head (the counts, shared paths and list
    lengths, read at every load) and its body (data, spans, key spans and styles, read when
    first asked for), each marshal bytes; NotKept as for `store`."""
    kept_data, raw, key_raw, kept_styles, head = _encoded(built)
    body = marshal.dumps((FORMAT, kept_data, raw, key_raw, kept_styles), MARSHAL_VERSION)
    return marshal.dumps((FORMAT, *head), MARSHAL_VERSION), body


def read_head(kept: Any, body: _Body, again: Callable[[], Built | _Refusal] | None) -> Built:
    """The parse whose head `store_parts` kept, its parts read from `body` when first asked
    for (`again()`, a fresh parse of the same bytes, gives a part the body does not);
    ValueError/TypeError for a head of another shape."""
    value = _marshalled(kept, "parse")
    if value == _TOO_LARGE:
        return TOO_LARGE
    if type(value) is not tuple or len(value) != 5 or value[0] != FORMAT:
        raise ValueError("not a parse")
    _, shared, repeated, aliased, lists = value
    _counts(shared, repeated, aliased)
    return (
        KeptData(lambda: body.part(0), _lists(lists), _fresh(again, 0)),
        LazySpans(lambda: body.part(1), _fresh(again, 1)),
        LazySpans(lambda: body.part(2), _fresh(again, 2)),
        shared,
        LazyStyles(lambda: body.part(3), _fresh(again, 4)),
        repeated,
        aliased,
    )


def _counts(shared: Any, repeated: Any, aliased: Any) -> None:
    """ValueError unless a kept parse's shared paths and counts have their shapes."""
    if type(shared) is not set:
        raise ValueError("not a parse")
    if type(repeated) is not int or repeated < 0:
        raise ValueError("not a count of repeated text")
    if type(aliased) is not int or aliased < 0:
        raise ValueError("not a count of aliased values")


def _spans(raw: Any) -> dict[Path_, tuple[int, int, int, int]]:
    """Spans as kept; ValueError for another shape."""
    if type(raw) is not dict:
        raise ValueError("not spans")
    for path, numbers in raw.items():
        if type(path) is not tuple or type(numbers) is not tuple or len(numbers) != 4:
            raise ValueError("not a span")
    return raw


def read(kept: Any, again: Callable[[], Built | _Refusal] | None = None) -> Built:
    """The parse kept by `store`; ValueError/TypeError for a value of another shape (its
    spans' shape is checked when they are first read: `again()`, a fresh parse of the same
    bytes, gives them then if they are not spans)."""
    value = _marshalled(kept, "parse")
    if type(value) is not tuple or len(value) != 9 or value[0] != FORMAT:
        raise ValueError("not a parse")
    _, data, spans, key_spans, shared, styles, repeated, aliased, lists = value
    if type(shared) is not set or type(styles) is not bytes or type(data) is not bytes:
        raise ValueError("not a parse")
    _counts(shared, repeated, aliased)
    if type(spans) is not bytes or type(key_spans) is not bytes:
        raise ValueError("not spans")
    return (
        KeptData(data, _lists(lists), _fresh(again, 0)),
        LazySpans(spans, _fresh(again, 1)),
        LazySpans(key_spans, _fresh(again, 2)),
        shared,
        LazyStyles(styles, _fresh(again, 4)),
        repeated,
        aliased,
    )


def _fresh(again: Callable[[], Built | _Refusal] | None, at: int) -> Callable[[], Any] | None:
    """The data (`at` 0), spans (1), key spans (2) or styles (4) of a fresh parse `again()`
    gives."""
    if again is None:
        return None

    def fresh() -> Any:
        built = again()
        if not isinstance(built, tuple):
            raise ValueError("not a parse")
        return built[at]

    return fresh


class Parses:
    """The parses of one game's files kept in memory from one load to the next (the
    preview's: `kept`), by the SHA-256 of each file's bytes. Read back, a parse's data and
    styles are fresh objects each time (marshal bytes, as `store` writes them), and its
    spans and key spans are the very mappings the parse made (read-only: `LazySpans`),
    shared by the loads that read it: decoded again from bytes, they were a second copy of
    what the game shown still held, ~300 MB more after a save of a 990 kB game of aliases
    and ~0.7 s a save for each of its two large decks (probe70-7). Only the parses the
    latest load used are kept (a file saved is the old bytes' parse dropped at the next
    load): what it holds is bounded by the game as loaded. Without it a preview save of one
    deck composed every file of the game again (probe 43 S1: ~1 s of a save with 1,000
    content files)."""

    def __init__(self) -> None:
        self.known: dict[str, _Held] = {}
        self.used: dict[str, _Held] = {}

    def parsed(
        self,
        name: str,
        size: int,
        work: Callable[[], Built | _Refusal],
        usable: Callable[[Built], bool] | None,
    ) -> Built | _Refusal:
        """`parsed` of a file of `size` bytes named `name`, kept here."""
        kept = self.used.get(name) or self.known.get(name)
        if kept is not None:
            payload, spans, key_spans, styles = kept
            with suppress(ValueError, TypeError):
                data, _, _, shared, _, repeated, aliased = read(payload, work)
                again: Built = (
                    data,
                    spans,
                    key_spans,
                    shared,
                    LazyStyles(styles, _fresh(work, 4)),
                    repeated,
                    aliased,
                )
                if usable is None or usable(again):
                    self.used[name] = kept
                    return again
                return work()  # worked out again: a refusal, never kept
        built = work()
        if isinstance(built, tuple):
            data, made, key_made, shared, made_styles, repeated, aliased = built
            if isinstance(made, LazySpans) and isinstance(key_made, LazySpans):
                hollow: Built = (data, {}, {}, shared, {}, repeated, aliased)
                with suppress(NotKept, ValueError):
                    payload = _bounded(store(hollow), size)
                    kept_styles = marshal.dumps(dict(made_styles), MARSHAL_VERSION)
                    self.used[name] = (payload, made, key_made, kept_styles)
        return built

    @contextmanager
    def kept(self) -> Iterator[None]:
        """While the block runs (one load of the game), the files parsed in this thread
        without the units' store are kept here; those of the load before it are read back."""
        token = _PARSES.set(self)
        try:
            yield
        finally:
            _PARSES.reset(token)
            self.known, self.used = self.used, {}


_Held = tuple[bytes, "LazySpans", "LazySpans", bytes]
"""A parse `Parses` keeps: its `store` bytes without spans or styles, its spans and key
spans, and its styles' marshal bytes (a fresh parse's styles are a dict of its own)."""


_PARSES: ContextVar[Parses | None] = ContextVar("parses", default=None)


def parsed(
    raw: bytes,
    work: Callable[[], Built | _Refusal],
    name: str | None = None,
    usable: Callable[[Built], bool] | None = None,
) -> Built | _Refusal:
    """`work()` (the file's text composed and built), or the parse kept for the same bytes:
    in an entry of its own when the units have such a store (`Units.files`), else in the
    `Parses` kept from the last load, if any. `name`: the SHA-256 of `raw`, if the caller
    has it. `usable`: whether a kept parse may be read back (one that repeats more text than
    the game's files left, `source.GameRepeats`, is worked out again, to be refused at its
    place)."""
    name = name or hashlib.sha256(raw).hexdigest()
    units = active()
    files = units.files if units is not None else None
    if files is None:  # no store of its own: kept in memory from the last load, if asked
        parses = _PARSES.get()
        return work() if parses is None else parses.parsed(name, len(raw), work, usable)
    once = _Once(work)
    kept = files.get(KIND, name, lambda value: read_head(value, _Body(files, name, once), once))
    if kept is TOO_LARGE:  # parsed afresh, as the last run found it cannot be kept
        return once()
    if kept is not None and (usable is None or usable(kept)):
        return kept
    if kept is not None:  # worked out again: a refusal, never kept
        return once()
    built = once()
    with suppress(NotKept):
        head, body = store_parts(built)
        # a head is kept only with its body (a body the store refuses, too large for an
        # entry, kept no head that would find none, probe70-1); a body gone later (pruned
        # before its head, removed) is made again from one fresh parse and written back
        if not _bounded_size(len(head) + len(body), len(raw)) or not files.put(BODY, name, body):
            # said in an entry of its own, so that the next run does not encode it again
            # (as large as the parse, twice its work: probe70-1's game)
            files.put(KIND, name, marshal.dumps(_TOO_LARGE, MARSHAL_VERSION))
            return built
        files.put(KIND, name, head)
    return built


_TOO_LARGE = (FORMAT, "too large")
"""A head entry that says the file's parse is not kept (its encoding too large)."""
TOO_LARGE: Any = object()
"""What `read_head` gives for such an entry."""


def _bounded(payload: bytes, size: int) -> bytes:
    """A parse's bytes as kept, or NotKept for one many times larger than its file of
    `size` bytes (`MAX_RATIO`)."""
    if not _bounded_size(len(payload), size):
        raise NotKept
    return payload


def _bounded_size(kept: int, size: int) -> bool:
    """Whether a parse of `kept` bytes may be kept: not many times larger than its file of
    `size` bytes (`MAX_RATIO`)."""
    return kept <= MAX_UNBOUNDED or kept <= MAX_RATIO * size
