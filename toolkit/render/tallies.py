"""One shape for the tallies a drawing keeps of what it draws (icons, lines, glyphs): a
context variable set for the block, so a tally follows its own thread or task."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def tallying(var: ContextVar[T | None], tally: T) -> Iterator[T]:
    """`tally` as `var`'s value inside the block, the value before it after."""
    token = var.set(tally)
    try:
        yield tally
    finally:
        var.reset(token)
