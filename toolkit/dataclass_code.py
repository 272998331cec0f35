"""The compiled methods `dataclasses` writes, kept between runs of a command.

`@dataclass` writes the source of each method it adds (`__init__`, `__repr__`, `__eq__`,
`__hash__`, a frozen class's `__setattr__` and `__delattr__`) and compiles it with `exec`:
one compile per method, ~0.2 ms each on a 2-core machine, ~6 per frozen class. A cold
`playset build` makes ~110 dataclasses (the toolkit's and its libraries'): ~0.14 s of its
~1.5 s CPU, two thirds of it compiling the same sources as on every run.

`install()` gives the `dataclasses` module an `exec` that compiles each source once and keeps
the code object, keyed by the whole source text; a command's run then saves what it compiled
(`save()`). The code is what `exec` would have compiled from that text (the same file name
`<string>`, no inherited future flags), so every class behaves exactly as before. The entries
live in the user cache under the template cache's rules (toolkit.usercache: a private folder,
HMAC-checked, one file per Python build): anything else means no cache, the same classes.

The same store keeps the code of `typing`'s forward references: `typing.ForwardRef` compiles
the text of every string annotation it is given (`"dict[str, Any] | None"`), ~0.1 M
instructions each, and importing pydantic alone makes ~800 of them (its core schema's
TypedDicts), every run the same texts. `install()` gives `typing` a `compile` that keeps
that code too (under a key no dataclass source can have): the same code object `compile`
makes from that text, which `typing` evaluates later as ever.

And it keeps what `re` compiles a regular expression into: `re.compile` parses each pattern
and writes its matcher's code in Python (`re._compiler`), ~0.7 M instructions a pattern, and a
cold build compiles ~150 of them (the checks', Jinja's, reportlab's, the YAML reader's), ~100 M
instructions, every run the same. `install()` gives `re` a compiler that keeps, for a pattern
text and its flags, the arguments it hands to `_sre.compile` (flags, code, groups and group
names), checked when kept: the pattern rebuilt from them must equal the one `re` made (same
flags, text and code), with the same groups. The next run makes the pattern from them with
`_sre.compile`, as `re` does; a pattern that fails to compile is never kept (`re` raises its
error as ever) and the debug flag bypasses the store.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # re's matcher, no stubs
import builtins
import dataclasses
import marshal
import re
import sys
import typing
from types import CodeType
from typing import Any

from toolkit.usercache import SignedStore

ENTRY = f"dataclass-code-2-{sys.implementation.cache_tag}-{sys.hexversion:x}"
"""One entry per Python build: marshal's format and code objects are the interpreter's; and
one per command (`install("build")`): a store holding what every command ever compiled
(~1,600 entries, 1.4 MB) cost a build ~70 M instructions to check and unmarshal, twice what
the build's own ~850 entries cost. Format 2: each entry's code (or pattern arguments) is
marshalled apart, and decoded the first time the run asks for it: a build used ~900 of the
~1,600 its entry held (what builds of other games compiled), and unmarshalling them all was
~4 ms of its run; format 1 (the whole dict in one marshal) is no longer read."""
MAX_BYTES = 4 * 1024 * 1024
KEEP_BYTES = 64 * 1024 * 1024  # an entry per command and Python build

_KEPT: dict[str, CodeType | bytes] = {}
"""Source text → its compiled code: read from the store (its marshal bytes, until asked
for: `_code`), then what this run compiled."""
_USED: set[Any] = set()
_REGEX: dict[tuple[str, str | bytes, int], tuple[Any, ...] | bytes] = {}
"""("re", pattern, flags) → the arguments after the pattern of its `_sre.compile` (their
marshal bytes as read, until asked for: `_args`)."""


def _code(key: str) -> CodeType | None:
    """The kept code of `key`, decoded on first use; None when none is kept (or what was
    kept is not code: then compiled again, as a missing one)."""
    code = _KEPT.get(key)
    if type(code) is bytes:
        try:
            code = marshal.loads(code)
        except (EOFError, ValueError, TypeError):
            code = None
        if type(code) is not CodeType:
            return None
        _KEPT[key] = code  # the same place in the dict: `since` counts on its order
    return code if type(code) is CodeType else None


def _args(key: tuple[str, str | bytes, int]) -> tuple[Any, ...] | None:
    """The kept `_sre.compile` arguments of `key`, decoded on first use (None: none kept,
    or not five of them)."""
    args = _REGEX.get(key)
    if type(args) is bytes:
        try:
            args = marshal.loads(args)
        except (EOFError, ValueError, TypeError):
            args = None
        if type(args) is not tuple or len(args) != 5:
            return None
        _REGEX[key] = args
    return args if type(args) is tuple else None


_STATE: dict[str, Any] = {"store": None, "new": 0}


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
    """`exec` as `dataclasses` calls it, a source text compiled once and kept."""
    if globals is None:  # exec's own default: the caller's globals (and locals)
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if type(source) is not str:
        return builtins.exec(source, globals, locals)
    code = _code(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _KEPT[source] = code
        _STATE["new"] += 1
    _USED.add(source)
    return builtins.exec(code, globals, locals)


EVAL = "\0eval\0"
"""Prefix of a forward reference's key: a dataclass method's source never starts with NUL."""


def _compile(
    source: Any,
    filename: Any,
    mode: str,
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
) -> Any:
    """`compile` as `typing.ForwardRef` calls it, an annotation's text compiled once and kept;
    any other call is passed on as it is (`typing` itself has no future imports to inherit)."""
    if (
        type(source) is not str
        or filename != "<string>"
        or mode != "eval"
        or flags
        or optimize != -1
    ):
        return compile(source, filename, mode, flags, True, optimize)  # typing: no futures
    key = EVAL + source
    code = _code(key)
    if code is None:
        code = compile(source, "<string>", "eval", dont_inherit=True)  # SyntaxError: as ever
        _KEPT[key] = code
        _STATE["new"] += 1
    _USED.add(key)
    return code


_RE_COMPILE = re._compiler.compile  # type: ignore[attr-defined]
"""`re`'s own pattern compiler (patterns the store does not hold go to it)."""


def _regex(pattern: Any, flags: int = 0) -> Any:
    """`re._compiler.compile` as `re._compile` calls it (a str or bytes pattern, int flags):
    a pattern kept by an earlier run is made from its kept code, as `re` makes it."""
    if type(pattern) not in (str, bytes) or type(flags) is not int or flags & re.DEBUG:
        return _RE_COMPILE(pattern, flags)
    key = ("re", pattern, flags)
    kept = _args(key)
    if kept is not None:
        _USED.add(key)
        return _sre.compile(pattern, *kept)
    made = _RE_COMPILE(pattern, flags)  # a bad pattern raises re.error here, as ever
    if _anagram_kept(pattern, flags):
        return made  # a pattern joined from a set: another text each run, never kept
    try:
        args = _regex_args(pattern, flags)
        again = _sre.compile(pattern, *args)
        same = again == made and again.groupindex == made.groupindex
        if same and again.groups == made.groups:
            marshal.dumps(args)  # plain data only
            _REGEX[key] = args
            _USED.add(key)
            _STATE["new"] += 1
    except Exception:  # noqa: BLE001  # another Python's `re` internals: nothing kept
        pass
    return made


def _anagram_kept(pattern: str | bytes, flags: int) -> bool:
    """Whether the store holds another order of the same characters with the same flags: a
    library that joins a set's members into a pattern (reportlab's unsafe names, babel's
    plural variables) writes them in another order each run (string hashes are salted per
    process); keeping each one would grow the store every run."""
    size = len(pattern)
    mine = None
    # a copy (made without a thread switch): another thread compiling a pattern meanwhile
    # (the preview imports its drawing libraries in two threads) grew the store under this
    # loop, "dictionary changed size during iteration", and the preview's thread died
    for _, text, kept_flags in list(_REGEX):
        if kept_flags == flags and len(text) == size and type(text) is type(pattern):
            mine = mine if mine is not None else sorted(pattern)
            if sorted(text) == mine:
                return True
    return False


def _regex_args(pattern: str | bytes, flags: int) -> tuple[Any, ...]:
    """What `re._compiler.compile(pattern, flags)` hands `_sre.compile` after the pattern,
    as plain data (the opcodes are ints)."""
    compiler = re._compiler  # type: ignore[attr-defined]
    parsed = re._parser.parse(pattern, flags)  # type: ignore[attr-defined]
    code = [int(op) for op in compiler._code(parsed, flags)]
    groupindex = {str(name): int(index) for name, index in parsed.state.groupdict.items()}
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    state_flags = int(flags | parsed.state.flags)
    return (state_flags, code, parsed.state.groups - 1, groupindex, tuple(indexgroup))


def _take(found: dict[Any, Any]) -> None:
    """The entries of a read payload that have the kinds this module writes."""
    for key, value in found.items():
        if type(key) is str and type(value) in (CodeType, bytes):
            _KEPT[key] = value
        elif (
            type(key) is tuple
            and len(key) == 3
            and key[0] == "re"
            and type(key[1]) in (str, bytes)
            and type(key[2]) is int
            and ((type(value) is tuple and len(value) == 5) or type(value) is bytes)
        ):
            _REGEX[key] = value


def install(command: str = "") -> None:
    """Compile dataclass methods and forward references through the kept code from now on
    in this process, kept in the entry of `command` (a command's name, else the shared one)."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    store = SignedStore.open("code", MAX_BYTES, KEEP_BYTES)
    _STATE["store"] = store
    _STATE["entry"] = f"{ENTRY}-{command}" if command.isidentifier() else ENTRY
    payload = store.read(_STATE["entry"]) if store is not None else None
    if payload:
        try:
            found = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            found = None
        if isinstance(found, dict):
            _take(found)
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # shadows the builtin there
    typing.compile = _compile  # type: ignore[attr-defined]  # ForwardRef's, as above
    re._compiler.compile = _regex  # type: ignore[attr-defined]  # as above


def save() -> None:
    """Keep what this run compiled (with what was kept before, while it fits)."""
    store = _STATE["store"]
    if store is None or not _STATE["new"]:
        return
    everything: dict[Any, Any] = {**_KEPT, **_REGEX}
    for key, value in everything.items():  # each apart: the next run decodes what it uses
        if type(value) is not bytes:
            everything[key] = marshal.dumps(value)
    payload = marshal.dumps(everything)
    if len(payload) > MAX_BYTES:  # keep this run's own: the next run of it pays nothing
        payload = marshal.dumps({key: everything[key] for key in _USED})
    if store.write(_STATE.get("entry", ENTRY), payload):
        _STATE["new"] = 0


def mark() -> tuple[int, int, frozenset[Any]]:
    """Where this process's kept code stands now (for `since`, in a forked child)."""
    return len(_KEPT), len(_REGEX), frozenset(_USED)


def since(at: tuple[int, int, frozenset[Any]]) -> bytes:
    """What was compiled and used after `mark` gave `at` (a forked child's work, for its
    parent to keep: `take`), as marshal data."""
    kept, regex, used = at
    if _STATE["store"] is None:
        return b""
    new: dict[Any, Any] = dict(list(_KEPT.items())[kept:])  # a dict keeps insertion order
    new.update(list(_REGEX.items())[regex:])
    return marshal.dumps({"new": new, "used": [key for key in _USED if key not in used]})


def take(payload: bytes) -> None:
    """Keep what a forked child compiled and used (`since`), as if compiled here: the next
    run reads it instead of compiling it again."""
    if not payload or _STATE["store"] is None:
        return
    try:
        found = marshal.loads(payload)
        new, used = found["new"], found["used"]
    except (EOFError, ValueError, TypeError, KeyError):
        return
    if not isinstance(new, dict) or not isinstance(used, list):
        return
    before = len(_KEPT) + len(_REGEX)
    _take(new)
    _STATE["new"] += len(_KEPT) + len(_REGEX) - before
    _USED.update(key for key in used if key in _KEPT or key in _REGEX)
