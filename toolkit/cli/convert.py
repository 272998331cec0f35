"""`playset convert`: a deck or question bank between YAML and a spreadsheet (XLSX, ODS,
CSV), so a co-author who only knows a spreadsheet can edit the cards."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from toolkit.cli.common import escape, finish_interrupted, stderr, usage_error

LINKED = "it is a symbolic link: convert writes through no link it was not named (remove it)"


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
    from toolkit.content.folders import game_folder_around
    from toolkit.content.game import display_path
    from toolkit.content.sheets.convert import FORMATS, plan
    from toolkit.diagnostics.formats import render
    from toolkit.fileio import (
        OutputError,
        describe,
        make_parents,
        missing_folders,
        others_may_move,
        remove_made,
    )
    from toolkit.journal import write_journaled, write_set

    fmt = to.lower().lstrip(".")
    if fmt not in FORMATS:
        raise usage_error(f"--to {to}: choose one of {', '.join(FORMATS)}")
    if not source.is_file():
        raise usage_error(f"no file {source}")
    if out is not None and out.name in ("", ".", ".."):  # '', '.', '/': a folder, no file
        raise usage_error(f"--out {str(out)!r} names no file; name the file to write")
    onto_source = out is not None and out.resolve() == source.resolve()  # plan() says so
    if out is not None and not onto_source and _suffix_format(out) not in (None, fmt):
        # `--to csv --out cards.xlsx` wrote CSV text into a file every tool reads as XLSX
        raise usage_error(
            f"--out {out} ends in {out.suffix} but --to {fmt} writes {fmt.upper()}: name a"
            f" file that ends in .{'yaml' if fmt == 'yaml' else fmt}, or give --to"
            f" {_suffix_format(out)}"
        )
    # a game folder the files go into: a convert (or an i18n import) killed between its
    # renames is finished first, and this one is written through its journal
    game = game_folder_around(out.parent if out is not None else source.parent)
    if game is not None:
        finish_interrupted(game)
    made = plan(source, display_path(source), fmt, out)
    if made.diagnostics:
        sys.stdout.write(render(made.diagnostics, "text") + "\n")
        stderr.print(f"[red]{escape(str(source))} cannot be converted[/red]")
        raise typer.Exit(1)
    if made.error:
        stderr.print(f"[red]error:[/red] {escape(made.error)}")
        raise typer.Exit(1)
    existing = [path for path, data in made.files if _differs(path, data)]
    if existing and not force:
        names = ", ".join(str(p) for p in existing)
        stderr.print(f"[red]error:[/red] {escape(names)} already exists: --force replaces it")
        raise typer.Exit(1)
    folders: list[Path] = []  # made here, taken back when the write fails (a full disk)
    try:
        for path, _ in made.files:
            if not path.parent.is_dir():
                folders += missing_folders(path.parent)
                make_parents(path, Path.cwd())
        # no link is followed that the user did not name: a deck's folder may come from
        # someone else (decks/x.deck.yaml -> ~/.bashrc); a --out named may be a link
        for path, _ in made.files:
            if path != out and path.is_symlink():
                raise OutputError(path, LINKED)
            # a folder another user may rename: theirs to exchange for a link mid-write
            if why := others_may_move(path):
                raise OutputError(
                    path,
                    f"it lies in a folder that is not yours alone ({why}), where another"
                    " user could exchange it for a link while it is written: write in a"
                    " folder of your own",
                )
        inside = None if out else source.parent
        if game is not None and all(_within(path, game) for path, _ in made.files):
            # the pair lands whole after kill -9 (a new CSV beside the old NAME.deck.yaml)
            write_journaled(game, made.files, inside=inside)
        else:  # a folder outside any game: the pair through a journal of that folder
            for note in write_set(made.files, inside=inside):
                stderr.print(escape(note))
    except OSError as exc:
        remove_made(folders)
        stderr.print(f"[red]error:[/red] {escape(describe(exc))}")
        raise typer.Exit(1) from None
    for path, _ in made.files:
        stderr.print(f"wrote {escape(str(path), keep='')}")


def _within(path: Path, game: Path) -> bool:
    """Whether `path`'s folder lies inside the game folder `game` (real paths)."""
    from toolkit.fileio import real_path

    return real_path(path.parent).is_relative_to(real_path(game))


def _differs(path: Path, data: bytes) -> bool:
    """Whether something other than `data` is at `path` (a FIFO or a device there is not
    waited on or read without end: it differs)."""
    from toolkit.fileio import read_bounded

    if not path.exists() and not path.is_symlink():
        return False
    try:
        return read_bounded(path, len(data)) != data
    except OSError:
        return True


SUFFIX_FORMATS = {".xlsx": "xlsx", ".ods": "ods", ".csv": "csv", ".yaml": "yaml", ".yml": "yaml"}


def _suffix_format(path: Path) -> str | None:
    """The format a file's suffix names (None: a suffix no format has, or none)."""
    return SUFFIX_FORMATS.get(path.suffix.lower())
