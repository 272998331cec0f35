"""Temporary files a killed write left, removed once no run in progress can own them.

`fileio` (its staged `.<name>.<8 hex>.tmp` files) and `usercache` (its `.entry.*` files) both
write a temporary file, then rename it into place; a process killed between the two leaves the
temporary for ever. Both sit at the bottom of the import graph and import neither each other,
so their one remover lives here, told which names are their temporaries.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

STALE_SECONDS = 600  # a temporary file this old belongs to no run in progress


def remove_stale(folder: Path | int, is_temporary: Callable[[str], bool]) -> int:
    """Remove the regular files of `folder` (not below it) whose names `is_temporary` accepts
    and that are older than STALE_SECONDS (a run stages for seconds at most); how many.
    `folder` may be a descriptor of a folder opened without following links: the files are
    then removed in that very folder, not in one a link switched in names."""
    cutoff = time.time() - STALE_SECONDS
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    at = folder if isinstance(folder, int) else None
    for entry in entries:
        if not is_temporary(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                if at is None:
                    os.unlink(entry.path)
                else:
                    os.unlink(entry.name, dir_fd=at)
                removed += 1
        except OSError:
            continue
    return removed
