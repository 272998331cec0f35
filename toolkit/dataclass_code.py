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
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import sys
from types import CodeType
from typing import Any

from toolkit.usercache import SignedStore

ENTRY = f"dataclass-code-{sys.implementation.cache_tag}-{sys.hexversion:x}"
"""One entry per Python build: marshal's format and code objects are the interpreter's."""
MAX_BYTES = 4 * 1024 * 1024

_KEPT: dict[str, CodeType] = {}
"""Source text → its compiled code: read from the store, then what this run compiled."""
_USED: set[str] = set()
_STATE: dict[str, Any] = {"store": None, "new": 0}


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
    """`exec` as `dataclasses` calls it, a source text compiled once and kept."""
    if globals is None:  # exec's own default: the caller's globals (and locals)
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if type(source) is not str:
        return builtins.exec(source, globals, locals)
    code = _KEPT.get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _KEPT[source] = code
        _STATE["new"] += 1
    _USED.add(source)
    return builtins.exec(code, globals, locals)


def install() -> None:
    """Compile dataclass methods through the kept code from now on in this process."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    store = SignedStore.open("code", MAX_BYTES)
    _STATE["store"] = store
    payload = store.read(ENTRY) if store is not None else None
    if payload:
        try:
            found = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            found = None
        if isinstance(found, dict):
            _KEPT.update(
                (text, code)
                for text, code in found.items()
                if type(text) is str and type(code) is CodeType
            )
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # shadows the builtin there


def save() -> None:
    """Keep what this run compiled (with what was kept before, while it fits)."""
    store = _STATE["store"]
    if store is None or not _STATE["new"]:
        return
    payload = marshal.dumps(_KEPT)
    if len(payload) > MAX_BYTES:  # keep this run's own: the next run of it pays nothing
        payload = marshal.dumps({text: _KEPT[text] for text in _USED})
    if store.write(ENTRY, payload):
        _STATE["new"] = 0
