"""The `playset` command line: thin wrappers that parse, call the library and print."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from typing import Any

# A command is short-lived and most of what it allocates lives to the end (modules, classes,
# validators, fonts): with the default thresholds the collector rescans them hundreds of times
# while they load, ~70 ms of a 0.6 s build on a 2-core machine. A young-generation collection
# walks every object still alive since the last one, so what costs is walking the long-lived
# ones at all: at 20,000 a cold build of 100 cards still made 5 collections (~45 ms CPU of
# ~0.6 s); at 200,000 it makes none, and a larger job walks the survivors once either way.
# Cyclic garbage waiting for a collection stays bounded by the threshold.
gc.set_threshold(200_000, 50, 100)

import typer  # noqa: E402

from toolkit.cli import (  # noqa: E402
    build,
    calibrate,
    convert,
    export,
    games,
    i18n,
    lsp,
    new,
    preview,
    reference,
    rules,
    schemas,
    simulate,
    sweep,
    validate,
)
from toolkit.cli.help_types import readable_help  # noqa: E402

COMMANDS: dict[str, Callable[..., Any]] = {
    "list": games.list_games,
    "validate": validate.validate,
    "rules": rules.list_rules,
    "build": build.build,
    "simulate": simulate.simulate,
    "check": simulate.check,
    "sweep": sweep.sweep,
    "tune": sweep.tune,
    "replay": sweep.replay,
    "new": new.new,
    "calibrate": calibrate.calibrate,
    "preview": preview.preview,
    "lsp": lsp.lsp,
    "reference": reference.reference,
    "icons": reference.icons,
    "convert": convert.convert,
}
GROUPS: dict[str, typer.Typer] = {"schemas": schemas.app, "i18n": i18n.app, "export": export.app}


def make_app(only: str | None = None) -> typer.Typer:
    """The command line; with `only`, just that command or group (typer inspects every
    registered command's signature on each run, ~25 ms for all of them)."""
    made = typer.Typer(
        name="playset",
        help="Check, simulate and print tabletop games written as YAML and Markdown.",
        no_args_is_help=True,
        add_completion=only is None,  # `--install-completion` for bash, zsh, fish, PowerShell
        pretty_exceptions_enable=False,
    )
    made.callback()(_group)  # a lone command stays a subcommand: `playset build …`
    for name, command in COMMANDS.items():
        if only in (None, name):
            made.command(name)(command)
    for name, group in GROUPS.items():
        if only in (None, name):
            made.add_typer(group, name=name)
    return readable_help(made)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"playset {version('playset')}")
        except PackageNotFoundError:
            typer.echo("playset (not installed)")
        raise typer.Exit()


def _group(
    show_version: bool = typer.Option(
        False,
        "--version",
        help="Print the version and exit.",
        callback=_show_version,
        is_eager=True,
    ),
) -> None:
    """Check, simulate and print tabletop games written as YAML and Markdown."""


app = make_app()


WHOLE = frozenset({"reference"})
"""Commands that read the whole command line from their context (the reference documents
every command), so they run in the full app, not one built for them alone."""


def main() -> None:
    first = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)
    alone = (first in COMMANDS or first in GROUPS) and first not in WHOLE
    chosen = make_app(first) if alone else app
    try:
        chosen()
    finally:
        # A short-lived command ends here: freezing the heap spares the interpreter a last
        # garbage-collection pass over every object at exit (~45 ms of a 0.5 s build on a
        # 2-core machine). Objects are still freed; only cycles are left to the OS.
        gc.freeze()
