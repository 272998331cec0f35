"""Boards in three shapes that cover most games: a graph, a track of loops, a road."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from toolkit.content.models.base import Declares, LocalizedText, Ref, Slug, StrictModel


class Region(StrictModel):
    """A named area of a graph board (a whisky region, a country)."""

    id: Annotated[Slug, Declares("region")]
    name: LocalizedText
    colour: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$")


class GraphSpace(StrictModel):
    """A space of a graph board."""

    id: Annotated[Slug, Declares("space")]
    name: str = Field(min_length=1, max_length=80, description="Place name (not translated).")
    kind: Slug = Field(description="Space kind (distillery, port, pub, path, ...).")
    region: Annotated[Slug, Ref("region")] | None = None
    country: Slug | None = None
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    x: float | None = Field(default=None, ge=-10_000, le=10_000, description="Layout x in mm.")
    y: float | None = Field(default=None, ge=-10_000, le=10_000, description="Layout y in mm.")
    tags: list[Slug] = Field(default_factory=list, description="Extra roles: start, airport, ...")


class Link(StrictModel):
    """An ordinary step between two spaces, usable both ways."""

    a: Annotated[Slug, Ref("space")]
    b: Annotated[Slug, Ref("space")]
    km: float | None = Field(default=None, ge=0, le=20_000)


class Route(StrictModel):
    """A special connection: a ferry through sea spaces or a flight between airports."""

    id: Slug
    kind: Literal["ferry", "flight", "bridge"]
    stops: list[Annotated[Slug, Ref("space")]] = Field(
        min_length=2, description="Spaces in order; a ferry is port, sea space(s), port."
    )


class GraphBoard(StrictModel):
    """Spaces joined by links (a map)."""

    kind: Literal["graph"]
    id: Slug
    name: LocalizedText
    regions: list[Region] = Field(default_factory=list)
    spaces: list[GraphSpace] = Field(min_length=1)
    links: list[Link] = Field(default_factory=list)
    routes: list[Route] = Field(default_factory=list)
    source: str | None = Field(default=None, description="Where the facts come from.")


class TrackBoard(StrictModel):
    """Identical segments joined into a loop; each seat has a start, an entrance and a home.

    Muckle Stoater's Mashies are segments: holes numbered from the corner shared with the
    previous segment; the start hole sits by the seat's Dock, the entrance leads home.
    """

    kind: Literal["track"]
    id: Slug
    name: LocalizedText
    segment_name: LocalizedText = Field(description="What one segment is called (Mashie).")
    segments_in_box: int = Field(ge=1, le=64)
    segments_by_players: dict[int, int] = Field(
        description="Segments used for each player count.", examples=[{2: 4, 3: 3, 4: 4}]
    )
    holes_per_segment: int = Field(ge=2, le=500)
    start_offset: int = Field(ge=0, le=500)
    entrance_offset: int = Field(ge=0, le=500)
    pen_holes: int = Field(ge=0, le=50, description="Holes of each seat's start pen (Dock).")
    home_holes: int = Field(ge=0, le=50, description="Holes of each seat's home (Castle).")
    pen_name: LocalizedText
    home_name: LocalizedText


class RoadStop(StrictModel):
    """One stop of a road, in order from the start."""

    kind: Slug
    double: bool = Field(default=False, description="Has a second slot (some player counts).")
    name: str | None = Field(default=None, max_length=80, description="Place name, if any.")


class RoadBoard(StrictModel):
    """A one-way road of stops (Tokaido)."""

    kind: Literal["road"]
    id: Slug
    name: LocalizedText
    stops: list[RoadStop] = Field(min_length=2, max_length=2000)
    double_from_players: int | None = Field(
        default=None, ge=1, le=100, description="Second slots open from this player count."
    )

    @model_validator(mode="after")
    def _ends_are_plain(self) -> RoadBoard:
        if self.stops[0].double or self.stops[-1].double:
            raise ValueError("the first and last stops cannot be double")
        return self


Board = Annotated[GraphBoard | TrackBoard | RoadBoard, Field(discriminator="kind")]
