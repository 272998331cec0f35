"""Name every localized field of a game stably, for PO files and reports.

A field's name is its file and data path with list items named by their `id` where they
have one: `decks/characters.yaml:cards[alan-winchester].text`. Names survive reordering.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.content.game import Game
from toolkit.content.walk import Facts, Text, collect
from toolkit.fileio import real_path


@dataclass(frozen=True)
class Field:
    name: str
    text: Text

    @property
    def rel(self) -> str:
        return self.text.file.rel


def _rel(path: Path, root: Path) -> str:
    """Where `path` lies in the game folder `root` (links inside the game followed); a file
    switched to a link out of the game since it was read is named where it lies (its edit
    is then refused as leading outside the game, not a ValueError traceback)."""
    real_root = real_path(root)
    try:
        return real_path(path).relative_to(real_root).as_posix()
    except ValueError:
        where = Path(os.path.abspath(path))
        for base in (real_root, Path(os.path.abspath(root))):
            if where.is_relative_to(base):
                return where.relative_to(base).as_posix()
        return where.as_posix()


def field_name(game: Game, text: Text, rels: dict[Path, str] | None = None) -> str:
    """`text`'s name; `rels` keeps each file's place in the game for the next text's name
    (one file holds many texts: its path was resolved again for each)."""
    doc = text.file.doc
    assert doc is not None
    rel = rels.get(doc.path) if rels is not None else None
    if rel is None:
        rel = _rel(doc.path, game.root)
        if rels is not None:
            rels[doc.path] = rel
    parts: list[str] = []
    value: Any = doc.data
    for seg in text.path:
        if isinstance(seg, int):
            item = value[seg]
            ident = item.get("id") if isinstance(item, dict) else None
            parts.append(f"[{ident}]" if isinstance(ident, str) else f"[{seg}]")
            value = item
        else:
            parts.append(f".{seg}" if parts else str(seg))
            value = value[seg]
    return f"{rel}:{''.join(parts)}"


def fields(game: Game, facts: Facts | None = None) -> Iterator[Field]:
    rels: dict[Path, str] = {}
    for text in (facts or collect(game)).texts:
        yield Field(field_name(game, text, rels), text)
