"""Decks and cards: the generic part every game shares."""

import math
import re
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from toolkit.content.models.base import (
    Declares,
    LocalizedText,
    RelPath,
    Slug,
    StrictModel,
    new_list,
)

NAMED_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}


class CustomSize(StrictModel):
    """A card size in millimetres (trim size, without bleed)."""

    width_mm: float = Field(ge=20, le=300)
    height_mm: float = Field(ge=20, le=420)


CardSize = Annotated[
    Literal["poker", "bridge", "mini", "tarot", "square"] | CustomSize,
    Field(description="Card size by name or in millimetres.", examples=["poker"]),
]


def size_mm(size: str | CustomSize) -> tuple[float, float]:
    """Trim size of a card in millimetres."""
    if isinstance(size, CustomSize):
        return (size.width_mm, size.height_mm)
    return NAMED_SIZES_MM[size]


class CardBase(StrictModel):
    """Fields every card has. A game's card models add typed parameters and effects."""

    id: Annotated[Slug, Declares("card")] = Field(description="Unique id of the card in the game.")
    name: LocalizedText = Field(description="The card's title in every language.")
    text: LocalizedText | None = Field(
        default=None,
        description="Rules text; {placeholders} name the card's parameters.",
        examples=[{"fr": "+{amount} points", "es": "+{amount} puntos", "en": "+{amount} points"}],
    )
    copies: int = Field(default=1, ge=1, le=1000, description="Copies of this card in the deck.")
    image: RelPath | None = Field(default=None, description="Artwork, relative to the game folder.")


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        why = (
            "YAML reads .nan as not a number"
            if math.isnan(value)
            else "YAML reads .inf, and a number past the float range such as 1e400, as infinity"
        )
        raise ValueError(f'not a finite number: it prints as "{value}"; write a number ({why})')
    return value


Scalar = Annotated[int | float | bool | str, AfterValidator(_finite)]
"""A `params` value: a float that is not finite (`.inf`, `.nan`, `1e400`) printed "inf"."""


CardValue = Annotated[
    Annotated[int, Field(ge=-99, le=999)]
    | Annotated[str, StringConstraints(min_length=1, max_length=3)],
    Field(description="A number, or a short symbol such as 'A'.", examples=[7, "A"]),
]
EXPECTED = {
    "value": "a whole number from -99 to 999, or a symbol of 1 to 3 characters",
    "points": "a whole number from -999 to 999",
    "price": "a whole number from 0 to 99999",
}
PRINTED_PARAMS = tuple(EXPECTED)  # a `params` entry of one of these names fills that field


class GenericCard(CardBase):
    """A card of a game without a plugin: the fields the plain `standard` layout prints, and
    free parameters for its text and the game's own layouts."""

    subtitle: LocalizedText | None = Field(
        default=None,
        description="A line under the name (a type, a family), in every language.",
        examples=[{"fr": "Sortilège", "es": "Hechizo", "en": "Spell"}],
    )
    value: CardValue | None = Field(
        default=None,
        description="The card's number: printed large on the face and as an index in both "
        "top corners, as on playing cards.",
    )
    points: int | None = Field(
        default=None, ge=-999, le=999, description="Points, printed in a badge (lower left)."
    )
    price: int | None = Field(
        default=None,
        ge=0,
        le=99999,
        description="What the card costs, printed with a coin (lower right).",
    )
    params: dict[Slug, Scalar] = Field(
        default_factory=dict,
        description="Named values the text's {placeholders} and the layout can use "
        "(`card.params.cost`); `value`, `points` and `price` here fill those fields.",
        examples=[{"cost": 3, "suit": "cups"}],
    )
    tags: list[Slug] = Field(default_factory=new_list, description="Free labels for layouts.")

    @field_validator("params")
    @classmethod
    def _printable_params(cls, params: dict[str, Scalar], info: ValidationInfo) -> dict:
        """A `params` entry named like a printed field must be a value that field takes, and
        agree with the field when both are given."""
        for name in PRINTED_PARAMS:
            if name not in params:
                continue
            try:
                _field_adapter(name).validate_python(params[name], strict=True)
            except ValidationError:
                message = f"params.{name} prints as the card's {name}: use {EXPECTED[name]}"
                written = params[name]
                if isinstance(written, str) and re.fullmatch(r"[+-]?[0-9]+", written.strip()):
                    message += f" (write {written.strip()} without quotes)"
                raise ValueError(message) from None
            given = info.data.get(name)
            if given is not None and given != params[name]:
                raise ValueError(f"{name} is {given} but params.{name} is {params[name]}: keep one")
        return params

    @model_validator(mode="after")
    def _printed_params(self) -> "GenericCard":
        """`params: {points: 3}` prints like `points: 3`: the plain layout reads the fields."""
        for name in PRINTED_PARAMS:
            if name in self.params and getattr(self, name) is None:
                setattr(self, name, self.params[name])
        return self


@cache
def _field_adapter(name: str) -> TypeAdapter[Any]:
    """Validates a `params` entry as the GenericCard field of that name would."""
    info = GenericCard.model_fields[name]
    return TypeAdapter(Annotated[(info.annotation, *info.metadata, Field())])  # type: ignore[arg-type]


class DeckBase(StrictModel):
    """A deck: one kind of card, one size, one back. Games fix `kind` and the card model."""

    back_per_card: ClassVar[bool] = False
    """Each card has a back of its own (a question bank's answers); a deck has one back."""

    id: Annotated[Slug, Declares("deck")] = Field(description="Unique id of the deck.")
    name: LocalizedText = Field(description="Deck name, printed on backs and in the rulebook.")
    size: CardSize = "poker"
    layout: Slug | None = Field(
        default=None, description="Front layout: the game's layouts/<name>.yaml, else a built-in."
    )
    back: Slug | None = Field(
        default=None, description="Back layout: the game's layouts/<name>.yaml, else a built-in."
    )
    pieces: Literal["cards", "tokens", "tiles"] = Field(
        default="cards",
        description="What the printed pieces are called in the rulebook's component list.",
    )
    labels: dict[Slug, LocalizedText] = Field(
        default_factory=dict,
        description="Column headings of the rulebook's card reference, by card field or "
        "`params` entry: a labelled field or param gets a column (number fields get one "
        "anyway, headed by their name).",
        examples=[{"cost": {"fr": "Coût", "es": "Coste", "en": "Cost"}}],
    )

    @model_validator(mode="after")
    def _labels_name_fields(self) -> "DeckBase":
        """A heading for a field or `params` entry no card has is a typo: an error at its key."""
        cards = getattr(self, "cards", None) or []
        fields = {name for card in cards for name in type(card).model_fields}
        params = {name for card in cards for name in getattr(card, "params", None) or {}}
        wrong = [name for name in self.labels if cards and name not in fields | params]
        if wrong:
            known = ", ".join(sorted(fields - {"id", "name", "text", "copies", "params"}))
            if params:
                known += "; params: " + ", ".join(sorted(params))
            message = "'{name}' is not a card field or param (fields: {known})"
            errors = [
                InitErrorDetails(
                    type=PydanticCustomError("label_field", message, {"name": n, "known": known}),
                    loc=("labels", n),
                    input=n,
                )
                for n in wrong
            ]
            raise ValidationError.from_exception_data(type(self).__name__, errors)
        return self


class GenericDeck(DeckBase):
    """A deck of a game without a plugin."""

    kind: Slug = Field(description="What kind of cards this deck holds.")
    cards: list[GenericCard] = Field(min_length=1)
