"""`playset reference` and `playset icons`: the generated reference and the icon sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolkit.cli.common import escape, refuse_game_file, stderr, stdout, write_output


def reference(
    ctx: typer.Context,
    out: Annotated[
        Path | None, typer.Option("--out", help="File to write (default: docs/reference.md).")
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if the file is out of date.")
    ] = False,
    plugins: Annotated[
        bool,
        typer.Option(
            "--plugins",
            help="Document the installed plugins' entries too (default: Playset's own only).",
        ),
    ] = False,
) -> None:
    """Write the reference (fields, layouts, boards, icons, rules, templates, commands)."""
    from toolkit.checks import say_broken_families
    from toolkit.fileio import holds
    from toolkit.home import work_folder
    from toolkit.reference import render, write

    cli = ctx.find_root().command  # the whole command line
    say_broken_families()
    path = out or work_folder() / "docs" / "reference.md"
    # the default is below the current folder when the toolkit is installed (no checkout):
    # a game folder run in may bring `docs/` or `docs/reference.md` as a link to a file of
    # the user's, which is neither read whole nor written through
    inside = None if out else work_folder()
    if check:
        if not holds(path, render(cli, plugins).encode("utf-8")):
            stderr.print(f"stale: {escape(path, keep='')} (run `playset reference`)")
            raise typer.Exit(1)
        stdout.print(f"{escape(path, keep='')} is up to date")
        return
    changed: list[bool] = []
    refuse_game_file(path)  # `--out rulebook/en.md` in a game folder replaced the rulebook
    write_output(
        path, lambda target: changed.append(write(target, cli, inside, plugins)), quiet=True
    )
    stdout.print(f"{'wrote' if changed[0] else 'unchanged'} {escape(path, keep='')}")


def icons(
    out: Annotated[
        Path | None, typer.Option("--out", help="PDF to write (default: output/icons.pdf).")
    ] = None,
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter.")] = "a4",
) -> None:
    """Print every built-in icon with its name on a sheet."""
    from toolkit.fileio import atomic_write_bytes
    from toolkit.home import work_folder
    from toolkit.reference.icon_sheet import icon_sheet
    from toolkit.render.pdf import PAPERS

    if paper not in PAPERS:
        stderr.print(f"[red]error:[/red] unknown paper {escape(repr(paper))}: {', '.join(PAPERS)}")
        raise typer.Exit(2)
    path = out or work_folder() / "output" / "icons.pdf"
    # the user's own path is theirs to link; the default `output/` may be a link a game
    # folder brought (the current folder, when the toolkit is installed): not followed
    inside = None if out else work_folder()
    refuse_game_file(path)
    sheet = icon_sheet(PAPERS[paper])
    write_output(path, lambda target: atomic_write_bytes(target, sheet, inside=inside), quiet=True)
    stdout.print(f"wrote {escape(path, keep='')}")
