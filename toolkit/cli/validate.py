"""`playset validate`: check content like a linter; exit 0 clean, 1 findings, 2 usage."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from toolkit.cli.common import GAME_HELP, MaxWarningsOpt, StrictOpt, game_folders, usage_error
from toolkit.diagnostics.formats import FORMATS


def validate(
    games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help=f"Output format: {', '.join(FORMATS)}.")
    ] = "text",
    select: Annotated[
        list[str] | None, typer.Option(help="Only these rule codes or prefixes (S,R003).")
    ] = None,
    ignore: Annotated[
        list[str] | None, typer.Option(help="Skip these rule codes or prefixes.")
    ] = None,
    exit_zero: Annotated[
        bool, typer.Option("--exit-zero", help="Exit 0 even with errors (as ruff).")
    ] = False,
    strict: StrictOpt = False,
    max_warnings: MaxWarningsOpt = None,
    changed: Annotated[
        bool,
        typer.Option(
            "--changed",
            help="The games git's staged files belong to (every game under the current "
            "folder when nothing is staged): what the pre-commit hook runs.",
        ),
    ] = False,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            envvar="PLAYSET_NO_CACHE",
            help="Check every file afresh; neither read nor write the cache"
            " (or PLAYSET_NO_CACHE=1).",
        ),
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Say on stderr how the cache was used.")
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            envvar="PLAYSET_WORKERS",
            min=1,
            help="Check up to N games at once, each in a process of its own (default: one"
            " per core, never more, or one game after another while the load average leaves"
            " less than half a core idle; 1: one after another; or PLAYSET_WORKERS=N).",
        ),
    ] = None,
) -> None:
    """Validate games: YAML syntax, schema, references, translations and print fit. Exit 1
    on errors; warnings are shown but exit 0 unless --strict or --max-warnings N. Findings
    are kept in the user cache folder: an unchanged game is not checked again. Several games
    are checked at once, one per core."""
    from toolkit.content.validate_cache import FindingsCache
    from toolkit.diagnostics import RuleSelection
    from toolkit.diagnostics.formats import fails, render

    if fmt not in FORMATS:
        raise usage_error(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if select or ignore or fmt == "sarif":
        # the prefixes are matched to every declared rule (`toolkit.checks` alone declares
        # none of R…, P…, T…: `--select R010` was "no rule matches"); SARIF describes each
        # rule found, from the cache too
        _register_rules()
    selection = RuleSelection.parse(select or (), ignore or ())
    if select and not selection.select:  # `--select ''` selected every rule: "clean"
        raise usage_error("--select names no rule code or prefix (e.g. --select S,R003)")
    unknown = selection.unknown_prefixes()
    if unknown:
        raise usage_error(f"no rule matches {', '.join(unknown)} (see `playset rules`)")
    if changed and games:
        raise usage_error("--changed finds the games itself: give no GAME with it")
    if changed:
        from pathlib import Path

        from toolkit.content.changed import changed_games

        folders = changed_games(Path.cwd())
        if not folders:
            typer.echo("no game changed", err=True)
            raise typer.Exit(0)
    else:
        folders = game_folders(games)
    note = (lambda text: typer.echo(text, err=True)) if verbose else (lambda text: None)
    cache = None if no_cache else FindingsCache.open(note)
    options = ("select", *(select or ()), "ignore", *(ignore or ()))
    from toolkit.cli import outlive, settle
    from toolkit.validate_games import validate_games

    diagnostics = validate_games(folders, selection, options, cache, workers, settle, outlive)
    if cache:
        cache.close()
    output = render(diagnostics, fmt)
    if output:
        sys.stdout.write(output + "\n")
    findings = fails(diagnostics, strict, max_warnings)
    unreadable = any(d.code == "Y010" for d in diagnostics)
    if fmt == "text":  # click's echo: rich is not worth its start-up for one line
        # "." and ".." have no name of their own: name the folder they stand for
        from toolkit.diagnostics.printable import printable

        names = printable(", ".join(os.path.basename(os.path.abspath(f)) for f in folders))
        if diagnostics:
            typer.echo(
                f"{len(diagnostics)} finding(s) in {len(folders)} game(s): {names}", err=True
            )
        else:
            typer.secho("clean", fg="green", nl=False, err=True)
            typer.echo(f": {len(folders)} game(s): {names}", err=True)
    raise typer.Exit(2 if unreadable else 1 if findings and not exit_zero else 0)


def _register_rules() -> None:
    """Import every module that declares rules, as a run that checks a game does."""
    import importlib

    from toolkit.checks import iter_rules

    for module in iter_rules():
        importlib.import_module(module)
