"""`playset list`: the bundled games, their languages and decks."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from toolkit.cli.common import GAME_HELP, game_folders, stdout
from toolkit.content.game import load_game
from toolkit.content.summary import summarize


def list_games(
    games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None,
) -> None:
    """List games with their players, languages and cards per deck."""
    table = Table(title="Playset games")
    for column in ("id", "title", "players", "languages", "decks (cards)", "boards"):
        table.add_column(column)
    for folder in game_folders(games):
        info = summarize(load_game(folder))
        decks = "\n".join(f"{d.id}: {d.cards}" for d in info.decks) or "-"
        boards = "\n".join(info.boards) or "-"
        table.add_row(info.id, info.title, info.players, info.languages, decks, boards)
    stdout.print(table)
