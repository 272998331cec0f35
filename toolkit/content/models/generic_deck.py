"""The deck and card of a game without a plugin: the fields the plain `standard` layout
prints. A module of its own: a game with a plugin never validates a generic deck, and
making these classes cost every run ~0.5 ms (`toolkit.content.models` names the card on
first use)."""

import math
import re
from functools import cache
from typing import Annotated, Any

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

from toolkit.content.models.base import LocalizedText, Slug, new_list
from toolkit.content.models.deck import CardBase, DeckBase


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


class GenericDeck(DeckBase):
    """A deck of a game without a plugin."""

    kind: Slug = Field(description="What kind of cards this deck holds.")
    cards: list[GenericCard] = Field(min_length=1)
