"""What every question-bank rule looks at: each question with its file and position, and
the one text normalisation they share (so 'Île', 'ile' and 'ILE.' compare equal)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

from toolkit.content.game import Game, LoadedFile
from toolkit.diagnostics import Span

LETTERS = "abcd"
_NOT_WORD = re.compile(r"[^\w]+")


@dataclass(frozen=True, slots=True)
class Item:
    """One question of a bank, where it was written."""

    file: LoadedFile
    index: int
    question: Any

    @property
    def id(self) -> str:
        return self.question.id

    @property
    def rel(self) -> str:
        return self.file.rel

    def span(self, *path: Any) -> Span:
        assert self.file.doc is not None
        return self.file.doc.span(("questions", self.index, *path))

    def where(self) -> str:
        """`file:line`, for messages that name another question."""
        return f"{self.rel}:{self.span('id').line}"

    def right_index(self) -> int:
        return LETTERS.index(self.question.right)


def items(game: Game) -> list[Item]:
    """Every valid question of the game, in file order."""
    return [
        Item(loaded, index, question)
        for loaded in game.questions
        if loaded.model is not None and loaded.doc is not None
        for index, question in enumerate(loaded.model.questions)
    ]


def languages(game: Game) -> list[str]:
    """The game's languages, source language first (findings prefer it)."""
    manifest = game.manifest
    if manifest is None:
        return []
    source = manifest.source_language
    return [source, *(lang for lang in manifest.languages if lang != source)]


@cache
def normalise(text: str) -> str:
    """Case, accents, punctuation and spacing removed: what a reader would call the same."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(_NOT_WORD.sub(" ", bare).replace("_", " ").split())


def words(text: str) -> list[str]:
    return normalise(text).split()
