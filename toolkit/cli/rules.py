"""`playset rules [CODE]`: every diagnostic code, or one rule's page with its examples."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
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
    rows = [
        (r.code, r.name, FAMILIES[r.family], r.severity.value, r.summary) for r in REGISTRY.all()
    ]
    if len(rows) > MAX_TABLE_ROWS:
        print_plainly(rows)
        return
    from rich.table import Table

    table = Table(title="Playset rules")
    for column in COLUMNS:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    stdout.print(table)


COLUMNS = ("code", "name", "family", "severity", "summary")
MAX_TABLE_ROWS = 500
"""Rules drawn as a table; past it (a plugin's own thousands) they are aligned plainly: rich
lays a table out at ~0.4 ms a row, 7.8 s for 20,000 (probe 39 L3)."""
MAX_WIDTH = 40  # a column is padded to its widest text up to this


def print_plainly(rows: Sequence[tuple[str, ...]]) -> None:
    """The rules one a line, their columns aligned, written as they are (no markup)."""
    from toolkit.diagnostics.printable import printable

    shown = [COLUMNS, *([printable(cell, "") for cell in row] for row in rows)]
    widths = [min(MAX_WIDTH, max(len(row[n]) for row in shown)) for n in range(len(COLUMNS))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in shown
    ]
    stdout.file.write(f"Playset rules ({len(rows)})\n" + "\n".join(lines) + "\n")
