"""The `playset` command line: thin wrappers that parse, call the library and print."""

from __future__ import annotations

import typer

from toolkit.cli import build, games, i18n, rules, schemas, simulate, validate

app = typer.Typer(
    name="playset",
    help="Check, simulate and print tabletop games written as YAML and Markdown.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("list")(games.list_games)
app.command("validate")(validate.validate)
app.command("rules")(rules.list_rules)
app.command("build")(build.build)
app.command("simulate")(simulate.simulate)
app.command("check")(simulate.check)
app.add_typer(schemas.app, name="schemas")
app.add_typer(i18n.app, name="i18n")


def main() -> None:
    app()
