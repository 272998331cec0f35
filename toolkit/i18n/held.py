"""A game folder held by one run at a time while i18n rewrites its files."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from pathlib import Path

from toolkit import usercache
from toolkit.fileio import locked


@contextlib.contextmanager
def game_held(root: Path) -> Iterator[None]:
    """The game folder `root` held by this run while the block reads, changes and rewrites
    its files (`i18n import`): another run that holds it waits (`toolkit.fileio.locked`).
    The lock file is in the user's cache folder, named by the game folder's real path, so
    the game folder gets no file of ours; with no private cache folder, no lock."""
    folder = usercache.cache_dir("locks")
    if folder is None:
        yield
        return
    name = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:32]
    with locked(folder / f"{name}.lock"):
        yield
