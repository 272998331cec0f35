"""`playset rules`: every diagnostic code with its default severity and summary."""

from __future__ import annotations

import importlib

from toolkit.cli.common import stdout
from toolkit.diagnostics.registry import FAMILIES


def list_rules() -> None:
    """List every rule code, its family, severity and summary."""
    from toolkit.checks import iter_rules
    from toolkit.diagnostics import REGISTRY

    for module in iter_rules():
        importlib.import_module(module)
    from rich.table import Table

    table = Table(title="Playset rules")
    for column in ("code", "name", "family", "severity", "summary"):
        table.add_column(column)
    for r in REGISTRY.all():
        table.add_row(r.code, r.name, FAMILIES[r.family], r.severity.value, r.summary)
    stdout.print(table)
