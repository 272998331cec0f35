"""Per-line suppression comments, as ruff's `noqa`: `# playset: ignore[T004]` (or several
codes, `ignore[T004,B003]`, or prefixes, `ignore[T]`) at the end of the line a diagnostic
points at silences just that finding there, with the reason written beside it.

In a spreadsheet deck the note is written in a notes column (a header starting with `#`) of
the row a finding points at; the sheet's loader records the notes it read (`note_sheet`)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from toolkit.diagnostics.diagnostic import Diagnostic

COMMENT = re.compile(r"#\s*playset:\s*ignore\[([A-Z0-9,\s]+)\]")


@lru_cache(maxsize=256)
def _lines(path: str, stamp: float, inside: tuple[Path, ...]) -> tuple[str, ...]:
    from toolkit.fileio import open_regular, read_open, real_path, sparse

    # Only a file inside the game (or the toolkit): a finding may name a link the game
    # brought ("links outside the game folder, so it is not read"), and its line is no
    # game's to read.
    root = next((r for r in inside if real_path(Path(path)).is_relative_to(r)), None)
    if root is None:
        return ()
    try:  # a regular file only: a FIFO a finding names (game.yaml) would block the open
        with open_regular(Path(path), inside=root) as (fd, info):
            # no comment in a file that is no text (a font, a picture: a NUL in its first
            # bytes) or is sparse: 200 sparse fonts' P009s read 4 MB of zeros each (11 s)
            if sparse(fd, info) or b"\0" in os.pread(fd, 8192, 0):
                return ()
            raw = read_open(fd, 4_000_000)
    except OSError:
        return ()
    return tuple(raw[:4_000_000].decode("utf-8", "replace").splitlines())


def _codes_on(
    file: str, line: int, stamps: dict[str, float | None], inside: tuple[Path, ...]
) -> tuple[str, ...]:
    if file in stamps:  # each file is looked at once per call (a check gives hundreds)
        stamp = stamps[file]
    else:
        try:
            stamp = Path(file).stat().st_mtime
        except OSError:
            stamp = None
        stamps[file] = stamp
    if stamp is None:
        return ()
    lines = _lines(file, stamp, inside)
    if not 0 < line <= len(lines) or "playset:" not in lines[line - 1]:
        return ()
    match = COMMENT.search(lines[line - 1])
    if match is None:
        return ()
    return tuple(code.strip() for code in match.group(1).split(",") if code.strip())


_SHEET_NOTES: dict[str, dict[tuple[str, int], tuple[str, ...]]] = {}


def note_sheet(file: str, sheet: str, notes: dict[int, tuple[str, ...]]) -> None:
    """Record the `playset: ignore[...]` notes of a sheet file by row, as its loader read
    them (a sheet is no text file whose lines can be read again here)."""
    _SHEET_NOTES[file] = {(sheet, row): codes for row, codes in notes.items()}


def unsuppressed(diagnostics: Iterable[Diagnostic], *, inside: Iterable[Path]) -> list[Diagnostic]:
    """The diagnostics no `# playset: ignore[...]` comment on their line silences; comments
    are read only in files inside the folders `inside` (the game's, the toolkit's)."""
    from toolkit.fileio import real_path
    from toolkit.home import repo_root

    roots = tuple(real_path(Path(r)) for r in (*inside, repo_root()))
    kept = []
    stamps: dict[str, float | None] = {}
    for d in diagnostics:
        if d.span.sheet is not None:
            codes = _SHEET_NOTES.get(d.file, {}).get((d.span.sheet, d.span.line), ())
        else:
            codes = _codes_on(d.file, d.span.line, stamps, roots) if d.span.line else ()
        if not any(d.code.startswith(code) for code in codes):
            kept.append(d)
    return kept
