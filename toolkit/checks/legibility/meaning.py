"""A002 and A003: colours that carry meaning must stay apart for colour-blind players and on
a black-and-white print, unless something else tells them apart.

Colours that carry meaning:
- a board's space kinds (told apart also by their icons, or by the initials they show
  without one, or by a clearly different size) and its link kinds (by dash, width, casing,
  marker or shape), as the board draws them (toolkit.render.boards.look);
- a board's region colours (nothing else marks a space's region on the map);
- a card layout's alternatives: elements of one kind in one box, each shown `when` a card or
  deck field has a value, in colours of their own (a band per region, a back per deck).
  A text, badge or icon whose template reads that field tells them apart.
Two collide when their CIEDE2000 difference under a simulated protanopia, deuteranopia or
tritanopia is under `vision_delta_e`, or their lightness differs by less than `grey_delta_l`.

A group's members of one colour are one colour: each distinct colour gets one A002 and one
A003 at most, at its first member, naming the first earlier colour it collides with; the
pairs of distinct colours compared are charged to a budget (MAX_PAIRS) for each run.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolkit.checks.framed import framed
from toolkit.checks.legibility.colours import (
    RGB,
    VISIONS,
    grey_difference,
    rgb,
    vision_difference,
)
from toolkit.checks.legibility.rules import A_GREY, A_VISION
from toolkit.checks.legibility.settings import legibility
from toolkit.content import assets
from toolkit.content.game import Game
from toolkit.content.models.manifest import Legibility
from toolkit.diagnostics import Diagnostic, Span
from toolkit.render.layout import (
    DEFAULT_BACK,
    DEFAULT_FRONT,
    layout_document,
    layout_file,
    load_layout,
)

FIELD = re.compile(r"\b(?:card|deck)\.[a-z_][a-z0-9_]*")


@dataclass(frozen=True)
class Meaning:
    """One colour that carries meaning: what it marks, where it is set, its colour."""

    name: str
    colour: str
    file: str
    span: Span
    line: int


def check(game: Game) -> Iterator[Diagnostic]:
    # the boards' share reads no deck nor question bank: kept whole while no other file
    # changes (toolkit.checks.framed)
    yield from framed("legibility-boards", _boards, game)
    settings = legibility(game)
    budget = Budget()
    for group in _layout_groups(game):
        yield from _collisions(group, settings, budget)


def _boards(game: Game) -> Iterator[Diagnostic]:
    settings = legibility(game)
    budget = Budget()
    for group in _board_groups(game):
        yield from _collisions(group, settings, budget)


MAX_PAIRS = 50_000
"""Pairs of distinct colours a check run compares (a board's share, then the layouts'):
about 12 µs each (three CIEDE2000 and a lightness), so at most about 0.6 s. A board's
kinds and regions are a few dozen colours (a legend of more runs off its poster, P016), a
few hundred pairs; past the budget the rest are not compared, in a fixed order."""


class Budget:
    """What is left of MAX_PAIRS (or of `pairs`) for one run of the check."""

    def __init__(self, pairs: int | None = None) -> None:
        self.pairs = MAX_PAIRS if pairs is None else pairs


@dataclass
class _Colour:
    """One distinct colour of a group (of one mark): the members that use it, in order."""

    rgb: RGB
    members: list[Meaning]


def _collisions(
    group: list[tuple[Meaning, Any]], settings: Legibility, budget: Budget | None = None
) -> Iterator[Diagnostic]:
    """Each distinct colour of a group that only its colour tells apart from an earlier one,
    and that colour fails: one A002 and one A003 at most per colour, at its first member,
    naming the first earlier colour it collides with. Members of one colour are one colour
    (the same colour twice is a choice, not a confusion), and the pairs of distinct colours
    compared are charged to `budget`."""
    budget = budget if budget is not None else Budget()
    by_mark: dict[Any, dict[RGB, _Colour]] = {}
    for meaning, mark in group:
        colour = rgb(meaning.colour)
        if colour is None:
            continue  # the schema's own finding says so
        colours = by_mark.setdefault(mark, {})  # an icon, a letter, a dash tells them apart
        colours.setdefault(colour, _Colour(colour, [])).members.append(meaning)
    found: list[tuple[Meaning, Diagnostic]] = []
    for colours in by_mark.values():
        if len(colours) < 2:
            continue
        found += _first_collisions(list(colours.values()), settings, budget)
    # in the group's order, as the pairs were told before
    order = {id(meaning): i for i, (meaning, _) in enumerate(group)}
    found.sort(key=lambda each: order[id(each[0])])
    for _, finding in found:
        yield finding


def _first_collisions(
    colours: list[_Colour], settings: Legibility, budget: Budget
) -> Iterator[tuple[Meaning, Diagnostic]]:
    """For each colour after the first, its first earlier colour that looks alike (A002) and
    its first that prints as the same grey (A003), while the budget lasts."""
    for at, later in enumerate(colours):
        if budget.pairs <= 0:
            return
        vision: tuple[_Colour, list[str]] | None = None
        grey: _Colour | None = None
        for earlier in itertools.islice(colours, at):
            if budget.pairs <= 0:
                break  # what this colour met so far is said; no later colour is compared
            budget.pairs -= 1
            if grey is None and grey_difference(earlier.rgb, later.rgb) < settings.grey_delta_l:
                grey = earlier
            if vision is None:
                lost = [
                    v
                    for v in VISIONS
                    if vision_difference(earlier.rgb, later.rgb, v) < settings.vision_delta_e
                ]
                if lost:
                    vision = earlier, lost
            if vision is not None and grey is not None:
                break
        b = later.members[0]
        if vision is not None:
            a, lost = vision[0].members[0], vision[1]
            yield (
                b,
                A_VISION.at(
                    b.file,
                    b.span,
                    f"{_both(a, later)} look alike with {', '.join(lost)} (CIEDE2000 under "
                    f"{settings.vision_delta_e:g}) and nothing else tells them apart",
                ),
            )
        if grey is not None:
            a = grey.members[0]
            yield (
                b,
                A_GREY.at(
                    b.file,
                    b.span,
                    f"{_both(a, later)} print as nearly the same grey (lightness differs by "
                    f"{grey_difference(grey.rgb, later.rgb):.1f}, under "
                    f"{settings.grey_delta_l:g}) and nothing else tells them apart",
                ),
            )


def _both(a: Meaning, later: _Colour) -> str:
    """The two that collide: the earlier where it is set, the later (where the finding is)
    and how many more share its colour."""
    b, more = later.members[0], len(later.members) - 1
    also = f", and {more} more in this colour" if more else ""
    return f"{a.name} ({a.colour}, {a.file}:{a.line}) and {b.name} ({b.colour}{also})"


def _board_groups(game: Game) -> Iterator[list[tuple[Meaning, Any]]]:
    """Space kinds, link kinds and regions of each board, with what else marks each."""
    if game.manifest is None or not game.boards:
        return
    # a game without boards does not pay for importing the board renderer (~20 ms: its
    # module and its style models' schemas)
    from toolkit.render.boards import board_look

    lang = game.manifest.languages[0]
    for loaded in game.boards:
        board, doc = loaded.model, loaded.doc
        if board is None or doc is None:
            continue
        look = board_look(game, board, lang)
        initials = _initials(game, board, look)

        spaces: list[tuple[Meaning, Any]] = []
        for kind in look.kinds:
            space = look.space(kind)
            span = _at(doc, ("style", "spaces", kind, "colour"), ("style", "spaces", kind))
            size = round(math.log(space.radius_mm, 1.25))  # a quarter larger tells apart
            mark: Any = (space.icon or ("letter", initials.get(kind)), size)
            spaces.append(
                (Meaning(f"space kind {kind!r}", space.colour, loaded.rel, span, span.line), mark)
            )
        yield spaces
        links: list[tuple[Meaning, Any]] = []
        for kind in _link_kinds(board):
            line = look.line(kind)
            if line.colour is None:
                continue
            span = _at(doc, ("style", "links", kind, "colour"), ("style", "links", kind))
            mark = (
                tuple(line.dash or ()),
                round(line.width or 0, 1),
                line.inner_colour,
                line.marker,
                line.shape,
            )
            links.append(
                (Meaning(f"link kind {kind!r}", line.colour, loaded.rel, span, span.line), mark)
            )
        yield links
        regions = getattr(board, "regions", None) or []
        yield [
            (
                Meaning(
                    f"region {r.id!r}",
                    r.colour,
                    loaded.rel,
                    _at(doc, ("regions", i, "colour"), ("regions", i)),
                    _at(doc, ("regions", i, "colour"), ("regions", i)).line,
                ),
                None,
            )
            for i, r in enumerate(regions)
            if getattr(r, "colour", None)
        ]


def _at(doc: Any, path: tuple[str | int, ...], fallback: tuple[str | int, ...]) -> Span:
    """Where a colour is set, else where what it colours is declared."""
    return doc.span(path) if path in doc.spans else doc.span(fallback)


def _initials(game: Game, board: Any, look: Any) -> dict[str, tuple[str, ...]]:
    """The letter each space kind without an icon shows, in every language."""
    from toolkit.render.boards import board_look

    assert game.manifest is not None
    looks = [look, *(board_look(game, board, lang) for lang in game.manifest.languages[1:])]
    return {kind: tuple(each.space(kind).initial for each in looks) for kind in look.kinds}


def _link_kinds(board: Any) -> list[str]:
    kinds = [getattr(link, "kind", "link") for link in getattr(board, "links", None) or []]
    kinds += [route.kind for route in getattr(board, "routes", None) or []]
    return list(dict.fromkeys(kinds))


def _layout_groups(game: Game) -> Iterator[list[tuple[Meaning, Any]]]:
    """Each layout's alternatives: elements of one kind and box, each shown when a field
    has its value, in colours of their own."""
    names: dict[str, None] = {}
    for deck in game.valid(game.decks):
        names.setdefault(deck.layout or DEFAULT_FRONT)
        names.setdefault(deck.back or DEFAULT_BACK)
    for name in names:
        if assets.find(assets.LAYOUTS, name, game.root) is None:
            continue
        layout = load_layout(name, game.root)[0]
        doc, _ = layout_document(name, game.root)
        if layout is None or doc is None:
            continue
        file = layout_file(name, game.root)
        groups: dict[tuple[Any, ...], list[tuple[int, Any, str]]] = {}
        for i, element in enumerate(layout.elements):
            if not element.when:
                continue
            for field in ("fill", "colour"):
                value = getattr(element, field, None)
                if isinstance(value, str):
                    box = tuple(element.box.model_dump().values())
                    groups.setdefault((type(element).__name__, box, field), []).append(
                        (i, element, value)
                    )
        for (_kind, _box, field), members in groups.items():
            if len(members) < 2:
                continue
            fields = set().union(*(FIELD.findall(e.when) for _, e, _ in members))
            if _labelled(layout, fields, {id(e) for _, e, _ in members}):
                continue
            yield [
                (
                    Meaning(
                        f"element {i} (when {e.when})",
                        value,
                        file,
                        doc.span(("elements", i, field)),
                        doc.span(("elements", i, field)).line,
                    ),
                    None,
                )
                for i, e, value in members
            ]


def _labelled(layout: Any, fields: set[str], members: set[int]) -> bool:
    """Some other element prints (or picks an icon by) one of the fields the alternatives
    are chosen by: a player reads the difference, not only sees it."""
    for element in layout.elements:
        if id(element) in members:
            continue
        for name in type(element).templates:
            source = getattr(element, name, None) or ""
            if any(f in source for f in fields):
                return True
    return False
