"""The reference's section on extension points: every registry (`toolkit.registry.Registry`),
where its built-in entries live, the entry-point group a package adds one through, and what is
registered now, read from the registries themselves."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from toolkit.reference.markdown import cell, entries

Lines = list[str]

POINTS: tuple[tuple[str, str, str], ...] = (
    ("Diagnostic rules", "toolkit.diagnostics.registry", "REGISTRY"),
    ("Check families", "toolkit.checks", "FAMILIES"),
    ("Element kinds", "toolkit.render.elements.registry", "REGISTRY"),
    ("Board kinds", "toolkit.content.models.board", "BOARD_KINDS"),
    ("Build artifacts", "toolkit.render.artifacts", "REGISTRY"),
    ("Exports", "toolkit.render.exports", "REGISTRY"),
    ("Executors", "toolkit.sim.executors", "EXECUTORS"),
    ("Metrics", "toolkit.sim.metrics", "METRICS"),
    ("i18n unit kinds", "toolkit.i18n.units", "KINDS"),
    ("Game plugins", "toolkit.content.plugin", "REGISTRY"),
)
"""The extension points, as the reference lists them (a table of contents, not a registry:
each registry finds its own entries)."""


def extensions() -> Lines:
    from toolkit.checks import iter_rules

    for module in iter_rules():  # the modules that declare rules
        import_module(module)
    lines: Lines = [
        "## Extension points",
        "",
        "Each is one registry of named entries. An entry is one module that registers itself:",
        "in the package shown (found by the registry, nothing else to edit), or in a package of",
        'your own named in the entry point group (`[project.entry-points."<group>"]` in its',
        '`pyproject.toml`, `name = "module"` or `name = "module:ENTRY"`).',
        "",
        "| extension point | package | entry point group | registered |",
        "| --- | --- | --- | --- |",
    ]
    for title, module, attribute in POINTS:
        registry: Any = getattr(import_module(module), attribute)
        names = list(entries(registry))
        shown = (
            f"{len(names)} (see [Diagnostic rules](#diagnostic-rules))"
            if len(names) > 30
            else ", ".join(f"`{name}`" for name in names)
        )
        package = f"`{registry.package}`" if registry.package else f"`{module}`"
        lines.append(f"| {title} | {package} | `{registry.group}` | {cell(shown) or '—'} |")
    lines.append("")
    return lines
