"""What a template is told when it names something that does not exist, in a designer's
words: `card 'advance' has no field 'nmae'; did you mean 'name'? It has: copies, id, …`,
not Jinja's `'toolkit.render.context.View object' has no attribute 'nmae'`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, partial
from typing import Any

from jinja2 import StrictUndefined
from jinja2.exceptions import UndefinedError
from jinja2.utils import missing

from toolkit.content import suggest
from toolkit.content.suggest import close_match

MAX_LISTED = 12


MAX_SHOWN = 60
"""Characters of a missing name (or of a key offered instead) a message repeats: a template
may ask with a name or value of a gigabyte's text (probe 29 H4)."""
MAX_SUGGESTED = 1_000
"""Keys `difflib` compares a missing name with (pure Python, ~n·m a key, no clock)."""


def shown(value: Any) -> str:
    """`value` as a message names it: a text cut to `MAX_SHOWN` characters, anything else by
    its kind and size, never its whole text (`str()` of a list holding one list many times)."""
    if isinstance(value, str):
        return (
            repr(value)
            if len(value) <= MAX_SHOWN
            else f"{value[:MAX_SHOWN]!r}… ({len(value):,} characters)"
        )
    if isinstance(value, int | float | bool) or value is None:
        text = repr(value)
        return text if len(text) <= MAX_SHOWN else f"a number of {len(text):,} digits"
    try:
        size = f" of {len(value):,} items"
    except TypeError:
        size = ""
    return f"a {type(value).__name__}{size}"


@lru_cache(maxsize=64)  # a key holds up to MAX_SUGGESTED names
def closest(name: str, candidates: tuple[str, ...]) -> str | None:
    """The candidate closest to `name`, or None: a pure function of both, so a message holding
    it is the same whoever asks first. Kept: a layout failing on every card face asks the same
    missing name of the same mapping once a face (with 1,000 look-alike `rules` keys each capped
    search was ~0.1 s, 4 a card: 300 cards took validate 43 s, probe 37 H2)."""
    return close_match(name, list(candidates))


class NameTips:
    """The 'did you mean' searches of one check run's template messages (`tips_of`): each
    missing name searched once against the same keys, and only the first MAX_TIPPED distinct
    ones (in the order the run renders its faces, the content's, so the same game gives the
    same messages; a face that fails is never kept between runs, so every run renders it)."""

    def __init__(self, limit: int = suggest.MAX_TIPPED) -> None:
        self._tips = suggest.Tips(limit)

    def close(self, name: str, candidates: tuple[str, ...]) -> str | None:
        return self._tips.ask((name, candidates), lambda: closest(name, candidates))


_TIPS: ContextVar[NameTips | None] = ContextVar("name_tips", default=None)


@contextmanager
def tips_of(tips: NameTips) -> Iterator[None]:
    """Template messages written in this block search through `tips` (a check run's)."""
    token = _TIPS.set(tips)
    try:
        yield
    finally:
        _TIPS.reset(token)


def _closest(name: str, candidates: tuple[str, ...]) -> str | None:
    tips = _TIPS.get()
    return tips.close(name, candidates) if tips is not None else closest(name, candidates)


def _choices(name: str, names: list[str]) -> str:
    # never the name itself: "no entry 'x'; did you mean 'x'?" tells the designer nothing
    candidates = tuple(n for n in names if n != name and len(n) <= MAX_SHOWN)[:MAX_SUGGESTED]
    close = _closest(name, candidates) if len(name) <= MAX_SHOWN else None
    tip = f"; did you mean {close!r}?" if close is not None else ""
    listed = ", ".join(
        n if len(n) <= MAX_SHOWN else f"{n[:MAX_SHOWN]}…" for n in names[:MAX_LISTED]
    )
    listed += ", …" if len(names) > MAX_LISTED else ""
    if not names:
        return tip
    return f"{tip} It has: {listed}" if tip else f"; it has: {listed}"


def missing_words(obj: Any, name: Any) -> str:
    """The message for `obj.name` (or `obj[name]`) when there is no such thing."""
    if obj is missing:
        return f"{shown(name)} is not defined"
    if isinstance(obj, Mapping):
        what = getattr(obj, "_what", "") or "this"
        names = sorted(shown(key) if not isinstance(key, str) else key for key in obj)
        if not isinstance(name, str):
            return f"{what} has no entry {shown(name)}" + _choices(
                shown(name) if isinstance(name, int) else "", names
            )
        noun = getattr(obj, "_item", "entry")
        if name in obj:  # only `attr()` misses a key that is there: it reads attributes alone
            return (
                f"`attr({shown(name)})` reads attributes only, and {shown(name)} is a key"
                f" here; write `.{name[:MAX_SHOWN]}` or `[{shown(name)}]` instead"
            )
        return f"{what} has no {noun} {shown(name)}" + _choices(name, names)
    if isinstance(obj, list | tuple):
        return f"the list has {len(obj)} entries; there is no entry {shown(name)}"
    if isinstance(obj, str | int | float | bool):
        return f"a {type(obj).__name__} value ({shown(obj)}) has no {shown(name)}"
    return f"{shown(obj)} has no {shown(name)}"


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
