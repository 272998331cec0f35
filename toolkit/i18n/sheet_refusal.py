"""Whether a translation has a cell to go to in a sheet deck. Its own module so that both
the YAML editor (which asks it before every edit) and the sheet editor (which writes a deck's
keys through the YAML editor) can use it without importing each other."""

from __future__ import annotations

from typing import Any

from toolkit.content.sheets.header import render
from toolkit.content.sheets.load import SheetDocument
from toolkit.content.source import Document


def sheet_refusal(doc: Document, path: tuple[Any, ...]) -> str | None:
    """Why the text at `path` of a sheet deck has no cell to go to, or None."""
    if not isinstance(doc, SheetDocument) or not path or path[0] != doc.rows_key:
        return None
    if doc.cell_of(path) is None:
        inside = tuple(path[2:])
        named = render(inside, tuple(False for _ in inside))
        return f"the sheet {doc.path.name} has no {named} column: add one, then import again"
    return None
