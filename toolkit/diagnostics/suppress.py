"""Per-line suppression comments, as ruff's `noqa`: `# playset: ignore[T004]` (or several
codes, `ignore[T004,B003]`, or prefixes, `ignore[T]`) at the end of the line a diagnostic
points at silences just that finding there, with the reason written beside it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from toolkit.diagnostics.diagnostic import Diagnostic

COMMENT = re.compile(r"#\s*playset:\s*ignore\[([A-Z0-9,\s]+)\]")


@lru_cache(maxsize=256)
def _lines(path: str, stamp: float) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return tuple(handle.read(4_000_000).splitlines())
    except OSError:
        return ()


def _codes_on(file: str, line: int) -> tuple[str, ...]:
    try:
        stamp = Path(file).stat().st_mtime
    except OSError:
        return ()
    lines = _lines(file, stamp)
    if not 0 < line <= len(lines) or "playset:" not in lines[line - 1]:
        return ()
    match = COMMENT.search(lines[line - 1])
    if match is None:
        return ()
    return tuple(code.strip() for code in match.group(1).split(",") if code.strip())


def unsuppressed(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics no `# playset: ignore[...]` comment on their line silences."""
    kept = []
    for d in diagnostics:
        codes = _codes_on(d.file, d.span.line) if d.span.line else ()
        if not any(d.code.startswith(code) for code in codes):
            kept.append(d)
    return kept
