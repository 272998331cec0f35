"""A rulebook's render kept as a unit between `validate` runs (toolkit.content.unit_cache,
kind `rulebook`), named by its language and source, and reused while everything the render
read of its context is as it was: the benchmark's card text edit is in the context (its deck's
`cards`), but a rulebook that never reads that text renders the same.

Exact read tracking. The render runs on a copy of the context (as it always does,
toolkit.render.rulebook_source._own_copy) whose mappings are recording subclasses of `dict`
and `View`. Each knows its path from the context's root and notes what the template learns
from it through any method: one key's value (`[k]`, `.k`, `get`, `in`), the keys in order
(`len`, iteration, `keys`), every key with its value (`values`, `items`), or the whole subtree
(`repr`, `str`, `==`, copying). Lists are not subclassed (C code reads their items without
a method: `join`, `json`, `list()`), so a list is noted whole, shallowly, wherever the
template gets hold of it: its length, its scalars, the kind of each mapping in it (whose own
reads are noted by the mapping itself, at its own path), nested lists in the same way.

After a render that succeeded (an error is never kept), what was noted is looked up again in
the context as it was built (not the copy the template may have changed) and kept with the
text as a digest of typed tokens (`"1"`, `1`, `1.0` and `True` differ). The next run builds
the context, looks the same reads up in it, and takes the kept text when the digest is the
same: every step of the render then saw what it saw before, so it prints the same text.
Anything else is rendered again (and recorded anew): a read that cannot be looked up, a value
of a type tokens do not cover, a changed value.

Not kept: a render over content that failed its own checks (`Unchecked`, `_Unreadable` stand
in for it); a source whose template code names `lipsum` or `random` (not a function of the
context) or `sameas` (identity: the recording copy shares no object); its prose may say them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from toolkit.content.unit_cache import NotKept, to_json
from toolkit.render.context import Later, View

KIND = "rulebook"
NOT_PURE = ("lipsum", "random", "sameas")
"""Words of a source's template code whose render is not kept (see the module's docstring)."""

MAX_READS = 20_000
"""Distinct reads a kept render may hold (a bundled rulebook makes 100 to 600): a template
reading more (a loop over many keys) is rendered every run rather than kept large."""

_SCALARS = (str, int, float, bool, type(None))
_ABSENT = object()
Path = tuple[Any, ...]
"""Steps from the context's root: ("k", key) into a mapping, ("i", index) into a list."""


class Log:
    """What one recorded render read: each distinct read once, in the order first read (as
    JSON lists: `kept_reads`), with what it found in the context as built (`kept_tokens`),
    looked up as it is first read: a mapping of the recording copy knows the context's
    mapping it copies, which the template never gets hold of, so what a read finds there
    then is what it finds after the render. Noting every read and sorting out the distinct
    ones after, then looking each up again from the context's root, was ~2 ms of a card
    edit's `validate` (~2,000 reads, ~600 distinct, of a bundled game's English rulebook)."""

    __slots__ = ("changed", "kept", "made", "tokens", "_at")

    def __init__(self) -> None:
        self.changed = False  # the template changed a mapping of the context (not kept)
        self.kept = True  # False: a read that cannot be kept (its key's type, its value's)
        self.made: list[list[Any]] = []
        self.tokens: list[Any] = []
        self._at: dict[Path, _Seen] = {}  # by path: the mappings of a path share one

    def seen(self, path: Path) -> _Seen:
        """What has been read at `path` so far (shared by the mappings at that path)."""
        state = self._at.get(path)
        if state is None:
            state = self._at[path] = _Seen(path)
        return state

    def first(self, seen: _Seen, source: Any, op: str, key: Any) -> None:
        """A read not made before at its path: kept with what it finds in `source` (the
        context's mapping at that path), unless it cannot be."""
        if type(key) not in _KEYS:
            self.kept = False
            return
        self.made.append([seen.listed(), op, key])
        if len(self.made) > MAX_READS:
            self.kept = False
            return
        try:
            self.tokens.append(_read(source, op, key))
        except NotKept:
            self.kept = False


class _Seen:
    """The reads made at one path: (op, the key's type, key), told apart as JSON tells
    them (`1` is not `true`), and the path as JSON writes it (made at its first read)."""

    __slots__ = ("marks", "path", "_listed")

    def __init__(self, path: Path) -> None:
        self.marks: set[tuple[str, type, Any]] = set()
        self.path = path
        self._listed: list[list[Any]] | None = None

    def listed(self) -> list[list[Any]]:
        if self._listed is None:
            self._listed = [list(step) for step in self.path]
        return self._listed


class _Recording:
    """Mixed into `dict` and `View`: each read is noted in the log, at this mapping's path.
    Attribute names start with `_` (the sandbox refuses them, and `_item_is_attribute` sees
    no new public name)."""

    _rec_log: Log
    _rec_path: Path
    _rec_source: Any  # the context's mapping this one copies
    _rec_seen: _Seen | None = None  # made at the first read
    _rec_later: set[Any] | None = None  # the keys whose values are still `Later`s

    def _open(self, key: Any) -> None:
        """The copy of the value of `key` made, if it was a `Later` (made in the context)."""
        later = self._rec_later
        try:
            if later is None or key not in later:
                return
        except TypeError:  # an unhashable key: no such key
            return
        later.discard(key)
        if not later:
            self._rec_later = None
        value = later_made(self._rec_source, key)
        if type(value) not in _SCALARS:
            value = recording_copy(value, self._rec_log, (*self._rec_path, ("k", key)))
        dict.__setitem__(self, key, value)  # type: ignore[index]

    def _open_all(self) -> None:
        """Every `Later` value made (before any C code reads the mapping's values itself:
        a comparison, `repr`, a copy, a change)."""
        while self._rec_later is not None:
            self._open(next(iter(self._rec_later)))

    def _note(self, op: str, key: Any = None) -> None:
        log = self._rec_log
        if not log.kept:
            return  # nothing is kept: what is read no longer matters
        seen = self._rec_seen
        if seen is None:
            seen = self._rec_seen = log.seen(self._rec_path)
        mark = (op, type(key), key)
        try:
            if mark in seen.marks:
                return
            seen.marks.add(mark)
        except TypeError:  # an unhashable key: the template got dict's own error
            log.kept = False
            return
        log.first(seen, self._rec_source, op, key)

    def __getitem__(self, key: Any) -> Any:
        self._note("k", key)
        if self._rec_later is not None:
            self._open(key)
        return super().__getitem__(key)  # type: ignore[misc]

    def get(self, key: Any, default: Any = None) -> Any:
        self._note("k", key)
        if self._rec_later is not None:
            self._open(key)
        return super().get(key, default)  # type: ignore[misc]

    def __contains__(self, key: Any) -> bool:
        self._note("k", key)
        return super().__contains__(key)  # type: ignore[misc]

    def __iter__(self) -> Any:
        self._note("o")
        return super().__iter__()  # type: ignore[misc]

    def __reversed__(self) -> Any:
        self._note("o")
        return super().__reversed__()  # type: ignore[misc]

    def __len__(self) -> int:
        self._note("o")
        return super().__len__()  # type: ignore[misc]

    def keys(self) -> Any:
        self._note("o")
        return super().keys()  # type: ignore[misc]

    def values(self) -> Any:
        self._note("s")
        self._open_all()
        return super().values()  # type: ignore[misc]

    def items(self) -> Any:
        self._note("s")
        self._open_all()
        return super().items()  # type: ignore[misc]

    def _whole(self, other: Any = None) -> None:
        self._note("d")
        self._open_all()
        if isinstance(other, _Recording):
            other._note("d")  # `dict.__eq__` reads the other mapping without its methods
            other._open_all()

    def __repr__(self) -> str:
        self._whole()
        return super().__repr__()

    def __format__(self, spec: str) -> str:
        self._whole()
        return super().__format__(spec)

    def __eq__(self, other: object) -> bool:
        self._whole(other)
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        self._whole(other)
        return super().__ne__(other)

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other: Any) -> Any:
        self._whole(other)
        return super().__or__(other)  # type: ignore[misc]

    def __ror__(self, other: Any) -> Any:
        self._whole(other)
        return super().__ror__(other)  # type: ignore[misc]

    def copy(self) -> Any:
        self._whole()
        return super().copy()  # type: ignore[misc]

    def __reduce_ex__(self, protocol: Any) -> Any:
        self._whole()
        return super().__reduce_ex__(protocol)

    def __sizeof__(self) -> int:
        self._whole()
        return super().__sizeof__()

    def _changed(self) -> None:
        self._rec_log.changed = True
        self._open_all()  # no `Later` left beside what the template puts in

    def __setitem__(self, key: Any, value: Any) -> None:
        self._changed()
        super().__setitem__(key, value)  # type: ignore[misc]

    def __delitem__(self, key: Any) -> None:
        self._changed()
        super().__delitem__(key)  # type: ignore[misc]

    def __ior__(self, other: Any) -> Any:
        self._changed()
        return super().__ior__(other)  # type: ignore[misc]

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._changed()
        super().update(*args, **kwargs)  # type: ignore[misc]

    def pop(self, *args: Any) -> Any:
        self._changed()
        return super().pop(*args)  # type: ignore[misc]

    def popitem(self) -> Any:
        self._changed()
        return super().popitem()  # type: ignore[misc]

    def setdefault(self, *args: Any) -> Any:
        self._changed()
        return super().setdefault(*args)  # type: ignore[misc]

    def clear(self) -> None:
        self._changed()
        super().clear()  # type: ignore[misc]


class _RecordingDict(_Recording, dict):
    pass


class _RecordingView(_Recording, View):
    pass


# Named as what they copy: Python's and the sandbox's errors name an object's class
# ("unsupported operand type(s) for +: 'View' and 'int'"), and a render with the cache must
# say what one without it says (`__qualname__` stays: a pickle finds the class by it).
_RecordingDict.__name__ = dict.__name__
_RecordingView.__name__ = View.__name__


def recording_copy(value: Any, log: Log, path: Path = ()) -> Any:
    """A copy of a rulebook context (plain dicts, Views, lists and scalars) whose mappings
    note their reads in `log`; raises NotKept for anything else (then it is not recorded).
    No object is shared: each mapping has one path. A scalar item is taken as it is, without
    a call (most of a context's ~4,000 values: the copy was ~2 ms of a card edit's run)."""
    kind: Any = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [
            item if type(item) in _SCALARS else recording_copy(item, log, (*path, ("i", i)))
            for i, item in enumerate(value)
        ]
    if kind is dict or kind is View:
        made: Any = (_RecordingDict if kind is dict else _RecordingView).__new__(
            _RecordingDict if kind is dict else _RecordingView
        )
        if kind is View:
            made.__dict__.update(value.__dict__)
        made._rec_log, made._rec_path, made._rec_source = log, path, value
        items = {}
        for key, item in dict.items(value):
            if type(key) not in _KEYS:
                raise NotKept
            if type(item) is Later:  # copied when made (`_Recording._open`)
                if made._rec_later is None:
                    made._rec_later = set()
                made._rec_later.add(key)
                items[key] = item
                continue
            items[key] = (
                item if type(item) in _SCALARS else recording_copy(item, log, (*path, ("k", key)))
            )
        dict.update(made, items)  # in C, as `dict.__setitem__` of each was
        return made
    raise NotKept


_KEYS = (str, int, bool, type(None))
"""Key types a kept read may name: JSON gives each back as it was (a float key may be NaN,
a tuple comes back a list)."""


def later_made(mapping: Any, key: Any) -> Any:
    """The value of `key` in a context's `mapping`, a `Later` made (and kept there)."""
    value = dict.__getitem__(mapping, key)
    if type(value) is Later:
        value = value.make()
        dict.__setitem__(mapping, key, value)
    return value


def _all_made(mapping: Any) -> None:
    """Every `Later` value of a context's `mapping` made."""
    for key in [k for k, v in dict.items(mapping) if type(v) is Later]:
        later_made(mapping, key)


def _key(key: Any) -> Any:
    if type(key) not in _KEYS:
        raise NotKept
    return [type(key).__name__, key]


def _shallow(value: Any) -> Any:
    """What a read of `value` tells: a scalar and its type; a mapping's kind and what it
    says it is (its items are read through its own methods); a list's items, shallowly."""
    kind: Any = type(value)
    if kind in _SCALARS:
        return [kind.__name__, value]
    if kind is dict:
        return ["D"]
    if kind is View:
        return ["V", value._what, value._item]
    if kind is list:
        return ["L", [_shallow(item) for item in value]]
    raise NotKept


def _deep(value: Any) -> Any:
    kind: Any = type(value)
    if kind is dict or kind is View:
        _all_made(value)
        return [_shallow(value), [[_key(k), _deep(v)] for k, v in dict.items(value)]]
    if kind is list:
        return ["L", [_deep(item) for item in value]]
    return _shallow(value)


def _at(context: Any, path: Path) -> Any:
    node = context
    for step, key in path:
        if step == "k":
            if type(node) not in (dict, View):
                raise NotKept
            parent = node
            node = dict.get(node, key, _ABSENT)
            if node is _ABSENT:
                raise NotKept
            if type(node) is Later:
                node = later_made(parent, key)
        else:
            if type(node) is not list or not 0 <= key < len(node):
                raise NotKept
            node = node[key]
    return node


def _read(node: Any, op: str, key: Any) -> Any:
    if type(node) not in (dict, View):
        raise NotKept
    if op == "k":
        try:
            found = dict.get(node, key, _ABSENT)
        except TypeError:  # an unhashable key: the template got dict's own error
            raise NotKept from None
        if type(found) is Later:
            found = later_made(node, key)
        return ["no"] if found is _ABSENT else _shallow(found)
    # a text key (nearly every one) written out as `_key` writes it, without its call
    if op == "o":
        return [["str", k] if type(k) is str else _key(k) for k in dict.keys(node)]
    if op == "s":
        _all_made(node)
        return [
            [["str", k] if type(k) is str else _key(k), _shallow(v)] for k, v in dict.items(node)
        ]
    return _deep(node)


def read_tokens(context: dict[str, Any], reads: list[Any]) -> list[Any]:
    """What each of `reads` ([path, op, key] lists) finds in `context`, in order (raises
    NotKept when one cannot be looked up). The reads at one path share its list (`_Seen.
    listed`; `marshal` gives a kept render's back shared), which is looked up once: a path
    finds the same mapping each time (a `Later` on it is made, and kept, at the first),
    and a card's several reads walked it from the root each (~0.1 ms a changed deck)."""
    nodes: dict[int, Any] = {}  # by the path list's id: every list is held by `reads`
    found = []
    for path, op, key in reads:
        node = nodes.get(id(path), _ABSENT)
        if node is _ABSENT:
            node = nodes[id(path)] = _at(context, tuple(map(tuple, path)))
        found.append(_read(node, op, key))
    return found


def tokens_digest(tokens: list[Any]) -> str:
    """The digest of what reads found (`read_tokens`)."""
    return hashlib.sha256(to_json(tokens).encode()).hexdigest()


def read_digest(context: dict[str, Any], reads: list[Any]) -> str:
    """The digest of what `reads` ([path, op, key] lists) find in `context` (raises NotKept
    when one cannot be looked up)."""
    return tokens_digest(read_tokens(context, reads))


def kept_reads(log: Log) -> list[Any]:
    """The distinct reads of a recorded render, in the order first read, as JSON lists;
    raises NotKept when the template changed the context's mappings or read a key JSON
    cannot keep, or read more than `MAX_READS` (worked out again next run). A read is told
    from another as JSON tells them (the key's type with it: `1` is not `true`); a path is
    one mapping's, made of keys of `_KEYS` and list indices, so two paths equal as tuples
    are written alike."""
    if log.changed or not log.kept or len(log.made) > MAX_READS:
        raise NotKept
    return log.made


def kept_tokens(log: Log) -> list[Any]:
    """What each of `kept_reads(log)` found in the context as built, in order: what
    `read_tokens` of the context finds (raises NotKept as `kept_reads` does)."""
    kept_reads(log)
    return log.tokens


REST = "\0rest"
WHOLE = "\0whole"
_REST_KEYS = frozenset({"game", "rules", "boards", "glossary", "lang", "decks"})


def parts(made: list[Any], decks: set[str]) -> dict[str, list[Any]]:
    """`part_indexes`, each part's reads themselves."""
    return {part: [made[i] for i in at] for part, at in part_indexes(made, decks).items()}


def part_indexes(made: list[Any], decks: set[str]) -> dict[str, list[int]]:
    """The reads of a render by what they find depends on: a deck's part (its key in
    `decks` and everything under its view: that deck's file), REST (the manifest, the boards,
    the glossary and the language: no content file; the root's keys, and its values' tokens,
    a mapping's kind and what it is, are the same for every game that passed its checks),
    WHOLE (the keys of `decks` in order, a key of it that is no deck, the whole root: any
    file). Each part's reads in the order read."""
    out: dict[str, list[int]] = {}
    for at, read in enumerate(made):
        path, op, key = read
        if not path:  # the root's keys are always the same, and so are its values' kinds
            part = REST if op in ("o", "s") or (op == "k" and key in _REST_KEYS) else WHOLE
        elif path[0] != ["k", "decks"]:
            part = REST
        elif len(path) == 1:
            part = key if op == "k" and key in decks else WHOLE
        else:
            part = path[1][1] if path[1][0] == "k" and path[1][1] in decks else WHOLE
        out.setdefault(part, []).append(at)
    return out


def unit_name_args(lang: str, source: str, steps: int) -> list[Any]:
    """What a kept render is named by: its language, its source and the steps it may take."""
    return [lang, hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest(), steps]
