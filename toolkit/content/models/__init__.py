"""The generic content model: what every game shares. Games extend it in their plugins."""

from toolkit.content.models.base import (
    Declares,
    LangCode,
    LocalizedText,
    Ref,
    RelPath,
    Slug,
    StrictModel,
)
from toolkit.content.models.board import Board, GraphBoard, RoadBoard, TrackBoard
from toolkit.content.models.deck import CardBase, CardSize, DeckBase, GenericCard
from toolkit.content.models.glossary import Glossary, GlossaryTerm
from toolkit.content.models.manifest import ManifestBase
from toolkit.content.models.questions import Question, QuestionBank

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
