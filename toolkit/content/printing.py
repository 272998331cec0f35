"""Which languages' print the running checks check: every one of the game's, but for the
validity gate of a `build --lang`, which prints those alone and need not resolve a face it
does not draw. Set by `toolkit.checks.run_checks`; read by the checks of what prints in a
language (print fit, glyphs, boards, the rulebook) and by an element kind that says a
language-free problem once, in the first language checked."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_PRINTED: ContextVar[frozenset[str] | None] = ContextVar("printed", default=None)


@contextmanager
def printing(languages: Collection[str] | None) -> Iterator[None]:
    """While the block runs, the checks check the print of `languages` (None: every one)."""
    token = _PRINTED.set(None if languages is None else frozenset(languages))
    try:
        yield
    finally:
        _PRINTED.reset(token)


def printed_languages(game: Any) -> list[str]:
    """The game's languages whose print is checked, in the manifest's order."""
    manifest = getattr(game, "manifest", None)
    every = list(manifest.languages) if manifest is not None else []
    printed = _PRINTED.get()
    return every if printed is None else [lang for lang in every if lang in printed]


def prints(lang: str) -> bool:
    """Whether the running checks check what prints in `lang`."""
    printed = _PRINTED.get()
    return printed is None or lang in printed


def every_language_printed() -> bool:
    """Whether the running checks check the print of every language (a run whose findings
    may be kept as `validate`'s)."""
    return _PRINTED.get() is None
