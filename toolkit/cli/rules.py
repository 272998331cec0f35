"""`playset rules [CODE]`: every diagnostic code, or one rule's page with its examples."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from toolkit.cli.common import stdout, usage_error
from toolkit.diagnostics.registry import FAMILIES


def list_rules(
    code: Annotated[
        str | None,
        typer.Argument(help="A rule code (R006): its explanation, failing and passing example."),
    ] = None,
) -> None:
    """List every rule code, its family, severity and summary; with CODE, explain that rule
    with a failing and a passing example (as `ruff rule`)."""
    from toolkit.checks import iter_rules, say_broken_families
    from toolkit.diagnostics import REGISTRY

    for module in iter_rules():
        importlib.import_module(module)
    say_broken_families()  # validate's E008: listed without them, and saying so
    if code is not None:
        from toolkit.ruledocs import load_example
        from toolkit.ruledocs.show import rule_page

        wanted = code.strip().upper()
        if wanted not in REGISTRY:
            raise usage_error(f"no rule {code!r} (see `playset rules`)")
        try:
            example = load_example(wanted)
        except KeyError:
            example = None
        stdout.print(rule_page(REGISTRY.get(wanted), example))
        return
    from rich.table import Table

    table = Table(title="Playset rules")
    for column in ("code", "name", "family", "severity", "summary"):
        table.add_column(column)
    for r in REGISTRY.all():
        table.add_row(r.code, r.name, FAMILIES[r.family], r.severity.value, r.summary)
    stdout.print(table)
