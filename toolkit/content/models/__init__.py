"""The generic content model: what every game shares. Games extend it in their plugins.

Boards, glossaries, question banks and the generic deck load on first use (PEP 562):
building their model classes costs every command a few milliseconds even when the game has
none of them.
"""

from importlib import import_module
from typing import Any

from toolkit.content.models.base import (
    Declares,
    LangCode,
    LocalizedText,
    Ref,
    RelPath,
    Slug,
    StrictModel,
)
from toolkit.content.models.deck import CardBase, CardSize, DeckBase
from toolkit.content.models.manifest import ManifestBase

__all__ = [
    "Board",
    "CardBase",
    "CardSize",
    "Declares",
    "DeckBase",
    "GenericCard",
    "Glossary",
    "GlossaryTerm",
    "GraphBoard",
    "LangCode",
    "LocalizedText",
    "ManifestBase",
    "Question",
    "QuestionBank",
    "Ref",
    "RelPath",
    "RoadBoard",
    "Slug",
    "StrictModel",
    "TrackBoard",
]


_LAZY = {
    "GenericCard": "generic_deck",
    "Board": "board",
    "board_shapes": "board",
    "GraphBoard": "board",
    "RoadBoard": "board",
    "TrackBoard": "board",
    "Glossary": "glossary",
    "GlossaryTerm": "glossary",
    "Question": "questions",
    "QuestionBank": "questions",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
