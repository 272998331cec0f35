"""Decks and cards: the generic part every game shares."""

from typing import Annotated, ClassVar, Literal

from pydantic import (
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from toolkit.content.models.base import (
    Declares,
    LocalizedText,
    RelPath,
    Slug,
    StrictModel,
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
