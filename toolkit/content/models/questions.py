"""Question banks: four-answer questions, printed as a deck like any other (its size, front
layout and back layout are the bank's data; each card's back shows its own answer)."""

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator

from toolkit.content.models.base import Declares, LocalizedText, Slug, StrictModel
from toolkit.content.models.deck import CardSize

Letter = Literal["a", "b", "c", "d"]


class Question(StrictModel):
    """A four-answer question with a 50/50 pair and a fact line."""

    id: Annotated[Slug, Declares("question")]
    difficulty: Slug = Field(examples=["easy", "normal", "hard"])
    topic: Slug | None = None
    question: LocalizedText
    answers: list[LocalizedText] = Field(min_length=4, max_length=4, description="A to D.")
    right: Letter = Field(description="The right answer's letter.")
    fifty_fifty: tuple[Letter, Letter] = Field(
        description="The two answers printed in colour: the right one and one other."
    )
    fact: LocalizedText = Field(description="A short fact read after the answer.")
    source: str = Field(min_length=3, max_length=500, description="Where the fact was checked.")

    @field_validator("fifty_fifty")
    @classmethod
    def _fifty_fifty_holds_right(
        cls, pair: tuple[str, str], info: ValidationInfo
    ) -> tuple[str, str]:
        if pair[0] == pair[1]:
            raise ValueError("the 50/50 pair must name two different answers")
        right = info.data.get("right")
        if right is not None and right not in pair:
            raise ValueError(
                f"the 50/50 pair [{pair[0]}, {pair[1]}] leaves out the right answer {right}: "
                "one of the two answers printed in colour must be the right one"
            )
        return pair


class QuestionBank(StrictModel):
    """A file of questions."""

    id: Slug
    name: LocalizedText
    questions: list[Question] = Field(min_length=1)
    size: CardSize = "poker"
    layout: Slug = Field(
        default="question-front",
        description="Front layout (the question, its answers): the game's layouts/<name>.yaml, "
        "else a built-in.",
    )
    back: Slug = Field(
        default="question-back",
        description="Back layout, printed behind each question (its answer): the game's "
        "layouts/<name>.yaml, else a built-in.",
    )
