"""The game folders a commit touches, for the pre-commit hook (`playset validate --changed`):
the nearest folder with a game.yaml above each file git has staged; with nothing staged
(`pre-commit run --all-files`, or by hand), every game folder under the working folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

from toolkit.content.game import MANIFEST, game_folder_around
from toolkit.fileio import walk

SKIPPED = frozenset({"output", "node_modules", "__pycache__"})


def staged_files(cwd: Path) -> list[Path]:
    """Files git has staged (added, changed, renamed or deleted), as paths; [] outside a
    repository or without git. The repository's `core.fsmonitor` is not run: it is a command
    `.git/config` names, and a game folder unpacked with its `.git/` would bring its own."""
    try:
        done = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "diff", "--cached", "--name-only", "-z"]
            + ["--relative"],
            cwd=cwd,
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    if done.returncode != 0:
        return []
    return [cwd / name for name in done.stdout.decode("utf-8", "replace").split("\0") if name]


def games_under(root: Path, limit: int = 500) -> list[Path]:
    """Every game folder under `root` (hidden and output folders skipped)."""
    found: list[Path] = []
    for folder, dirs, files in walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.startswith("."))
        if MANIFEST in files:
            found.append(Path(folder))
            if len(found) >= limit:
                break
    return found


def changed_games(cwd: Path) -> list[Path]:
    """The game folders of the staged files, in order; every game under `cwd` when nothing
    is staged."""
    staged = staged_files(cwd)
    if not staged:
        return games_under(cwd)
    folders: dict[Path, None] = {}
    for path in staged:
        # a deleted file's folder may be gone too: look from the nearest folder that exists
        start = next((p for p in (path.parent, *path.parents) if p.is_dir()), cwd)
        folder = game_folder_around(start)
        if folder is not None:
            folders.setdefault(folder)
    return list(folders)
