"""Translations into a sheet deck: a card's text is written into its cell (the one under
`name.es` in the card's row), a deck key's into the keys file beside the sheet, as YAML edits
are; nothing else of either file changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolkit.content.sheets.edit import CellEditRefused, edit_cells
from toolkit.content.sheets.load import SheetDocument
from toolkit.i18n.sheet_refusal import sheet_refusal
from toolkit.i18n.yaml_edit import apply_edits


def apply_sheet_edits(
    doc: SheetDocument, edits: list[Any], *, inside: Path | None
) -> dict[Path, str | bytes]:
    """The new bytes of the sheet and the new text of its keys file, as the edits ask
    (`inside`: the game folder the keys file is read from)."""
    cells: dict[tuple[int, int], str] = {}
    keys_edits = []
    for edit in edits:
        cell = doc.cell_of(edit.path)
        if cell is not None:
            cells[cell] = edit.value
        elif edit.path and edit.path[0] == doc.rows_key or doc.keys is None:
            raise ValueError(sheet_refusal(doc, edit.path) or "no cell for this text")
        else:
            keys_edits.append(edit)
    out: dict[Path, str | bytes] = {}
    if cells:
        try:
            out[doc.path] = edit_cells(doc.path, cells, inside=inside)
        except (CellEditRefused, UnicodeDecodeError, KeyError) as exc:
            raise ValueError(str(exc)) from None
    if keys_edits and doc.keys is not None:
        out[doc.keys.path] = apply_edits(doc.keys.path, doc.keys, keys_edits, inside=inside)
    return out
