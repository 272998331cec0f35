"""What a template is told when it names something that does not exist, in a designer's
words: `card 'advance' has no field 'nmae'; did you mean 'name'? It has: copies, id, …`,
not Jinja's `'toolkit.render.context.View object' has no attribute 'nmae'`."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from functools import partial
from typing import Any

from jinja2 import StrictUndefined
from jinja2.exceptions import UndefinedError
from jinja2.utils import missing

MAX_LISTED = 12


def _choices(name: str, names: list[str]) -> str:
    # never the name itself: "no entry 'x'; did you mean 'x'?" tells the designer nothing
    close = difflib.get_close_matches(name, [n for n in names if n != name], n=1)
    tip = f"; did you mean {close[0]!r}?" if close else ""
    shown = ", ".join(names[:MAX_LISTED]) + (", …" if len(names) > MAX_LISTED else "")
    if not names:
        return tip
    return f"{tip} It has: {shown}" if tip else f"; it has: {shown}"


def missing_words(obj: Any, name: Any) -> str:
    """The message for `obj.name` (or `obj[name]`) when there is no such thing."""
    if obj is missing:
        return f"{name!r} is not defined"
    if isinstance(obj, Mapping):
        what = getattr(obj, "_what", "") or "this"
        names = sorted(str(key) for key in obj)
        if not isinstance(name, str):
            return f"{what} has no entry {name!r}" + _choices(str(name), names)
        noun = getattr(obj, "_item", "entry")
        if name in obj:  # only `attr()` misses a key that is there: it reads attributes alone
            return (
                f"`attr({name!r})` reads attributes only, and {name!r} is a key here;"
                f" write `.{name}` or `[{name!r}]` instead"
            )
        return f"{what} has no {noun} {name!r}" + _choices(name, names)
    if isinstance(obj, list | tuple):
        return f"the list has {len(obj)} entries; there is no entry {name!r}"
    kind = type(obj).__name__
    return f"a {kind} value ({str(obj)[:30]!r}) has no {name!r}"


class MissingName(UndefinedError):
    """A template named something that does not exist; `name` is the missing part."""

    def __init__(self, message: str, name: Any = None, top_level: bool = False) -> None:
        super().__init__(message)
        self.name = name
        self.top_level = top_level  # a name of the context itself, not a field of one


class DesignerUndefined(StrictUndefined):
    """StrictUndefined (any use of a missing name is an error) with a message that names
    what is missing and what there is instead."""

    __slots__ = ()

    def __init__(
        self,
        hint: str | None = None,
        obj: Any = missing,
        name: str | None = None,
        exc: type[Exception] = UndefinedError,
    ) -> None:
        if exc is UndefinedError:  # raise a MissingName that knows which name it was
            exc = partial(MissingName, name=name, top_level=obj is missing)  # type: ignore[assignment]
        super().__init__(hint, obj, name, exc)  # type: ignore[arg-type]

    @property
    def _undefined_message(self) -> str:
        if self._undefined_hint:
            return self._undefined_hint
        return missing_words(self._undefined_obj, self._undefined_name)
