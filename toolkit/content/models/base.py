"""Building blocks shared by every content model: strict models, ids, localized text, refs."""

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, StringConstraints
from pydantic_core import CoreSchema

from toolkit.registry import spare_pydantic_scan

spare_pydantic_scan()  # before the first validator: one scan of the entry points per run

NUMBER_TYPES = frozenset({"int", "float"})
DATA_KEYS = frozenset({"metadata", "serialization", "default", "expected"})  # values, not schemas


class StrictModel(BaseModel):
    """A content model: unknown keys are errors, so a typo never passes silently; a number
    field takes only a YAML number (see `strict_numbers`)."""

    model_config = ConfigDict(
        extra="forbid", validate_default=True, populate_by_name=False, defer_build=True
    )

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        schema = handler(source)
        strict_numbers(schema)
        return schema


def new_list() -> list[Any]:
    """A field's empty list default (`Field(default_factory=new_list)`).

    Not the builtin `list`: pydantic asks each default factory's signature (does it take the
    validated data?), and a builtin's comes from parsing its text signature with the
    tokenizer, whose first use compiles its large pattern: ~10 ms of a cold build for an
    answer that is always no. A Python function's signature is read from its code."""
    return []


def strict_numbers(schema: Any) -> None:
    """Mark every int and float in a core schema strict, in place.

    Lax pydantic reads `" 2"`, `"2"` and `true` as the integer 2 or 1, `3.0` as 3 and `"2.5"`
    as a float: a count must be a YAML number. Only the number schemas turn strict: the
    model-wide `strict=True` would also refuse a YAML list for a tuple field (`fifty_fifty`)
    and change every string, boolean and union. The walk enters nested models too: the
    schema pydantic inlines for one is not always the one its own hook returned.
    """
    if isinstance(schema, list):
        for item in schema:
            strict_numbers(item)
    elif isinstance(schema, dict):
        kind = schema.get("type")
        if not isinstance(kind, str):  # names to schemas: a model's fields, a union's choices
            for value in schema.values():
                strict_numbers(value)
            return
        if kind in NUMBER_TYPES:
            schema["strict"] = True
        for key, value in schema.items():
            if key not in DATA_KEYS:
                strict_numbers(value)


Slug = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$", min_length=1, max_length=64),
    Field(description="An id: lower-case letters, digits, '-' or '_'.", examples=["glenlivet"]),
]

LangCode = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z]{2,3}$"),
    Field(description="An ISO 639 language code.", examples=["fr", "es", "en"]),
]


class Localized:
    """Marks a field as localized text, so translation checks find every one of them."""

    def __repr__(self) -> str:
        return "Localized()"


LocalizedText = Annotated[
    dict[LangCode, Annotated[str, StringConstraints(max_length=4000)]],
    Localized(),
    Field(
        description=(
            "Text in each of the game's languages. A card text may hold {placeholders} that "
            "name the card's parameters, so numbers come from data."
        ),
        examples=[{"fr": "Tonneau", "es": "Barril", "en": "Barrel"}],
        json_schema_extra={
            "properties": {
                "fr": {"type": "string", "description": "French"},
                "es": {"type": "string", "description": "Spanish"},
                "en": {"type": "string", "description": "English"},
            }
        },
    ),
]

RelPath = Annotated[
    str,
    StringConstraints(pattern=r"^[^\x00]+$", max_length=255),
    Field(
        description="A path relative to the game folder; it may not leave the folder.",
        examples=["decks/characters.yaml"],
    ),
]

FontFamily = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="A font family as its file names itself (a font menu's name): one of the "
        "game's `fonts/` files, or the toolkit's `Noto Sans`.",
        examples=["Noto Sans", "Gentium Book Plus"],
    ),
]


Count = Annotated[int, Field(ge=0, le=10_000)]
SmallInt = Annotated[int, Field(ge=-1000, le=1000)]


@dataclass(frozen=True, slots=True)
class Ref:
    """Marks a field as a reference to an id declared elsewhere in the game.

    `namespace` is where the id lives (`space`, `region`, `card`, `term`, `type`); `kind`
    restricts it to ids of one kind (a `space` of kind `distillery`). The references check
    finds every such field by this marker, so no game writes its own lookup code.
    """

    namespace: str
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Declares:
    """Marks an id field as declaring an id in a namespace (`space`, `card`, `region`, ...).

    The references check collects declared ids (and flags duplicates) by this marker; a
    sibling field named `kind`, if any, is recorded as the id's kind for `Ref(kind=...)`.
    """

    namespace: str
