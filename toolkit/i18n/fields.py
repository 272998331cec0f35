"""Name every localized field of a game stably, for PO files and reports.

A field's name is its file and data path with list items named by their `id` where they
have one: `decks/characters.yaml:cards[alan-winchester].text`. Names survive reordering.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolkit.content.game import Game
from toolkit.content.walk import Text, collect
from toolkit.fileio import real_path


@dataclass(frozen=True)
class Field:
    name: str
    text: Text

    @property
    def rel(self) -> str:
        return self.text.file.rel


def field_name(game: Game, text: Text) -> str:
    doc = text.file.doc
    assert doc is not None
    rel = real_path(doc.path).relative_to(real_path(game.root)).as_posix()
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


def fields(game: Game) -> Iterator[Field]:
    for text in collect(game).texts:
        yield Field(field_name(game, text), text)
