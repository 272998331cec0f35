"""Units from the `labels:` of the game's own layouts (`layouts/*.yaml`): the words a card
face prints itself ("Play when drawn"). Read from the YAML document, not the layout model,
and edited in place like content fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolkit.content import assets
from toolkit.content.game import Game
from toolkit.content.source import Document, load_document, repeats_of
from toolkit.fileio import real_path
from toolkit.i18n.units import Applied, Change, Unit, register
from toolkit.i18n.yaml_edit import Edit


def _layouts(game: Game) -> list[tuple[str, Document]]:
    """(path relative to the game, parsed YAML) of each layout the game folder holds."""
    out = []
    root = real_path(game.root)
    for found in assets.in_game(assets.LAYOUTS, game.root):
        # inside=: a layout switched to a link out of the game since it was listed is not
        # read (it was, and its path ended the command in an internal error)
        with repeats_of(game.root):  # counted with the game's content files
            doc, _ = load_document(found.path, found.display, inside=game.root)
        where = real_path(found.path)
        if doc is not None and isinstance(doc.data, dict) and where.is_relative_to(root):
            out.append((where.relative_to(root).as_posix(), doc))
    return out


def _labels(doc: Document) -> dict[str, dict[str, Any]]:
    labels = doc.data.get("labels")
    if not isinstance(labels, dict):
        return {}
    return {k: v for k, v in labels.items() if isinstance(k, str) and isinstance(v, dict)}


class LabelUnits:
    name = "label"

    def units(self, game: Game, lang: str) -> list[Unit]:
        source = game.checked_manifest.source_language
        out = []
        for rel, doc in _layouts(game):
            for key, words in _labels(doc).items():
                text = words.get(source)
                if not isinstance(text, str) or not text:
                    continue
                current = words.get(lang) if lang != source else ""
                out.append(
                    Unit(
                        self.name,
                        f"{rel}:labels.{key}",
                        text,
                        current if isinstance(current, str) else "",
                        rel,
                        doc.span(("labels", key, source)).line,
                        (f"a word the card layout {Path(rel).stem!r} prints itself",),
                    )
                )
        return out

    def apply(self, game: Game, lang: str, changes: list[Change]) -> Applied:
        done = Applied()
        where = {
            f"{rel}:labels.{key}": (doc, key) for rel, doc in _layouts(game) for key in _labels(doc)
        }
        for change in changes:
            doc, key = where[change.unit.key]
            edit = Edit(("labels", key, lang), change.text)
            done.edit(doc, edit, change)
        return done

    def inputs(self, game: Game, lang: str | None) -> list[Path]:
        return [doc.path for _, doc in _layouts(game)]


register(LabelUnits())
