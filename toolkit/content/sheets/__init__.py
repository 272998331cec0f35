"""Decks and question banks kept in a spreadsheet (CSV, XLSX or ODS): one card per row,
headers naming fields by their YAML paths, and every value at its cell (`Market!C7`).

The deck's own keys (id, kind, name, size, layout, back, labels) live in a small YAML file
beside the sheet, `market.deck.yaml` for `market.xlsx`: one rule for all three formats (a
CSV file has one sheet only), and the deck's localized name stays YAML."""

from __future__ import annotations

from pathlib import Path

SUFFIXES = (".csv", ".xlsx", ".ods")
KEYS_SUFFIX = ".deck.yaml"
ROWS_KEY = {"decks": "cards", "questions": "questions"}
"""The key each content group keeps its rows under."""


def is_sheet(path: Path | str) -> bool:
    """Whether a listed content file is a spreadsheet (by its name, as editors tell)."""
    return Path(path).suffix.lower() in SUFFIXES


def keys_file(sheet: Path) -> Path:
    """The YAML file beside a sheet that holds its deck's own keys."""
    return sheet.with_name(sheet.stem + KEYS_SUFFIX)
