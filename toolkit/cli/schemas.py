"""`playset schemas export|check`: JSON Schemas exported from the content models."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolkit.cli.common import escape, folder_option, stderr, stdout, usage_error

app = typer.Typer(help="JSON Schemas for editors and validators.", no_args_is_help=True)

OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="Folder (default: schemas/).", parser=folder_option),
]


@app.command("export")
def export_schemas(out: OutOption = None) -> None:
    """Write schemas/*.schema.json from the models."""
    import toolkit.render.layout  # noqa: F401 - registers the layout schema
    from toolkit.content.schemas import export
    from toolkit.fileio import describe
    from toolkit.home import work_folder

    folder = out or work_folder() / "schemas"
    try:
        written = export(folder)
    except OSError as exc:
        raise usage_error(describe(exc)) from None
    stdout.print(f"wrote {len(written)} schemas under {escape(folder, keep='')}")


@app.command("check")
def check_schemas(out: OutOption = None) -> None:
    """Exit 1 if the committed schemas differ from the models."""
    import toolkit.render.layout  # noqa: F401 - registers the layout schema
    from toolkit.content.game import repo_root
    from toolkit.content.schemas import drift

    folder = out or repo_root() / "schemas"
    stale = drift(folder)
    for rel in stale:
        stderr.print(f"stale: {escape(folder / rel)}")
    if stale:
        stderr.print("run `playset schemas export`")
        raise typer.Exit(1)
    stdout.print("schemas are up to date")
