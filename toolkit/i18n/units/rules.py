"""Units from the texts of the game's free `rules:` tree (`intro: {en: Hello, fr: Bonjour}`),
the texts a rulebook prints by name (`{{ rules.intro }}`): T001 asks for each of the game's
languages, so the PO file carries them, and they are edited in place like content fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolkit.checks.translation.presence import text_like
from toolkit.content.game import Game
from toolkit.content.source import Document
from toolkit.content.walk import texts_of
from toolkit.i18n.fields import _rel
from toolkit.i18n.units import Applied, Change, Unit, register
from toolkit.i18n.yaml_edit import Edit


def _texts(game: Game) -> tuple[Document | None, list[tuple[str, tuple[Any, ...], dict]]]:
    """The manifest's document and its rules tree's texts (key, path, text by language):
    those that name one of the game's languages (the others are T003's), and no text the
    manifest's model already marks as localized (the field units carry those)."""
    loaded, manifest = game.manifest_file, game.manifest
    if loaded is None or loaded.doc is None or manifest is None:
        return None, []
    data = loaded.doc.data
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, dict):
        return loaded.doc, []
    # the manifest's own walk: `collect` walked every file of the game for it
    marked = {text.path for text in texts_of(loaded, manifest, ())}
    languages = list(manifest.languages)
    out = []
    for path, value in text_like(rules, ("rules",), set()):
        if path in marked or not any(lang in value for lang in languages):
            continue
        name = ".".join(str(step) for step in path)
        out.append((f"{_rel(loaded.doc.path, game.root)}:{name}", path, value))
    return loaded.doc, out


class RulesUnits:
    name = "rules"

    def units(self, game: Game, lang: str) -> list[Unit]:
        source = game.checked_manifest.source_language
        doc, texts = _texts(game)
        out = []
        for key, path, value in texts:
            text = value.get(source)
            if doc is None or not text:
                continue
            out.append(
                Unit(
                    self.name,
                    key,
                    text,
                    value.get(lang, "") if lang != source else "",
                    key.split(":", 1)[0],
                    doc.span((*path, source)).line,
                    (f"a rules text: `{{{{ {key.split(':', 1)[1]} }}}}` in a rulebook",),
                )
            )
        return out

    def apply(self, game: Game, lang: str, changes: list[Change]) -> Applied:
        done = Applied()
        doc, texts = _texts(game)
        where = {key: path for key, path, _ in texts}
        for change in changes:
            assert doc is not None
            done.edit(doc, Edit((*where[change.unit.key], lang), change.text), change)
        return done

    def inputs(self, game: Game, lang: str | None) -> list[Path]:
        loaded = game.manifest_file
        return [loaded.doc.path] if loaded is not None and loaded.doc is not None else []


register(RulesUnits())
