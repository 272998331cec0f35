"""Helpers shared by CLI commands: resolving GAME arguments, consoles, usage errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


class LazyConsole:
    """A rich Console made on first use: importing rich and sizing the terminal cost ~40 ms,
    which commands that print a line or two should not pay before doing their work."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Any = None

    def get(self) -> Any:
        """The rich Console itself (for rich objects that take a console)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr, highlight=False)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


stdout = LazyConsole(stderr=False)
stderr = LazyConsole(stderr=True)

GAME_HELP = "A bundled game's id or the path of a game folder (default: every bundled game)."


def usage_error(message: str) -> typer.Exit:
    stderr.print(f"[red]error:[/red] {message}")
    return typer.Exit(2)


def game_folders(args: list[str] | None) -> list[Path]:
    """Folders for GAME arguments; all bundled games when none is given; exit 2 if unknown."""
    from toolkit.content.game import GameNotFound, bundled_games, resolve_game

    if not args:
        return list(bundled_games().values())
    try:
        return [resolve_game(arg) for arg in args]
    except GameNotFound as exc:
        raise usage_error(str(exc)) from None
