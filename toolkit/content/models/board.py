"""Boards: the shapes a board file may take, and how a board looks.

Four shapes ship with the toolkit and cover most games: a graph, a track of loops, a road, a
score track. Each is a board kind in a registry: one module of `toolkit.boards` (or of a
package, through the `playset.boards` entry point group) registers its model and its drawing
(`register_board_kind`), and nothing else changes. A board's look is data (`style:`):
colour, icon and label per space kind, line per link kind, the words its legend prints.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import Field, field_validator, model_validator

from toolkit.content.models.base import (
    Declares,
    FontFamily,
    LocalizedText,
    Ref,
    Slug,
    StrictModel,
    new_list,
)
from toolkit.registry import Registry

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", examples=["#7b3f12"])]

Label = Annotated[
    Annotated[Slug, Ref("term")] | LocalizedText,
    Field(
        description=(
            "Words the board prints: a glossary term's id (the board then speaks as the "
            "rulebook does), or the text in each language."
        ),
        examples=["harbour", {"fr": "Phare", "es": "Faro", "en": "Lighthouse"}],
    ),
]

IconName = Annotated[
    str,
    Field(
        pattern=r"^[a-z][a-z0-9_]*$",
        max_length=64,
        description=(
            "An icon: a board glyph of the game's plugin, else an SVG of the game's `icons/`, "
            "else a toolkit icon (`playset icons`). Without one, a space shows its label's "
            "initial in the build language."
        ),
        examples=["star"],
    ),
]


class SpaceStyle(StrictModel):
    """How one kind of space (or road stop) looks. Unset fields take generic defaults:
    a colour of its own from the toolkit's palette, the label from the glossary."""

    label: Label | None = Field(
        default=None,
        description="Legend name; default: the glossary term `<kind>-space` or `<kind>`, "
        "else the kind's id in words.",
    )
    colour: Colour | None = Field(default=None, description="Fill colour.")
    text_colour: Colour | None = Field(
        default=None, description="Colour of what is drawn on the fill (icon, letter, words)."
    )
    outline: Colour | None = Field(default=None, description="Outline colour (default ink).")
    icon: IconName | None = None
    size: float | None = Field(
        default=None, ge=0.5, le=50, description="Radius in mm of a graph space (default 3.6)."
    )
    font: Literal["regular", "bold", "italic", "bolditalic"] = Field(
        default="regular", description="Font style of the space names."
    )
    font_size: float = Field(default=7.5, ge=3, le=40, description="Size of its names in points.")
    name_colour: Colour | None = Field(default=None, description="Colour of the space names.")
    named: bool = Field(default=True, description="Print the names of spaces of this kind.")
    stage: bool = Field(
        default=False,
        description="Road stop that ends a leg: drawn larger, with its name and `slots`.",
    )
    slots: int = Field(default=0, ge=0, le=12, description="Waiting places drawn on a stage.")


MIN_DASH_PERIOD = 1.0
"""Points a line style's dash pattern repeats in, at least (`LineStyle.dash`): a dotted line
(`[0, 1.5]` with round caps) repeats every 1.5."""


def dash_period(dash: list[float]) -> tuple[float, int]:
    """(the points a dash pattern repeats in, the dashes it draws in that length): PDF
    repeats an odd-length pattern twice over to pair each dash with a gap."""
    odd = len(dash) % 2
    return sum(dash) * (2 if odd else 1), len(dash) if odd else len(dash) // 2


class LineStyle(StrictModel):
    """How one kind of link or route is drawn. Unset fields keep the toolkit's line for that
    kind, else a plain grey line."""

    label: Label | None = Field(
        default=None,
        description="Legend name; default: the glossary term `<kind>`, else the id in words.",
    )
    colour: Colour | None = None
    width: float | None = Field(default=None, ge=0.1, le=20, description="Line width (points).")
    dash: list[Annotated[float, Field(ge=0, le=50)]] | None = Field(
        default=None, max_length=8, description="Dash pattern in points, e.g. [5, 3]."
    )
    cap: Literal["butt", "round", "square", "keep"] | None = Field(
        default=None, description="Line ends (`keep`: as the line drawn before it)."
    )
    inner_colour: Colour | None = Field(
        default=None, description="A cased line: the colour of the thinner line inside."
    )
    inner_width: float | None = Field(default=None, ge=0.1, le=20)
    shape: Literal["straight", "arc"] | None = Field(
        default=None, description="`arc`: a curve bowing away from the map's centre."
    )
    marker: IconName | None = Field(default=None, description="An icon halfway along an arc.")

    @field_validator("dash")
    @classmethod
    def _dashes_long_enough(cls, dash: list[float] | None) -> list[float] | None:
        """A dash pattern repeats every `MIN_DASH_PERIOD` points at least: reportlab cannot
        write one of no length (`[0, 0]` was a traceback in build), and a picture of the
        board draws each dash on its own (700 links dashed `[0.03, 0.03]` took `export png`
        7 s, solid 1 s)."""
        if dash:
            period, _ = dash_period(dash)
            if period < MIN_DASH_PERIOD:
                raise ValueError(
                    f"the dash pattern repeats every {period:g} points, less than the"
                    f" {MIN_DASH_PERIOD:g} a pattern may (a picture of the board draws each"
                    " dash on its own); use longer dashes, or [] for a solid line"
                )
        return dash


class BoardStyle(StrictModel):
    """A board's look. What a board leaves out comes from the toolkit's generic style."""

    spaces: dict[Slug, SpaceStyle] = Field(
        default_factory=dict,
        description="By space (or stop) kind; the order is the legend's and the naming order.",
    )
    links: dict[Slug, LineStyle] = Field(
        default_factory=dict, description="By link kind (`link` for plain links) or route kind."
    )
    labels: dict[Slug, Label] = Field(
        default_factory=dict,
        description="Other words the board prints, by key: `start`; on a track `start-hole`, "
        "`entrance` and the phrases `players` ({n}, {m}, {segment}), `seats` ({n}, {segment}, "
        "{list}), `title` ({board}, {m}, {segment}, {players}), `count` ({n}), `or`; on a road "
        "the phrases `leg` (`Leg {n}`) and `double` ({n}). A phrase fills those names alone.",
    )
    piles: list[Label] = Field(
        default_factory=new_list, description="Track board: card piles drawn in the middle."
    )
    font: FontFamily | None = Field(
        default=None,
        description="The family the board's words print in (default: game.yaml's "
        "`style.font`, else Noto Sans).",
    )
    unnamed_prefix: str | None = Field(
        default=None,
        max_length=40,
        description="Space names that begin with this are not printed (generated fillers).",
    )


class Region(StrictModel):
    """A named area of a graph board (a region, a country)."""

    id: Annotated[Slug, Declares("region")]
    name: LocalizedText
    colour: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$")


class GraphSpace(StrictModel):
    """A space of a graph board."""

    id: Annotated[Slug, Declares("space")]
    name: str = Field(min_length=1, max_length=80, description="Place name (not translated).")
    kind: Slug = Field(description="Space kind, styled by the board's `style.spaces`.")
    region: Annotated[Slug, Ref("region")] | None = None
    country: Slug | None = None
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    x: float | None = Field(default=None, ge=-10_000, le=10_000, description="Layout x in mm.")
    y: float | None = Field(default=None, ge=-10_000, le=10_000, description="Layout y in mm.")
    tags: list[Slug] = Field(
        default_factory=new_list, description="Extra roles: `start` marks a start space."
    )


class Link(StrictModel):
    """An ordinary step between two spaces, usable both ways."""

    a: Annotated[Slug, Ref("space")]
    b: Annotated[Slug, Ref("space")]
    km: float | None = Field(default=None, ge=0, le=20_000)
    kind: Slug = Field(
        default="link", description="Link kind, styled by the board's `style.links`."
    )


class Route(StrictModel):
    """A special connection drawn as its kind's line: a ferry through the spaces of a crossing,
    a bridge, or a flight (an arc) between two spaces."""

    id: Slug
    kind: Literal["ferry", "flight", "bridge"]
    stops: list[Annotated[Slug, Ref("space")]] = Field(
        min_length=2, description="Spaces in order, from one end to the other."
    )


class GraphBoard(StrictModel):
    """Spaces joined by links (a map)."""

    kind: Literal["graph"]
    id: Slug
    name: LocalizedText
    regions: list[Region] = Field(default_factory=new_list)
    spaces: list[GraphSpace] = Field(min_length=1)
    links: list[Link] = Field(default_factory=new_list)
    routes: list[Route] = Field(default_factory=new_list)
    source: str | None = Field(default=None, description="Where the facts come from.")
    style: BoardStyle = Field(default_factory=BoardStyle)


PlayerCount = Annotated[int, Field(ge=1, le=100)]
"""A player count a track board speaks of (1 to 100, as a road's `double_from_players`)."""
SegmentCount = Annotated[int, Field(ge=1, le=64)]
"""Segments in a track's loop: each is drawn, hole by hole (probe 19: 10^8 took 6 GB)."""
MAX_ARRANGEMENTS = 16
"""Player counts a track board lists: each is a line of its legend and a count its title
joins, so their number multiplies what it prints (probe 19: 595 counts, a 100,000-character
title)."""


class TrackBoard(StrictModel):
    """Identical segments joined into a loop; each seat has a start, an entrance and a home.

    Holes are numbered from the corner a segment shares with the previous one; the start
    hole sits by the seat's pen, the entrance leads to its home.
    """

    kind: Literal["track"]
    id: Slug
    name: LocalizedText
    segment_name: LocalizedText = Field(description="What one segment is called.")
    segments_in_box: int = Field(ge=1, le=64)
    segments_by_players: dict[PlayerCount, SegmentCount] = Field(
        min_length=1,
        max_length=MAX_ARRANGEMENTS,
        description=(
            "Segments used for each player count (a count of 1 to 100 players, 1 to 64"
            " segments, at most the box's)."
        ),
        examples=[{2: 4, 3: 3, 4: 4}],
    )
    holes_per_segment: int = Field(ge=2, le=500)
    start_offset: int = Field(ge=0, le=500)
    entrance_offset: int = Field(ge=0, le=500)
    pen_holes: int = Field(ge=0, le=50, description="Holes of each seat's start pen.")
    home_holes: int = Field(ge=0, le=50, description="Holes of each seat's home.")
    pen_name: LocalizedText
    home_name: LocalizedText
    style: BoardStyle = Field(default_factory=BoardStyle)


class RoadStop(StrictModel):
    """One stop of a road, in order from the start."""

    kind: Slug
    double: bool = Field(default=False, description="Has a second slot (some player counts).")
    name: str | None = Field(default=None, max_length=80, description="Place name, if any.")


class RoadBoard(StrictModel):
    """A one-way road of stops, some of them stages that end a leg."""

    kind: Literal["road"]
    id: Slug
    name: LocalizedText
    stops: list[RoadStop] = Field(min_length=2, max_length=2000)
    double_from_players: int | None = Field(
        default=None, ge=1, le=100, description="Second slots open from this player count."
    )
    style: BoardStyle = Field(default_factory=BoardStyle)

    @model_validator(mode="after")
    def _ends_are_plain(self) -> "RoadBoard":
        if self.stops[0].double or self.stops[-1].double:
            raise ValueError("the first and last stops cannot be double")
        return self


# ---------------------------------------------------------------- the board kinds registry


@dataclass(frozen=True)
class BoardKind:
    """One board shape: the model its files hold and how it is drawn.

    `draw` is `draw(board, look) -> list[Drawing]` (see `toolkit.render.boards`). The kind
    modules (`toolkit.boards`) sit above rendering, so the content layer never imports it;
    they import their drawing code when they draw.
    """

    kind: str
    model: type[StrictModel]
    draw: Callable[[Any, Any], list[Any]]
    summary: Callable[[Any], str] = field(default=lambda board: "")
    """A few words on the board's size, for `playset list` (`12 spaces`)."""
    space_kinds: Callable[[Any], list[str]] = field(default=lambda board: [])
    """The kinds of space the board uses, in order: unstyled ones get palette colours."""
    phrase: Callable[[Any, str], str] | None = None
    """`phrase(board, lang)`: what the rulebook's component list says of it ("a score track
    0–40"); None: the list says its size its own way."""
    problems: Callable[[Any], list[tuple[tuple[str | int, ...], str]]] | None = None
    """`problems(board)`: (field path, message) for data that cannot be drawn (a count that
    does not fit the page), reported by `validate` (P016)."""
    player_counts: Callable[[Any], list[tuple[tuple[str | int, ...], int]]] | None = None
    """`player_counts(board)`: (field path, count) of each player count the board's data
    speaks of (a track's `segments_by_players` keys), which `validate` compares with
    game.yaml's `players` (S004 at the count outside them)."""
    order: int = 100
    """Where it is listed among the others (lower first; the built-ins' order)."""
    phrases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The drawer's phrases a style's `labels` may replace, each with the names its words may
    write in braces (`leg`: `n`, as in `Leg {n}`): the drawer fills those names alone, by plain
    substitution (toolkit.render.boards.look), and `validate` refuses any other (R006)."""
    printed_names: Callable[[Any, Any], Iterable[tuple[tuple[str | int, ...], str]]] | None = None
    """`printed_names(board, look)`: (field path, text) of each name of the board's data it
    prints as written, not translated (a map's place names), for the checks of printed
    letters; None: every string field called `name` is taken as printed."""
    drawn_problems: (
        Callable[[Any, Any, bool], list[tuple[tuple[str | int, ...], str, bool]]] | None
    ) = None
    """`drawn_problems(board, look, laid_out)`: (field path, message, is an error) for what
    drawing the board in `look`'s language finds (a title wider than the page; with `laid_out`,
    once per board, what its layout finds), reported by `validate` (P016, a warning when not an
    error)."""
    icon_uses: Callable[[Any, Any], Iterable[tuple[Any, ...]]] | None = None
    """`icon_uses(board, look)`: (field path, icon name, places[, side]) for each icon one of
    its drawings draws, at most: the field naming it (a style's `icon`), at how many places
    it is drawn (every space of the kind) and, optionally, the side of its box in points.
    `validate` weighs them (P016 past `toolkit.render.boards.look.MAX_DRAWING_ICON_WEIGHT`
    or `MAX_DRAWING_ICON_PAINT`, at the field whose icon weighs or paints most);
    the drawing stays within the bound whatever it says (past it, spaces are drawn without
    their icon). None: nothing said before the drawing leaves icons out."""


BOARD_KINDS: Registry[BoardKind] = Registry(
    "board kind",
    package="toolkit.boards",
    group="playset.boards",
    key=lambda entry: entry.kind,
    rank=lambda entry: entry.order,
    accepts=lambda obj: isinstance(obj, BoardKind),
)


def _validators_changed() -> None:
    from toolkit.content.plugin import adapter

    adapter.cache_clear()  # the board validator is rebuilt with the new shape
    board_shapes.cache_clear()


BOARD_KINDS.on_change(_validators_changed)


def register_board_kind(entry: BoardKind) -> BoardKind:
    """Add a board shape; board files with `kind: <entry.kind>` validate against its model."""
    return BOARD_KINDS.register(entry)


def unregister_board_kind(kind: str) -> None:
    """Remove a board shape (tests that register one undo it with this)."""
    BOARD_KINDS.unregister(kind)


def board_kinds() -> dict[str, BoardKind]:
    """Every registered board shape by kind, the toolkit's first."""
    return BOARD_KINDS.load()


def made_by_a_kind(model: object) -> bool:
    """Whether `model` is of the class a registered board kind validates to (a board's model
    read back from the cache: toolkit.content.game). A built-in kind's class is told by its
    own module alone (`Registry.discover_builtin`: a built-in entry is never replaced by one
    found later, so the answer is the one every kind gives); any other class once every kind
    is found. A kept map no longer imports every other kind's module and model."""
    kind = getattr(model, "kind", None)
    if type(kind) is str:
        BOARD_KINDS.discover_builtin(kind)
        entry = BOARD_KINDS.registered().get(kind)
        if entry is not None and entry.model is type(model) and BOARD_KINDS.is_builtin(kind):
            return True
    return type(model) in {entry.model for entry in board_kinds().values()}


def board_union() -> Any:
    """The model a board file is validated against: one of the registered shapes."""
    models = [entry.model for entry in board_kinds().values()]
    union: Any = models[0]
    for model in models[1:]:
        union = union | model
    return Annotated[union, Field(discriminator="kind")] if len(models) > 1 else union


@cache
def board_shapes() -> dict[str, type[StrictModel]]:
    """Each board shape's model by the `kind` literal its model takes, only the names one
    shape alone takes; empty when a shape's tag is no plain literal read from `kind` (then
    every board file is validated by the union: toolkit.content.plugin.board_shape)."""
    shapes: dict[str, list[type[StrictModel]]] = {}
    for entry in board_kinds().values():
        tag_field = entry.model.model_fields.get("kind")
        if tag_field is None or tag_field.alias or tag_field.validation_alias:
            return {}  # the union reads its tag elsewhere
        if get_origin(tag_field.annotation) is not Literal:
            return {}
        for tag in get_args(tag_field.annotation):
            if type(tag) is str:
                shapes.setdefault(tag, []).append(entry.model)
    return {tag: models[0] for tag, models in shapes.items() if len(models) == 1}


def __getattr__(name: str) -> Any:
    if name == "Board":
        return board_union()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
