"""What every translation check looks at: one localized text, its languages and positions."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from toolkit.content.game import Game
from toolkit.content.models.deck import CardBase
from toolkit.content.walk import Facts, Text
from toolkit.diagnostics import Span


@dataclass(frozen=True)
class TextView:
    """A localized text ready for checks: values by language, source language first."""

    text: Text
    source: str
    languages: tuple[str, ...]

    @property
    def values(self) -> dict[str, str]:
        return self.text.value

    @property
    def field(self) -> str:
        """The field's name (`text`, `name`, `question`...)."""
        names = [p for p in self.text.path if isinstance(p, str)]
        return names[-1] if names else ""

    @property
    def owner(self) -> BaseModel | None:
        return self.text.owner

    @property
    def is_card_text(self) -> bool:
        """A card's rules text: numbers in it must come from its parameters."""
        return isinstance(self.owner, CardBase) and self.field == "text"

    @property
    def file(self) -> str:
        return self.text.file.rel

    def span(self, lang: str) -> Span:
        doc = self.text.file.doc
        assert doc is not None
        return doc.span((*self.text.path, lang))

    def label(self) -> str:
        ident = getattr(self.owner, "id", None)
        where = ".".join(str(p) for p in self.text.path)
        return f"{ident}.{self.field}" if isinstance(ident, str) else where


def views(game: Game, facts: Facts) -> list[TextView]:
    manifest = game.manifest
    assert manifest is not None
    langs = tuple(manifest.languages)
    return [TextView(t, manifest.source_language, langs) for t in facts.texts]
