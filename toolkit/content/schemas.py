"""Export JSON Schemas of every content file type, for editors and for jsonschema checks.

One schema per file type per game (`schemas/<game-id>/game.schema.json`, `deck.schema.json`),
shared ones for boards, question banks and glossaries, and `generic/` for games without a
plugin. Output is deterministic (sorted keys), so a test can catch drift from the models.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from toolkit.content.plugin import (
    adapter,
    plugin_for,
    plugins,
)
from toolkit.content.schema_standard import standardize
from toolkit.fileio import StagedSet, holds

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# Schemas of files that are not content, registered by the layer that reads them (card
# layouts: toolkit.render.layout), so this module never imports rendering.
_REGISTERED: dict[str, tuple[Callable[[], TypeAdapter[Any]], str, str]] = {}


def register_schema(
    rel: str, adapter: Callable[[], TypeAdapter[Any]], title: str, description: str
) -> None:
    """Export `adapter()`'s schema as `schemas/<rel>` with the others."""
    _REGISTERED[rel] = (adapter, title, description)


def _schema(adapter: TypeAdapter[Any], title: str, description: str) -> dict[str, Any]:
    schema = standardize(adapter.json_schema())
    schema["$schema"] = DRAFT
    schema["title"] = title
    schema["description"] = description
    return schema


def schema_documents() -> dict[str, dict[str, Any]]:
    """Every schema by its path under `schemas/`."""
    docs: dict[str, dict[str, Any]] = {
        "board.schema.json": _schema(adapter("board"), "Board", "A board: graph, track or road."),
        "questions.schema.json": _schema(
            adapter("questions"), "Question bank", "Four-answer trivia questions."
        ),
        "glossary.schema.json": _schema(
            adapter("glossary"), "Glossary", "A game's terms in each language."
        ),
    }
    for rel, (made, title, description) in sorted(_REGISTERED.items()):
        docs[rel] = _schema(made(), title, description)
    games = {"generic": plugin_for(None), **plugins()}
    for game_id, plugin in sorted(games.items()):
        docs[f"{game_id}/game.schema.json"] = _schema(
            plugin.manifest_adapter, f"{game_id} game.yaml", "The game manifest."
        )
        docs[f"{game_id}/deck.schema.json"] = _schema(
            plugin.deck_adapter, f"{game_id} deck", "A deck of cards."
        )
    return docs


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def export(out: Path) -> list[Path]:
    """Write every schema under `out` (made if its parent exists, with a folder per game);
    return the paths written. OSError (an `OutputError` says why) if `out` cannot hold them."""
    written = []
    # one set (fileio.StagedSet): a full disk half-way left some schemas new, some old, and
    # the folders made for them
    with StagedSet(out) as staged:
        for rel, schema in schema_documents().items():
            path = Path(out).joinpath(rel)
            text = render(schema)
            # a planted link is not read to compare: the write refuses it
            if not same_text(path, text):
                staged.add(path, text.encode("utf-8"))
            written.append(path)
    return written


def drift(out: Path) -> list[str]:
    """Schemas under `out` that differ from the models (or are missing)."""
    stale = []
    for rel, schema in schema_documents().items():
        path = out / rel
        if not same_text(path, render(schema)):
            stale.append(rel)
    return stale


def same_text(path: Path, text: str) -> bool:
    """Whether the regular file (not a link) at `path` holds `text` (`fileio.holds`: read no
    further than its length, a game folder's `schemas/` may hold a sparse file of GBs)."""
    return holds(path, text.encode("utf-8"))


def schema_for(rel_in_game: str, game_id: str) -> str | None:
    """Which schema under `schemas/` a content file uses, from where it sits in its game."""
    parts = Path(rel_in_game).parts
    gid = game_id if game_id in plugins() else "generic"
    if parts == ("game.yaml",):
        return f"{gid}/game.schema.json"
    if parts == ("glossary.yaml",):
        return "glossary.schema.json"
    folder = {"decks": f"{gid}/deck.schema.json", "boards": "board.schema.json"}
    folder["layouts"] = "layout.schema.json"
    folder["questions"] = "questions.schema.json"
    return folder.get(parts[0]) if len(parts) > 1 else None
