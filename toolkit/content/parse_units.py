"""A YAML file's parse kept as a unit between `validate` runs (toolkit.content.unit_cache,
kind `parse`): after one card edit only the edited file is composed again, every other file
is read back from the game's last run.

The unit is named by the SHA-256 of the file's bytes (the parse is a pure function of them;
the parser's code and the installed ruamel are in the units' head). It keeps the data, the
span of each value and key, the shared (aliased, merged) paths and each string's style, as
one JSON text: read back, it gives fresh objects each time (a check that changed the data
could not change what is kept), and the spans are kept as tuples, made into a `Span` only
when a check asks for one (`LazySpans`): a file has thousands, a run reads few.

Not kept: a refusal (the file's Y finding names its display path, and a broken file is
parsed again anyway), and a document holding a value JSON cannot give back as it was (a
timestamp, `!!binary` bytes, an integer key written as a string key...; see `_plain`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any

from toolkit.content.unit_cache import NotKept, cached, to_json
from toolkit.diagnostics.diagnostic import Span

if TYPE_CHECKING:
    from toolkit.content.source import Built, Path_, _Refusal

KIND = "parse"
INT_KEYS = "\0int-keys"
"""A mapping with an integer key is kept as {INT_KEYS: [[key, value], ...]} (JSON's keys are
strings); a document with a string key INT_KEYS itself is not kept."""
_STYLE_NONE = 0
"""The style code of a path that holds no string scalar (not in the document's styles)."""
_SCALARS = (str, int, float, bool, type(None))
MAX_DEPTH = 200
_PLAIN, _WITH_INT_KEYS = "J", "I"
"""The kept text's first character: whether the data holds INT_KEYS mappings."""
_STYLES = (None, "'", '"', "|", ">")


class LazySpans(Mapping["Path_", Span]):
    """Spans by data path, kept as (line, col, end_line, end_col) tuples and made into a
    `Span` the first time one is asked for."""

    __slots__ = ("_made", "_raw")

    def __init__(self, raw: dict[Path_, tuple[int, int, int, int]]) -> None:
        self._raw = raw
        self._made: dict[Path_, Span] = {}

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


def _plain(value: Any, int_keys: list[bool], depth: int = 0) -> Any:
    """The data as JSON gives it back (new containers: what is kept is not the run's own
    objects); NotKept for a value it would not give back as it was. `int_keys` gets True
    when a mapping has an integer key."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if depth > MAX_DEPTH:
        raise NotKept
    depth += 1
    if kind is list:
        return [_plain(v, int_keys, depth) for v in value]
    if kind is dict:
        if all(type(k) is str for k in value):
            if INT_KEYS in value:
                raise NotKept
            return {k: _plain(v, int_keys, depth) for k, v in value.items()}
        if not all(type(k) in (str, int) for k in value):
            raise NotKept
        int_keys.append(True)
        return {INT_KEYS: [[k, _plain(v, int_keys, depth)] for k, v in value.items()]}
    raise NotKept  # a timestamp, bytes, a set...


def _int_keys(mapping: dict[str, Any]) -> Any:
    if len(mapping) == 1 and INT_KEYS in mapping:
        return {k: v for k, v in mapping[INT_KEYS]}
    return mapping


def _spans_of(spans: Mapping[Path_, Span]) -> tuple[list[list[Any]], list[int]]:
    paths: list[list[Any]] = []
    numbers: list[int] = []
    for path, span in spans.items():
        line, col, end_line, end_col, sheet, file = (
            span.line,
            span.col,
            span.end_line,
            span.end_col,
            span.sheet,
            span.file,
        )
        if sheet is not None or file is not None or end_line is None or end_col is None:
            raise NotKept
        paths.append(list(path))
        numbers += (line, col, end_line, end_col)
    return paths, numbers


def store(built: Built | _Refusal) -> str:
    """The parse as kept: one JSON text."""
    if not isinstance(built, tuple):
        raise NotKept
    data, spans, key_spans, shared, styles = built
    int_keys: list[bool] = []
    plain = _plain(data, int_keys)
    paths, numbers = _spans_of(spans)
    key_paths, key_numbers = _spans_of(key_spans)
    codes = [styles.get(path, _STYLE_NONE) for path in spans]
    if len(styles) != sum(code != _STYLE_NONE for code in codes):
        raise NotKept  # a style for a path without a span: not what the builder gives
    unit = {
        "d": plain,
        "s": [paths, numbers, codes],
        "k": [key_paths, key_numbers],
        "h": [list(p) for p in shared],
    }
    return (_WITH_INT_KEYS if int_keys else _PLAIN) + to_json(unit)


def _raw_spans(paths: Any, numbers: Any) -> dict[Path_, tuple[int, int, int, int]]:
    """The spans as tuples by path; ValueError/TypeError for another shape."""
    if type(paths) is not list or type(numbers) is not list or len(numbers) != 4 * len(paths):
        raise ValueError("not spans")
    if not set(map(type, paths)) <= {list} or not set(map(type, numbers)) <= {int}:
        raise ValueError("not spans")
    if not set(map(type, chain.from_iterable(paths))) <= {str, int}:
        raise ValueError("not a data path")
    raw = dict(zip(map(tuple, paths), zip(*[iter(numbers)] * 4, strict=True), strict=True))
    if len(raw) != len(paths):
        raise ValueError("a path twice")
    return raw


def read(kept: Any) -> Built:
    """The parse kept by `store`; ValueError/TypeError for a value of another shape."""
    if type(kept) is not str or kept[:1] not in (_PLAIN, _WITH_INT_KEYS):
        raise ValueError("not a parse")
    hook = _int_keys if kept[0] == _WITH_INT_KEYS else None
    unit = json.loads(kept[1:], object_hook=hook)
    if type(unit) is not dict:
        raise ValueError("not a parse")
    paths, numbers, codes = unit["s"]
    spans = _raw_spans(paths, numbers)
    if type(codes) is not list or len(codes) != len(spans):
        raise ValueError("not styles")
    styles = {path: code for path, code in zip(spans, codes, strict=True) if code != _STYLE_NONE}
    if not set(styles.values()) <= set(_STYLES):
        raise ValueError("not a style")
    key_spans = _raw_spans(*unit["k"])
    shared = unit["h"]
    if type(shared) is not list or not set(map(type, shared)) <= {list}:
        raise ValueError("not paths")
    return unit["d"], LazySpans(spans), LazySpans(key_spans), set(map(tuple, shared)), styles


def parsed(raw: bytes, work: Callable[[], Built | _Refusal]) -> Built | _Refusal:
    """`work()` (the file's text composed and built), or the parse kept for the same bytes."""
    name = hashlib.sha256(raw).hexdigest()
    return cached(KIND, [name], work, store, read)
