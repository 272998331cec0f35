"""`playset convert`: a deck or question bank between YAML and a spreadsheet (XLSX, ODS,
CSV), so a co-author who only knows a spreadsheet can edit the cards."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from toolkit.cli.common import escape, stderr, usage_error


def convert(
    source: Annotated[Path, typer.Argument(help="A deck: decks/market.yaml, or a sheet.")],
    to: Annotated[
        str,
        typer.Option("--to", help="xlsx, ods, csv, or yaml (a sheet back to YAML)."),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write (default: beside SOURCE, its new suffix)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace files that already exist.")
    ] = False,
) -> None:
    """Convert a deck between YAML and a sheet: one card per row, one column per field and
    language (name.fr, name.en, effect.kind), the deck's own keys in NAME.deck.yaml beside."""
    from toolkit.content.game import display_path
    from toolkit.content.sheets.convert import FORMATS, plan
    from toolkit.diagnostics.formats import render
    from toolkit.fileio import describe, make_parents, write_many

    fmt = to.lower().lstrip(".")
    if fmt not in FORMATS:
        raise usage_error(f"--to {to}: choose one of {', '.join(FORMATS)}")
    if not source.is_file():
        raise usage_error(f"no file {source}")
    made = plan(source, display_path(source), fmt, out)
    if made.diagnostics:
        sys.stdout.write(render(made.diagnostics, "text") + "\n")
        stderr.print(f"[red]{escape(str(source))} cannot be converted[/red]")
        raise typer.Exit(1)
    if made.error:
        stderr.print(f"[red]error:[/red] {escape(made.error)}")
        raise typer.Exit(1)
    existing = [path for path, data in made.files if path.exists() and path.read_bytes() != data]
    if existing and not force:
        names = ", ".join(str(p) for p in existing)
        stderr.print(f"[red]error:[/red] {escape(names)} already exists: --force replaces it")
        raise typer.Exit(1)
    try:
        for path, _ in made.files:
            if not path.parent.is_dir():
                make_parents(path, Path.cwd())
        write_many(made.files)
    except OSError as exc:
        stderr.print(f"[red]error:[/red] {escape(describe(exc))}")
        raise typer.Exit(1) from None
    for path, _ in made.files:
        stderr.print(f"wrote {escape(str(path))}")
