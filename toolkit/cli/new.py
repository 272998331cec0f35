"""`playset new`: start a game of your own."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolkit.cli.common import escape, stderr, usage_error


def new(
    game_id: Annotated[str, typer.Argument(help="The new game's id, e.g. my-game.")],
    into: Annotated[
        Path | None, typer.Option("--into", help="Parent folder (default: the current one).")
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help="Languages, e.g. fr,es,en.")] = "fr,es,en",
    engine: Annotated[
        bool,
        typer.Option(
            "--engine", help="Also write engine.py, a working engine for simulate and check."
        ),
    ] = False,
) -> None:
    """Write a minimal game folder that validates clean and builds at once."""
    from toolkit.fileio import describe
    from toolkit.scaffold.new import ScaffoldError, new_game

    folder = (into or Path.cwd()) / game_id
    if _installed(game_id):  # its plugin's rules schema would apply: 16 errors at once
        raise usage_error(
            f"{game_id!r} is the id of an installed game: its rules would apply to the new "
            "game, which would not validate; choose another id"
        )
    try:
        languages = [code.strip() for code in lang.split(",") if code]
        written = new_game(folder, game_id, languages, engine)
    except ScaffoldError as exc:
        raise usage_error(str(exc)) from None
    except OSError as exc:  # a full disk, a read-only folder: nothing of the game is left
        stderr.print(f"[red]error:[/red] {escape(describe(exc))}; no game written", soft_wrap=True)
        raise typer.Exit(1) from None
    stderr.print(f"wrote {len(written)} files under {escape(str(folder), keep='')}", soft_wrap=True)
    then = "playset simulate && playset check" if engine else "playset build"
    shown = escape(str(folder), keep="")
    stderr.print(f"next: cd {shown} && playset validate && {then}", soft_wrap=True)


def _installed(game_id: str) -> bool:
    """Whether an installed game plugin (a bundled game's included) has this id."""
    from toolkit.content.plugin import REGISTRY, broken_plugin, plugin_for

    plugin_for(game_id)
    return game_id in REGISTRY.registered() or broken_plugin(game_id) is not None
