"""`playset list`: the bundled games, their languages and decks."""

from __future__ import annotations

from typing import Annotated

import typer

from toolkit.cli.common import GAME_HELP, escape, game_folders, stderr, stdout


def list_games(
    games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None,
) -> None:
    """List games with their players, languages and cards per deck."""
    from rich.table import Table

    from toolkit.content.folders import MANIFEST
    from toolkit.content.game import load_game
    from toolkit.content.summary import summarize

    table = Table(title="Playset games")
    table.add_column("game", no_wrap=True)
    table.add_column("players", no_wrap=True)
    table.add_column("languages", no_wrap=True)
    table.add_column("deck / board", no_wrap=True)
    table.add_column("size", justify="right", no_wrap=True)
    not_games = 0
    for folder in game_folders(games):
        if not (folder / MANIFEST).is_file():  # `list /etc` listed /etc, all dashes
            stderr.print(f"[red]{escape(str(folder))}: not a game folder (no {MANIFEST})[/red]")
            not_games += 1
            continue
        info = summarize(load_game(folder))
        rows = [(d.id, f"{d.cards} cards") for d in info.decks]
        rows += [(f"board {name}", detail) for name, detail in info.boards]
        lead_rows = [(info.id, info.players, info.languages), (info.title, "", "")]
        for index, (part, cards) in enumerate(rows or [("-", "")]):
            lead = lead_rows[index] if index < len(lead_rows) else ("", "", "")
            cells = [escape(cell) for cell in (*lead, part, cards)]
            table.add_row(*cells, end_section=index == len(rows) - 1)
    if table.rows:
        stdout.print(table)
    if not_games:
        raise typer.Exit(1)
