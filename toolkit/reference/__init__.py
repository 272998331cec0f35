"""`docs/reference.md`, generated from the code: content fields, layouts, boards, icons,
rules, templates, build artifacts, extension points and commands. A test compares the
committed file with a fresh render."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolkit.fileio import atomic_write_text, holds
from toolkit.reference import artifacts, commands, extensions, sections
from toolkit.reference.markdown import WITH_PLUGINS

HEADER = """# Playset reference

Generated from the code by `playset reference`; do not edit by hand (a test fails when this
file and the code disagree).

- [Content files](#content-files)
- [Board kinds](#board-kinds)
- [Card layouts](#card-layouts)
- [Templates](#templates)
- [Icons](#icons)
- [Diagnostic rules](#diagnostic-rules)
- [Build artifacts](#build-artifacts)
- [Extension points](#extension-points)
- [Command line](#command-line)
"""


def render(cli: Any, plugins: bool = False) -> str:
    """The whole reference as Markdown (deterministic: same code, same bytes); `cli` is the
    command line's root click command. With `plugins`, the installed plugins' entries are
    documented too; else only Playset's own."""
    token = WITH_PLUGINS.set(plugins)
    try:
        return _render(cli)
    finally:
        WITH_PLUGINS.reset(token)


def _render(cli: Any) -> str:
    tables = sections.ModelTables()
    lines = [HEADER]
    lines += sections.content_files(tables)
    lines += sections.board_kinds()
    lines += sections.layouts(tables)
    lines += sections.template_contexts()
    lines += sections.icons()
    lines += sections.rules()
    lines += artifacts.artifacts()
    lines += extensions.extensions()
    lines += commands.cli(cli)
    return "\n".join(lines).rstrip("\n") + "\n"


def write(path: Path, cli: Any, inside: Path | None = None, plugins: bool = False) -> bool:
    """Write the reference to `path` (no link followed below `inside`, as
    `fileio.atomic_write_text`); False if it was already up to date."""
    text = render(cli, plugins)
    if holds(path, text.encode("utf-8")):  # compared no further than its length
        return False
    atomic_write_text(path, text, inside=inside)
    return True
