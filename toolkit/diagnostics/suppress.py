"""Per-line suppression comments, as ruff's `noqa`: `# playset: ignore[T004]` (or several
codes, `ignore[T004,B003]`, or prefixes, `ignore[T]`) at the end of the line a diagnostic
points at silences just that finding there, with the reason written beside it.

In a spreadsheet deck the note is written in a notes column (a header starting with `#`) of
the row a finding points at; the sheet's loader records the notes it read (`note_sheet`)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from toolkit.diagnostics.diagnostic import Diagnostic

COMMENT = re.compile(r"#\s*playset:\s*ignore\[([A-Z0-9,\s]+)\]")


def _notes(path: str, inside: tuple[Path, ...]) -> dict[int, str]:
    """The lines of the file at `path` that hold `playset:` (line number → text), {} for a
    file outside `inside`, no text or unreadable. Read once per `unsuppressed` call and not
    kept after it: a cache by version kept the whole file's lines for each version (a
    language server checks a new version at each edit: ~90 MB per edit of a 3.9 MB deck)."""
    from toolkit.fileio import open_regular, read_open, real_path, sparse

    # Only a file inside the game (or the toolkit): a finding may name a link the game
    # brought ("links outside the game folder, so it is not read"), and its line is no
    # game's to read.
    root = next((r for r in inside if real_path(Path(path)).is_relative_to(r)), None)
    if root is None:
        return {}
    try:  # a regular file only: a FIFO a finding names (game.yaml) would block the open
        with open_regular(Path(path), inside=root) as (fd, info):
            # no comment in a file that is no text (a font, a picture: a NUL in its first
            # bytes) or is sparse: 200 sparse fonts' P009s read 4 MB of zeros each (11 s)
            if sparse(fd, info) or b"\0" in os.pread(fd, 8192, 0):
                return {}
            raw = read_open(fd, 4_000_000)
    except OSError:
        return {}
    if b"playset:" not in raw:  # the usual file: no comment, no lines made
        return {}
    lines = raw[:4_000_000].decode("utf-8", "replace").splitlines()
    return {number: line for number, line in enumerate(lines, 1) if "playset:" in line}


def _codes_on(
    file: str, line: int, read: dict[str, dict[int, str]], inside: tuple[Path, ...]
) -> tuple[str, ...]:
    notes = read.get(file)
    if notes is None:  # each file is read once per call (a check gives hundreds)
        notes = read[file] = _notes(file, inside)
    text = notes.get(line)
    if text is None:
        return ()
    match = COMMENT.search(text)
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
    read: dict[str, dict[int, str]] = {}
    for d in diagnostics:
        if d.span.sheet is not None:
            codes = _SHEET_NOTES.get(d.file, {}).get((d.span.sheet, d.span.line), ())
        else:
            codes = _codes_on(d.file, d.span.line, read, roots) if d.span.line else ()
        if not any(d.code.startswith(code) for code in codes):
            kept.append(d)
    return kept
