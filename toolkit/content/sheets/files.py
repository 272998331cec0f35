"""What every sheet file is checked for before it is read: a regular file (a FIFO would
block, a device never end) no larger than a sheet may be."""

from __future__ import annotations

import stat
from pathlib import Path

from toolkit.content.sheets.grid import MAX_SHEET_BYTES, Refused
from toolkit.content.sheets.rules import Y_SHEET_SIZE
from toolkit.content.source import Y_UNREADABLE
from toolkit.diagnostics import Span
from toolkit.fileio import not_regular


def unreadable(path: Path, display: str) -> Refused | None:
    """The file's refusal (Y010, or Y013 by size), or None when it may be read; raises
    OSError when it cannot even be looked at."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        message = f"cannot read file: {not_regular(info.st_mode)}"
        return Refused(Y_UNREADABLE.at(display, Span(), message))
    if info.st_size > MAX_SHEET_BYTES:
        message = f"file is {info.st_size:,} bytes; the limit is {MAX_SHEET_BYTES:,}"
        return Refused(Y_SHEET_SIZE.at(display, Span(), message))
    return None
