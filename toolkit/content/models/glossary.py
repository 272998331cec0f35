"""A game's glossary: its terms in each language, and the names that stay untranslated."""

from typing import Annotated

from pydantic import Field

from toolkit.content.models.base import Declares, LangCode, LocalizedText, Slug, StrictModel


class GlossaryTerm(StrictModel):
    """A term and its one translation per language."""

    id: Annotated[Slug, Declares("term")]
    text: LocalizedText
    keep: bool = Field(default=False, description="A proper noun: the same in every language.")
    forms: dict[LangCode, list[str]] = Field(
        default_factory=dict,
        description="Other accepted forms per language (irregular plurals, conjugations).",
        examples=[{"en": ["dice"]}],
    )
    note: str | None = None


class Glossary(StrictModel):
    """All the game's terms."""

    terms: list[GlossaryTerm] = Field(min_length=1)
