"""Where a game's card layouts and icons come from: its own folder first, then the toolkit's.

The one lookup every layout and icon name goes through (build, validate, the checks and the
preview), so that a designer's `layouts/` and `icons/` reach everything a built-in does and a
game file of the same name shadows the built-in one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from toolkit.content.game import display_path, repo_root


@dataclass(frozen=True)
class Kind:
    """One kind of asset: the folder a game keeps it in, its file suffix, and the toolkit's
    own folder of built-ins (None when the built-ins are code, as icons are)."""

    folder: str
    suffix: str
    builtin: tuple[str, ...] | None


LAYOUTS = Kind("layouts", ".yaml", ("templates", "cards"))
ICONS = Kind("icons", ".svg", None)


@dataclass(frozen=True)
class Found:
    path: Path
    display: str  # as diagnostics show it
    in_game: bool


def _folders(kind: Kind, game_root: Path | None) -> list[tuple[Path, bool]]:
    folders = [(game_root / kind.folder, True)] if game_root is not None else []
    if kind.builtin is not None:
        folders.append((repo_root().joinpath(*kind.builtin), False))
    return folders


def _display(kind: Kind, path: Path, in_game: bool) -> str:
    if in_game:
        return display_path(path)
    assert kind.builtin is not None
    return "/".join((*kind.builtin, path.name))


def find(kind: Kind, name: str, game_root: Path | None = None) -> Found | None:
    """The file for `name`: the game folder's if it has one, else the toolkit's; None if
    neither has it."""
    for folder, in_game in _folders(kind, game_root):
        path = folder / f"{name}{kind.suffix}"
        if path.is_file():
            return Found(path, _display(kind, path, in_game), in_game)
    return None


def expected(kind: Kind, name: str, game_root: Path | None = None) -> Found:
    """Where `name` would be read from: the file found, else the toolkit's (or the game's)
    path, so that a missing file is reported at a path the designer recognises."""
    found = find(kind, name, game_root)
    if found is not None:
        return found
    folder, in_game = _folders(kind, game_root)[-1]
    path = folder / f"{name}{kind.suffix}"
    return Found(path, _display(kind, path, in_game), in_game)


def in_game(kind: Kind, game_root: Path | None) -> list[Found]:
    """Every file of that kind the game folder holds, by name."""
    if game_root is None:
        return []
    folder = game_root / kind.folder
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.iterdir() if p.suffix == kind.suffix and p.is_file())
    return [Found(p, display_path(p), True) for p in files]
