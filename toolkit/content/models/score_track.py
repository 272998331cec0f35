"""The score-track board: numbered squares in a rectangular loop around the page's edge.

Drawn from data (toolkit.render.boards.score_track): where the numbers start, their step,
how many squares, which multiples stand out, and icons on chosen squares.
"""

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from toolkit.content.models.base import LocalizedText, Slug, StrictModel
from toolkit.content.models.board import BoardStyle


class ScoreTrackBoard(StrictModel):
    """A loop of numbered squares around the page (a score track, 0–40)."""

    kind: Literal["score_track"]
    id: Slug
    name: LocalizedText
    start: int = Field(default=0, ge=-100_000, le=100_000, description="The first number.")
    step: int = Field(default=1, ge=1, le=10_000, description="From one square to the next.")
    count: int = Field(
        ge=4, le=1000, description="How many squares: 41 for a track 0–40.", examples=[41]
    )
    emphasis: int = Field(
        default=5,
        ge=0,
        le=100_000,
        description="Numbers that are multiples of this stand out (larger, in the `fifth` "
        "space style's colour); 0: none.",
    )
    icons: dict[int, Slug] = Field(
        default_factory=dict,
        description="An icon on the square of a number: a game glyph, an SVG of the game's "
        "`icons/`, or a toolkit icon.",
        examples=[{10: "star", 20: "star"}],
    )
    paper: Literal["a4", "letter", "a3"] = Field(
        default="a4", description="The page the loop runs around (landscape)."
    )
    style: BoardStyle = Field(default_factory=BoardStyle)

    @property
    def last(self) -> int:
        return self.start + self.step * (self.count - 1)

    @field_validator("icons")
    @classmethod
    def _icons_on_the_track(cls, icons: dict[int, str], info: ValidationInfo) -> dict[int, str]:
        start, step, count = (info.data.get(k) for k in ("start", "step", "count"))
        if start is None or step is None or count is None:
            return icons
        last = start + step * (count - 1)
        for number in icons:
            if not (start <= number <= last and (number - start) % step == 0):
                raise ValueError(
                    f"{number} is not a square of the track ({start}–{last} by {step})"
                )
        return icons
