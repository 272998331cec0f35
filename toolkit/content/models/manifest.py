"""The game manifest (`game.yaml`): identity, players, languages, files, options, checks."""

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from toolkit.content.models.base import (
    Declares,
    FontFamily,
    LangCode,
    LocalizedText,
    Ref,
    RelPath,
    Slug,
    StrictModel,
    new_list,
)


class Players(StrictModel):
    min: int = Field(ge=1, le=100)
    max: int = Field(ge=1, le=100)

    @field_validator("max")
    @classmethod
    def _ordered(cls, value: int, info: ValidationInfo) -> int:
        low = info.data.get("min")
        if low is not None and low > value:
            raise ValueError(f"max ({value}) is smaller than min ({low})")
        return value


class Option(StrictModel):
    """A setting a table chooses before play (a mode, a skill level, an extra rule)."""

    id: Annotated[Slug, Declares("option")]
    name: LocalizedText
    description: LocalizedText | None = None
    type: Literal["bool", "int", "choice"] = "bool"
    default: bool | int | str = False
    choices: list[Slug] = Field(default_factory=new_list)
    min: int | None = Field(default=None, ge=-1_000_000, le=1_000_000)
    max: int | None = Field(default=None, ge=-1_000_000, le=1_000_000)
    players: list[int] = Field(default_factory=new_list, description="Player counts it allows.")

    def accepts(self, value: bool | int | str) -> bool:
        """Whether `value` is one this option can take."""
        if self.type == "bool":
            return isinstance(value, bool)
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return False
            return (self.min is None or value >= self.min) and (
                self.max is None or value <= self.max
            )
        return value in self.choices

    @model_validator(mode="after")
    def _default_fits(self) -> "Option":
        if self.type == "bool" and not isinstance(self.default, bool):
            raise ValueError("a bool option needs a true/false default")
        if self.type == "int":
            if isinstance(self.default, bool) or not isinstance(self.default, int):
                raise ValueError("an int option needs a whole-number default")
            if self.min is not None and self.default < self.min:
                raise ValueError("default is below min")
            if self.max is not None and self.default > self.max:
                raise ValueError("default is above max")
        if self.type == "choice" and self.default not in self.choices:
            raise ValueError("a choice option's default must be one of its choices")
        return self


class Variant(StrictModel):
    """An official way to play (teams, co-operative, no drinking): a named set of options."""

    id: Slug
    name: LocalizedText
    description: LocalizedText | None = None
    players: list[int] = Field(default_factory=new_list, description="Player counts it allows.")
    options: dict[Annotated[Slug, Ref("option")], bool | int | str] = Field(
        default_factory=dict, description="Option values this variant sets."
    )


class Files(StrictModel):
    """Every content file of the game, relative to the game folder."""

    decks: list[RelPath] = Field(default_factory=new_list)
    boards: list[RelPath] = Field(default_factory=new_list)
    questions: list[RelPath] = Field(default_factory=new_list)
    glossary: RelPath | None = None
    rulebook: dict[LangCode, RelPath] = Field(default_factory=dict)


class Legibility(StrictModel):
    """The thresholds of the A rules (legibility): WCAG 2.2 contrast, differences between
    colours that carry meaning, and the smallest size a text may print at after fitting."""

    contrast: float = Field(
        default=4.5, ge=1, le=21, description="Contrast ratio a text needs (WCAG 2.2 AA)."
    )
    contrast_large: float = Field(
        default=3.0,
        ge=1,
        le=21,
        description="Contrast ratio large text needs: 18 pt, or 14 pt bold (WCAG 2.2 AA).",
    )
    min_text_pt: float = Field(
        default=6.0, ge=3, le=30, description="No text prints smaller (points, after fitting)."
    )
    vision_delta_e: float = Field(
        default=10.0,
        ge=0,
        le=100,
        description="CIEDE2000 difference two meaning colours keep under protanopia, "
        "deuteranopia and tritanopia simulation.",
    )
    grey_delta_l: float = Field(
        default=10.0,
        ge=0,
        le=100,
        description="Difference of lightness (CIE L*) two meaning colours keep in greyscale.",
    )


class ChecksConfig(StrictModel):
    """Rule codes or prefixes to select or ignore for this game (as in ruff), and the
    legibility thresholds."""

    select: list[str] = Field(default_factory=new_list, examples=[["S", "R"]])
    ignore: list[str] = Field(default_factory=new_list, examples=[["T104"]])
    # made without a validator of its own (defaults only; the enclosing model validates it):
    # building one for each default nested model cost ~7 ms of every command
    legibility: Legibility = Field(default_factory=Legibility.model_construct)


class QuestionNeeds(StrictModel):
    """How many trivia questions the game needs in each difficulty: a game that sends players
    to question cards cannot be played from a bank that is too small (rules Q007-Q009)."""

    difficulties: list[Slug] = Field(
        min_length=1,
        max_length=20,
        description="The difficulties a question may have; each needs its own pile.",
        examples=[["easy", "normal", "hard"]],
    )
    minimum: int = Field(
        ge=0, le=100_000, description="Fewer questions in a difficulty is an error.", examples=[30]
    )
    recommended: int | None = Field(
        default=None,
        ge=0,
        le=100_000,
        description="Fewer questions in a difficulty is a warning.",
        examples=[40],
    )

    @field_validator("difficulties")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        twice = sorted({d for d in value if value.count(d) > 1})
        if twice:
            raise ValueError(f"difficulty {twice[0]!r} is listed twice")
        return value

    @field_validator("recommended")
    @classmethod
    def _at_least_minimum(cls, value: int | None, info: ValidationInfo) -> int | None:
        low = info.data.get("minimum")
        if value is not None and low is not None and value < low:
            raise ValueError(f"recommended ({value}) is smaller than minimum ({low})")
        return value


class GameStyle(StrictModel):
    """How the game's printed matter looks beyond its card layouts: its font, and the
    rulebook's accent colour, heading font and cover picture."""

    font: FontFamily | None = Field(
        default=None,
        description="The family everything prints in where no layout or board names one: "
        "cards, boards, the rulebook's text (default: the toolkit's Noto Sans).",
    )
    heading_font: FontFamily | None = Field(
        default=None,
        description="The rulebook's title and headings, in its bold style (default: `font`).",
    )
    accent: str | None = Field(
        default=None,
        pattern=r"^#[0-9a-fA-F]{6}$",
        description="The rulebook's accent colour: headings, rules, table heads, cover frame "
        "(default: one of the toolkit's, picked from the game's id).",
        examples=["#7b3f12"],
    )
    cover: RelPath | None = Field(
        default=None,
        description="A picture (PNG or JPEG inside the game folder) printed on the rulebook's "
        "cover, under the title.",
        examples=["images/cover.png"],
    )


class ManifestBase(StrictModel):
    """Fields every game.yaml has; each game's plugin fixes the type of `rules`."""

    id: Slug = Field(description="The game's id, also its folder name.")
    plugin: Slug | None = Field(
        default=None, description="The plugin that plays this game; defaults to the id."
    )
    title: LocalizedText
    summary: LocalizedText | None = None
    languages: list[LangCode] = Field(min_length=1, max_length=20)
    source_language: LangCode = Field(description="The language translators translate from.")
    players: Players
    engine: RelPath | None = Field(
        default=None,
        description="The game's simulation engine: a Python file (engine.py) or package "
        "folder inside the game folder, exposing compile_game(content). Only the commands "
        "that play (simulate, check, sweep, tune, replay) import it; see docs/engines.md.",
        examples=["engine.py"],
    )
    minutes: int | None = Field(default=None, ge=1, le=10_000, description="Playing time.")
    age: int | None = Field(default=None, ge=0, le=99)
    options: list[Option] = Field(default_factory=new_list)
    cooperative: bool | dict[Annotated[Slug, Ref("option")], bool | int | str] = Field(
        default=False,
        description="Whether the players win or lose together: true (always), false, or the "
        "option values that make play co-operative (every one of them set).",
        examples=[{"play": "together"}],
    )
    variants: list[Variant] = Field(default_factory=new_list)
    files: Files = Field(default_factory=Files)
    checks: ChecksConfig = Field(default_factory=ChecksConfig.model_construct)
    questions: QuestionNeeds | None = Field(
        default=None, description="How many trivia questions per difficulty the game needs."
    )
    sources: list[str] = Field(default_factory=new_list, description="Source notes for the facts.")
    style: GameStyle = Field(
        default_factory=GameStyle.model_construct,
        description="The game's font and its rulebook's look (accent colour, heading font, cover).",
    )

    @field_validator("cooperative")
    @classmethod
    def _cooperative_values_fit(
        cls, value: bool | dict[str, bool | int | str], info: ValidationInfo
    ) -> bool | dict[str, bool | int | str]:
        if isinstance(value, bool):
            return value
        if not value:
            raise ValueError("name the option values that make play co-operative, or write true")
        declared = {option.id: option for option in info.data.get("options") or []}
        for name, wanted in value.items():
            option = declared.get(name)  # an undeclared option is a reference error (R)
            if option is not None and not option.accepts(wanted):
                raise ValueError(f"option {name!r} cannot be {wanted!r}")
        return value

    def is_cooperative(self, options: Mapping[str, bool | int | str]) -> bool:
        """Whether play with these option values (the others at their defaults) is
        co-operative, as the game declares it: the simulation then scores a shared result."""
        if isinstance(self.cooperative, bool):
            return self.cooperative
        chosen = {option.id: option.default for option in self.options} | dict(options)
        return all(chosen.get(name) == value for name, value in self.cooperative.items())

    @field_validator("source_language")
    @classmethod
    def _source_language_listed(cls, value: str, info: ValidationInfo) -> str:
        languages = info.data.get("languages")
        if languages is not None and value not in languages:
            raise ValueError(f"source language {value!r} is not in languages")
        return value
