"""`playset i18n`: typography fixes, status, PO export and import for translators."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from toolkit.cli.common import (
    GAME_HELP,
    escape,
    game_folders,
    gated_game,
    stderr,
    stdout,
    usage_error,
    write_output,
)

if TYPE_CHECKING:
    from toolkit.i18n.fix import FilePatch

app = typer.Typer(help="Translation workflow: fixes, status, PO files.", no_args_is_help=True)


def _valid_game(arg: str):
    """The game through the validity gate, translation errors tolerated (they are what these
    commands repair); exit 1 with the other errors when it has any."""
    (folder,) = game_folders([arg])
    game = gated_game(folder, tolerate=("T",))
    if game is None:
        raise typer.Exit(1)
    return game


def _write_fixes(patches: list[FilePatch], _root: Path) -> None:
    from toolkit.i18n import fix as fixer

    fixer.write(patches)


@app.command("fix")
def fix(
    games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None,
    write: Annotated[
        bool, typer.Option("--write", help="Write the fixes (default: diff).")
    ] = False,
) -> None:
    """Apply safe typography fixes (spaces only); show a diff unless --write."""
    from toolkit.i18n import fix as fixer

    total = 0
    for folder in game_folders(games):
        game = _valid_game(str(folder))
        patches = fixer.plan_fixes(game)
        total += sum(len(p.edits) for p in patches)
        if write:
            write_output(game.root, functools.partial(_write_fixes, patches), quiet=True)
            for patch in patches:
                stderr.print(f"fixed {len(patch.edits)} text(s) in {escape(patch.file.rel)}")
        else:
            for patch in patches:
                sys.stdout.write(patch.diff())
    if not write and total:
        stderr.print(f"{total} text(s) to fix (⍽ = U+202F, · = U+00A0); run with --write")
    elif not total:
        stderr.print("[green]nothing to fix[/green]")


@app.command("status")
def show_status(games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None) -> None:
    """Coverage and open translation problems per game, file and language."""
    from toolkit.content.game import display_path, load_game
    from toolkit.i18n.status import status as game_status

    for folder in game_folders(games):
        game = load_game(folder)
        from rich.table import Table

        table = Table(title=escape(f"{game.id} translation status ({display_path(game.root)})"))
        for column in ("file", "lang", "texts", "coverage", "problems", "codes"):
            table.add_column(column)
        for row in game_status(game):
            codes = ", ".join(f"{c}×{n}" for c, n in sorted(row.codes.items()))
            shown = os.path.relpath(Path(row.file).absolute(), game.root)
            cells = (shown, row.lang, row.texts, f"{row.coverage:.0%}", row.problems, codes)
            table.add_row(*(escape(cell) for cell in cells))
        stdout.print(table)


@app.command("export")
def export(
    game: Annotated[str, typer.Argument(help="A bundled game's id or a game folder.")],
    lang: Annotated[str, typer.Option("--lang", help="Target language.")],
    fmt: Annotated[str, typer.Option("--format")] = "po",
    out: Annotated[Path | None, typer.Option("--out", help="File (default: stdout).")] = None,
) -> None:
    """Export one language as a PO file (msgctxt = field path, msgid = source text)."""
    from toolkit.fileio import atomic_write_text
    from toolkit.i18n.po import export_po

    if fmt != "po":
        raise usage_error(f"unknown format {fmt!r}; only po is supported")
    loaded = _valid_game(game)
    if lang not in loaded.manifest.languages:
        raise usage_error(f"{loaded.id} has no language {lang!r}")
    text = str(export_po(loaded, lang))
    if out:
        write_output(out, lambda path: atomic_write_text(path, text + "\n"))
    else:
        sys.stdout.write(text + "\n")


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A PO file made by `playset i18n export`.")],
    game: Annotated[str | None, typer.Option(help="Game (default: from the PO header).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report only.")] = False,
) -> None:
    """Bring translations back into the YAML; entries whose source changed are refused."""
    import polib

    from toolkit.fileio import write_many
    from toolkit.i18n.po import import_po

    try:
        po = polib.pofile(str(file))
    except (OSError, ValueError) as exc:
        raise usage_error(f"cannot read {file}: {exc}") from None
    lang = po.metadata.get("Language", "")
    game = game or po.metadata.get("Project-Id-Version", "").strip()
    if not game:
        raise usage_error(f"{file} names no game in its Project-Id-Version header; add --game")
    loaded = _valid_game(game)
    if lang not in loaded.manifest.languages:
        raise usage_error(f"PO language {lang!r} is not a language of {loaded.id}")
    result, texts = import_po(loaded, po, lang)
    if not dry_run:
        files = [(path, text.encode("utf-8")) for path, text in texts.items()]
        write_output(Path(loaded.root), lambda _: write_many(files), quiet=True)
    stderr.print(
        f"{len(result.applied)} applied, {result.unchanged} unchanged, "
        f"{len(result.stale)} refused (source changed), {len(result.unknown)} unknown"
        + (f", {len(result.refused)} refused" if result.refused else "")
    )
    for name, why in result.refused:
        stderr.print(f"[yellow]refused[/yellow] {escape(name)}: {escape(why)}")
    for name in result.stale:
        stderr.print(
            f"[yellow]refused[/yellow] {escape(name)}: the source text changed since export"
        )
    for name in result.unknown:
        stderr.print(f"[yellow]unknown[/yellow] {escape(name)}")
    raise typer.Exit(1 if result.stale or result.unknown or result.refused else 0)
