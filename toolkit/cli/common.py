"""Helpers shared by CLI commands: resolving GAME arguments, consoles, usage errors."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

stdout = Console(highlight=False)
stderr = Console(stderr=True, highlight=False)

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
