"""The road (spec §2): inns, stop kinds, double spaces, views and panorama sections (V1–V5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.tokaido.checks.base import _sections, _Where, check
from toolkit.games.tokaido.checks.published import PUBLISHED
from toolkit.games.tokaido.constants import STOP_KINDS

G_INNS = rule(
    "G401", "road-inns", "The road has 55 stops with inns exactly at 0, 14, 27, 41 and 54 (V1)."
)

G_KINDS = rule(
    "G402",
    "road-kinds",
    "50 ordinary stops in the published counts; legs of 13, 12, 13, 12 stops; every leg holds "
    "every ordinary kind (V2).",
)

G_DOUBLES = rule(
    "G403",
    "road-doubles",
    "24 double stops, 6 per leg, never an inn; the road equals the published sequence (V3).",
)

G_VIEWS = rule(
    "G404",
    "panorama-spaces",
    "Every panorama type has at least as many road spaces as sections, and every road kind "
    "has a rule (V4).",
)

G_PANORAMAS = rule(
    "G405",
    "panorama-cards",
    "Panorama sections run 1..n with no gap, score their number, and have a copy per "
    "traveller (V5).",
)


def _legs(stops: list[Any]) -> list[list[int]]:
    """Indexes of the ordinary stops between consecutive inns."""
    legs: list[list[int]] = []
    current: list[int] | None = None
    for i, stop in enumerate(stops):
        if stop.kind == "inn":
            if current is not None:
                legs.append(current)
            current = []
        elif current is not None:
            current.append(i)
    return legs


@check(G_INNS)
def check_inns(game: Game) -> Iterator[Diagnostic]:
    """V1: 55 stops, first and last inns, inns exactly at the published places."""
    where = _Where(game)
    if where.road is None:
        yield where.at(G_INNS, where.manifest, ("files", "boards"), "no board of kind 'road'")
        return
    stops = where.road.model.stops
    road = PUBLISHED["road"]
    if len(stops) != len(road):
        yield where.at(
            G_INNS, where.road, ("stops",), f"{len(stops)} stops; the road has {len(road)}", True
        )
    for end in (0, len(stops) - 1):
        if stops[end].kind != "inn":
            yield where.at(
                G_INNS,
                where.road,
                ("stops", end, "kind"),
                f"stop {end} is a {stops[end].kind}; the road starts and ends at an inn",
            )
    inns = {i for i, (kind, _) in enumerate(road) if kind == "inn"}
    for i, stop in enumerate(stops):
        if 0 < i < len(stops) - 1 and (stop.kind == "inn") != (i in inns):
            want = "an inn" if i in inns else "no inn"
            yield where.at(
                G_INNS, where.road, ("stops", i, "kind"), f"stop {i} is a {stop.kind}; {want} here"
            )


@check(G_KINDS)
def check_kinds(game: Game) -> Iterator[Diagnostic]:
    """V2: ordinary stop counts per kind, leg lengths, every kind in every leg."""
    where = _Where(game)
    if where.road is None:
        return
    stops = where.road.model.stops
    road = PUBLISHED["road"]
    want = Counter(kind for kind, _ in road if kind != "inn")
    have = Counter(s.kind for s in stops if s.kind != "inn")
    for kind in sorted(set(want) | set(have)):
        if want[kind] != have[kind]:
            yield where.at(
                G_KINDS,
                where.road,
                ("stops",),
                f"{have[kind]} {kind} stops; the road has {want[kind]}",
                key=True,
            )
    want_legs = [len(leg) for leg in _legs([_Stop(k) for k, _ in road])]
    for n, leg in enumerate(_legs(stops)):
        if not leg:
            continue
        if n < len(want_legs) and len(leg) != want_legs[n]:
            yield where.at(
                G_KINDS,
                where.road,
                ("stops", leg[0]),
                f"leg {n + 1} has {len(leg)} stops; the road's leg {n + 1} has {want_legs[n]}",
            )
        missing = sorted(set(want) - {stops[i].kind for i in leg})
        if missing:
            yield where.at(
                G_KINDS,
                where.road,
                ("stops", leg[0]),
                f"leg {n + 1} has no {', '.join(missing)} stop",
            )


class _Stop:
    def __init__(self, kind: str) -> None:
        self.kind = kind


@check(G_DOUBLES)
def check_doubles(game: Game) -> Iterator[Diagnostic]:
    """V3: double stops (6 per leg, never an inn) and the exact published sequence; the board's
    double_from_players agrees with rules.double_spaces_from."""
    where = _Where(game)
    if where.road is None:
        return
    board = where.road.model
    stops = board.stops
    for i, stop in enumerate(stops):
        if stop.kind == "inn" and stop.double:
            yield where.at(
                G_DOUBLES, where.road, ("stops", i, "double"), f"stop {i} is an inn and double"
            )
    for n, leg in enumerate(_legs(stops)):
        doubles = sum(1 for i in leg if stops[i].double)
        if doubles != 6 and leg:
            yield where.at(
                G_DOUBLES,
                where.road,
                ("stops", leg[0]),
                f"leg {n + 1} has {doubles} double stops; every leg has 6",
            )
    for i, (stop, (kind, double)) in enumerate(zip(stops, PUBLISHED["road"], strict=False)):
        if stop.kind != kind:
            yield where.at(
                G_DOUBLES,
                where.road,
                ("stops", i, "kind"),
                f"stop {i} is a {stop.kind}; the published road has a {kind} here",
            )
            break
        if stop.double != double:
            field = ("stops", i, "double") if stop.double else ("stops", i, "kind")
            yield where.at(
                G_DOUBLES,
                where.road,
                field,
                f"stop {i} ({kind}) is {'double' if stop.double else 'single'}; "
                f"on the published road it is {'double' if double else 'single'}",
            )
            break
    rules = where.rules
    if board.double_from_players is not None and board.double_from_players != (
        rules.double_spaces_from
    ):
        yield where.at(
            G_DOUBLES,
            where.road,
            ("double_from_players",),
            f"second slots open at {board.double_from_players} players here but at "
            f"{rules.double_spaces_from} in rules.double_spaces_from",
        )


@check(G_VIEWS)
def check_views(game: Game) -> Iterator[Diagnostic]:
    """V4: panorama spaces per type >= sections; every road kind is a stop kind the engine
    plays or a panorama type with cards."""
    where = _Where(game)
    if where.road is None:
        return
    sections = _sections(game)
    stops = where.road.model.stops
    known = set(STOP_KINDS) - {"panorama"} | set(sections)
    for i, stop in enumerate(stops):
        if stop.kind not in known:
            yield where.at(
                G_VIEWS,
                where.road,
                ("stops", i, "kind"),
                f"stop kind {stop.kind!r} has no rule (known: {', '.join(sorted(known))})",
            )
    for view, n in sorted(sections.items()):
        spaces = sum(1 for s in stops if s.kind == view)
        if spaces < n:
            yield where.at(
                G_VIEWS,
                where.road,
                ("stops",),
                f"{spaces} {view} spaces for a {n}-section panorama",
                key=True,
            )


@check(G_PANORAMAS)
def check_panoramas(game: Game) -> Iterator[Diagnostic]:
    """V5: sections 1..n per type, no gap or duplicate, points = section, copies >= players."""
    where = _Where(game)
    deck = where.deck("panoramas")
    if deck is None:
        yield where.at(G_PANORAMAS, where.manifest, ("files", "decks"), "no panoramas deck")
        return
    cards = deck.model.cards
    most = where.manifest.model.players.max
    seen: dict[str, set[int]] = {}
    for i, card in enumerate(cards):
        got = seen.setdefault(card.panorama, set())
        if card.section in got:
            yield where.at(
                G_PANORAMAS,
                deck,
                ("cards", i, "section"),
                f"{card.panorama} section {card.section} appears twice",
            )
        got.add(card.section)
        if card.points != card.section:
            yield where.at(
                G_PANORAMAS,
                deck,
                ("cards", i, "points"),
                f"section {card.section} scores {card.points}; a section scores its number",
            )
        if card.copies < most:
            yield where.at(
                G_PANORAMAS,
                deck,
                ("cards", i, "copies"),
                f"{card.copies} copies of {card.panorama} {card.section} for up to {most} "
                "travellers; the supply would run out",
            )
    for view, got in sorted(seen.items()):
        gap = [k for k in range(1, max(got) + 1) if k not in got]
        if gap:
            yield where.at(
                G_PANORAMAS,
                deck,
                ("cards",),
                f"{view} has no section {', '.join(map(str, gap))}",
                key=True,
            )
        want = PUBLISHED["panorama_sections"].get(view)
        if want is not None and max(got) != want:
            yield where.at(
                G_PANORAMAS,
                deck,
                ("cards",),
                f"{view} has {max(got)} sections; the published panorama has {want}",
                key=True,
            )
