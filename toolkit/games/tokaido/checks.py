"""G checks of Tokaido content: the validator checklist of spec §14 (V1-V15), each reported
at the YAML node to fix. They run after the schema checks passed, on valid models.

The published game's facts the checklist names (the road of spec §2, card counts, starting
coins, rules constants) are written once below as `PUBLISHED`: the checks compare the content
with them, so an edit that drifts from the box is caught where it was made. A designer who
changes the game on purpose ignores the rule in the manifest (`ignore: [G403]`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from toolkit.content.checked import CheckedGame
from toolkit.content.game import Game, ValidFile
from toolkit.content.plugin import guarded_check
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.games.tokaido.constants import ABILITY_KINDS, ENCOUNTER_KINDS, STOP_KINDS
from toolkit.games.tokaido.models import TokaidoRules
from toolkit.render import assets

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
G_HOT = rule(
    "G406", "hot-spring-cards", "12 hot spring cards: six worth 2 points and six worth 3 (V6)."
)
G_ENCOUNTERS = rule(
    "G407",
    "encounter-cards",
    "14 encounters: Shokunin 2, Annaibito 6 (paddy 1, mountain 2, sea 3), Samurai 2, Kuge 2, "
    "Miko 2 (V7).",
)
G_SOUVENIRS = rule(
    "G408",
    "souvenir-cards",
    "24 souvenirs with unique names, 4 families of 6 at the published prices; set points "
    "1, 3, 5, 7 (V8).",
)
G_MEALS = rule(
    "G409",
    "meal-cards",
    "25 meals of 14 unique dishes: price 1 three copies, 2 two, 3 one; 6 points each (V9).",
)
G_ACHIEVEMENTS = rule(
    "G410",
    "achievement-cards",
    "7 achievements of 3 points: one per panorama type, and Gourmet, Collector, Bather and "
    "Chatterbox at the end (V10).",
)
G_TRAVELLERS = rule(
    "G411",
    "traveller-tiles",
    "10 unique travellers with the published starting coins (sum 55) and abilities the engine "
    "knows (V11).",
)
G_CONSTANTS = rule(
    "G412",
    "rules-constants",
    "Farm, temple, encounter and meal-draw numbers equal the published rules (V12).",
)
G_PLAYERS = rule(
    "G413",
    "player-counts",
    "2-5 players; 2 players add the neutral traveller; enough tiles to deal; second slots from "
    "4 players, as on the board (V13).",
)
G_NAMES = rule(
    "G414",
    "romanized-names",
    "Every name and text in every language; Japanese names stay the same romanized word in all "
    "of them (V14).",
)
G_BACKS = rule(
    "G415",
    "deck-backs",
    "Every deck has a back, and a back shared by several decks tells each of them apart (V15).",
    Severity.WARNING,
)

# --- the published game (spec §2, §7, §8, §9) ------------------------------------------------

_LETTERS = {
    "V": "village",
    "F": "farm",
    "T": "temple",
    "H": "hot_spring",
    "E": "encounter",
    "P": "paddy",
    "M": "mountain",
    "S": "sea",
}
_LEGS = (
    "V* T  E  P  H* M* F* V  T* E  S* M  H",
    "S  T  F* P* M* E* T  H* M  S* V  F",
    "P  V  E* F  M* H  S* P  T* F* E  S  V*",
    "H  T* E  V* S  F* H* E  M  P* S* V",
)


def _published_road() -> tuple[tuple[str, bool], ...]:
    road: list[tuple[str, bool]] = [("inn", False)]
    for leg in _LEGS:
        road.extend((_LETTERS[code[0]], code.endswith("*")) for code in leg.split())
        road.append(("inn", False))
    return tuple(road)


PUBLISHED: dict[str, Any] = {
    "road": _published_road(),
    "panorama_sections": {"paddy": 3, "mountain": 4, "sea": 5},
    "hot_springs": {2: 6, 3: 6},
    "encounters": {
        "souvenir_free": 2,
        "panorama_section": 6,
        "gain_points": 2,
        "gain_coins": 2,
        "temple_coin": 2,
    },
    "annaibito": {"paddy": 1, "mountain": 2, "sea": 3},
    "souvenir_prices": {
        "small_object": [1] * 6,
        "clothing": [2] * 6,
        "art": [2, 2, 2, 3, 3, 3],
        "food_drink": [1, 1, 1, 2, 2, 2],
    },
    "set_points": [1, 3, 5, 7],
    "meal_copies": {1: 3, 2: 2, 3: 1},
    "meal_cards": 25,
    "meal_dishes": 14,
    "meal_points": 6,
    "achievement_points": 3,
    "end_measures": ("meal_prices", "souvenirs", "hot_springs", "encounters"),
    "traveller_coins": {
        "chuubei": 4,
        "hiroshige": 3,
        "hirotada": 8,
        "kinko": 7,
        "mitsukuni": 6,
        "sasayakko": 5,
        "satsuki": 2,
        "umegae": 5,
        "yoshiyasu": 9,
        "zen-emon": 6,
    },
    "rules": {
        "farm_coins": 3,
        "temple_min": 1,
        "temple_max": 3,
        "temple_points_per_coin": 1,
        "temple_bonus": [10, 7, 4, 2],
        "village_reveal": 3,
        "meal_draw_extra": 1,
    },
    "effects": {"gain_points": {"amount": 3}, "gain_coins": {"amount": 3}},
    "miko": {"coins": 1, "points": 1},
    "players": (2, 5),
    "neutral_players": [2],
    "doubles_from": 4,
}

Path_ = tuple[str | int, ...]
ROMANIZED = re.compile(r"^[A-Z][a-z]+(?:[- ][A-Za-z][a-z]+)*$")


class _Where(CheckedGame[TokaidoRules]):
    """The game's files by role, and diagnostics at paths inside them."""

    def __init__(self, game: Game) -> None:
        from toolkit.content.models.board import RoadBoard  # board models load on first use

        super().__init__(game, TokaidoRules)
        # deck models are built per plugin at run time (GamePlugin.deck_models): no static type
        self.decks: dict[str, ValidFile[Any]] = {
            getattr(f.model, "kind", ""): ValidFile(f.rel, f.doc, f.model)
            for f in game.decks
            if f.model is not None
        }
        roads = (ValidFile.of(f, RoadBoard) for f in game.boards)
        self.road = next((r for r in roads if r is not None), None)

    def deck(self, kind: str) -> ValidFile[Any] | None:
        return self.decks.get(kind)


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


def _sections(game: Game) -> dict[str, int]:
    deck = _Where(game).deck("panoramas")
    if deck is None:
        return {}
    found: dict[str, int] = {}
    for card in deck.model.cards:
        found[card.panorama] = max(found.get(card.panorama, 0), card.section)
    return found


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


def check_hot(game: Game) -> Iterator[Diagnostic]:
    """V6: 12 hot springs, values only 2 and 3, six of each."""
    where = _Where(game)
    deck = where.deck("hot_springs")
    if deck is None:
        return
    want = PUBLISHED["hot_springs"]
    have: Counter[int] = Counter()
    for i, card in enumerate(deck.model.cards):
        if card.points not in want:
            yield where.at(
                G_HOT,
                deck,
                ("cards", i, "points"),
                f"a hot spring worth {card.points}; they are worth "
                + " or ".join(map(str, sorted(want))),
            )
        have[card.points] += card.copies
    for value, n in sorted(want.items()):
        if have[value] != n:
            rows = [i for i, c in enumerate(deck.model.cards) if c.points == value]
            path: Path_ = ("cards", rows[0], "copies") if rows else ("cards",)
            yield where.at(
                G_HOT,
                deck,
                path,
                f"{have[value]} hot springs worth {value}; the deck has {n}",
                key=not rows,
            )


def check_encounters(game: Game) -> Iterator[Diagnostic]:
    """V7: encounter counts per effect and the Annaibito split by panorama type."""
    where = _Where(game)
    deck = where.deck("encounters")
    if deck is None:
        return
    cards = deck.model.cards
    have: Counter[str] = Counter()
    guides: Counter[str] = Counter()
    first: dict[str, int] = {}
    for i, card in enumerate(cards):
        kind = card.effect.kind
        have[kind] += card.copies
        first.setdefault(kind, i)
        if kind == "panorama_section":
            guides[card.effect.panorama] += card.copies
            first.setdefault("guide-" + card.effect.panorama, i)
    for i, card in enumerate(cards):
        if card.effect.kind not in ENCOUNTER_KINDS:
            yield where.at(
                G_ENCOUNTERS,
                deck,
                ("cards", i, "effect", "kind"),
                f"the engine has no encounter effect {card.effect.kind!r}",
            )
    for kind, n in PUBLISHED["encounters"].items():
        if have[kind] != n:
            at = first.get(kind)
            path: Path_ = ("cards", at, "copies") if at is not None else ("cards",)
            yield where.at(
                G_ENCOUNTERS,
                deck,
                path,
                f"{have[kind]} {kind} encounters; the deck has {n}",
                key=at is None,
            )
    for view, n in PUBLISHED["annaibito"].items():
        if have["panorama_section"] == PUBLISHED["encounters"]["panorama_section"] and (
            guides[view] != n
        ):
            at = first.get("guide-" + view)
            path = ("cards", at, "copies") if at is not None else ("cards",)
            yield where.at(
                G_ENCOUNTERS,
                deck,
                path,
                f"{guides[view]} Annaibito for the {view}; the deck has {n}",
                key=at is None,
            )
    sections = _sections(game)
    for i, card in enumerate(cards):
        if card.effect.kind == "panorama_section" and card.effect.panorama not in sections:
            yield where.at(
                G_ENCOUNTERS,
                deck,
                ("cards", i, "effect", "panorama"),
                f"no panorama cards of type {card.effect.panorama!r}",
            )


def check_souvenirs(game: Game) -> Iterator[Diagnostic]:
    """V8: unique names, families of six at the published prices, the set score table."""
    where = _Where(game)
    deck = where.deck("souvenirs")
    if deck is None:
        return
    cards = deck.model.cards
    names: dict[str, int] = {}
    prices: dict[str, list[int]] = {}
    first: dict[str, int] = {}
    for i, card in enumerate(cards):
        for lang, name in card.name.items():
            key = f"{lang}:{name}"
            if key in names:
                yield where.at(
                    G_SOUVENIRS,
                    deck,
                    ("cards", i, "name", lang),
                    f"souvenir name {name!r} is also card {names[key] + 1}'s",
                )
            names.setdefault(key, i)
        if card.copies != 1:
            yield where.at(
                G_SOUVENIRS, deck, ("cards", i, "copies"), "every souvenir is a single card"
            )
        prices.setdefault(card.family, []).extend([card.price] * card.copies)
        first.setdefault(card.family, i)
    for family, want in PUBLISHED["souvenir_prices"].items():
        got = sorted(prices.get(family, []))
        if got != want:
            at = first.get(family)
            path: Path_ = ("cards", at, "family") if at is not None else ("cards",)
            yield where.at(
                G_SOUVENIRS,
                deck,
                path,
                f"{family} prices {got}; the published family has {want}",
                key=at is None,
            )
    points = where.rules.souvenir_set_points
    if points != PUBLISHED["set_points"] or len(points) != len(prices):
        yield where.at(
            G_SOUVENIRS,
            where.manifest,
            ("rules", "souvenir_set_points"),
            f"set points {points} for {len(prices)} families; the game scores "
            f"{PUBLISHED['set_points']} (one entry per family)",
        )


def check_meals(game: Game) -> Iterator[Diagnostic]:
    """V9: 25 meal cards, 14 unique dishes, copies by price, 6 points each."""
    where = _Where(game)
    deck = where.deck("meals")
    if deck is None:
        return
    cards = deck.model.cards
    want = PUBLISHED["meal_copies"]
    for i, card in enumerate(cards):
        if want.get(card.price) != card.copies:
            yield where.at(
                G_MEALS,
                deck,
                ("cards", i, "copies"),
                f"{card.copies} copies of a {card.price}-coin dish; such dishes have "
                f"{want.get(card.price, 0)}",
            )
    names = Counter(card.name.get("en", card.id) for card in cards)
    for i, card in enumerate(cards):
        if names[card.name.get("en", card.id)] > 1:
            yield where.at(
                G_MEALS,
                deck,
                ("cards", i, "name"),
                "two meal cards share this dish name; one id per dish (no-repeat rule)",
            )
            break
    total = sum(c.copies for c in cards)
    if total != PUBLISHED["meal_cards"] or len(cards) != PUBLISHED["meal_dishes"]:
        yield where.at(
            G_MEALS,
            deck,
            ("cards",),
            f"{total} meal cards of {len(cards)} dishes; the deck has "
            f"{PUBLISHED['meal_cards']} of {PUBLISHED['meal_dishes']}",
            key=True,
        )
    if where.rules.meal_points != PUBLISHED["meal_points"]:
        yield where.at(
            G_MEALS,
            where.manifest,
            ("rules", "meal_points"),
            f"a meal scores {PUBLISHED['meal_points']} points",
        )


def check_achievements(game: Game) -> Iterator[Diagnostic]:
    """V10: 7 achievements of 3 points; panorama ones one-to-one with the types; the four
    end measures once each."""
    where = _Where(game)
    deck = where.deck("achievements")
    if deck is None:
        return
    cards = deck.model.cards
    rules = where.rules
    points = PUBLISHED["achievement_points"]
    if rules.achievement_points != points:
        yield where.at(
            G_ACHIEVEMENTS,
            where.manifest,
            ("rules", "achievement_points"),
            f"achievements score {points}",
        )
    views: Counter[str] = Counter()
    measures: Counter[str] = Counter()
    for i, card in enumerate(cards):
        if card.points != rules.achievement_points:
            yield where.at(
                G_ACHIEVEMENTS,
                deck,
                ("cards", i, "points"),
                f"{card.points} points; rules.achievement_points is {rules.achievement_points}",
            )
        if card.trigger == "panorama":
            if card.panorama is None or card.measure is not None:
                yield where.at(
                    G_ACHIEVEMENTS,
                    deck,
                    ("cards", i, "trigger"),
                    "a panorama achievement names a panorama and no measure",
                )
            else:
                views[card.panorama] += card.copies
        else:
            if card.measure is None or card.panorama is not None:
                yield where.at(
                    G_ACHIEVEMENTS,
                    deck,
                    ("cards", i, "trigger"),
                    "an end achievement names a measure and no panorama",
                )
            else:
                measures[card.measure] += card.copies
    sections = _sections(game)
    for view in sorted(set(sections) | set(views)):
        if views[view] != 1:
            yield where.at(
                G_ACHIEVEMENTS,
                deck,
                ("cards",),
                f"{views[view]} achievements for the {view} panorama; one per type",
                key=True,
            )
    for measure in PUBLISHED["end_measures"]:
        if measures[measure] != 1:
            yield where.at(
                G_ACHIEVEMENTS,
                deck,
                ("cards",),
                f"{measures[measure]} end achievements measure {measure}; one is needed",
                key=True,
            )


def check_travellers(game: Game) -> Iterator[Diagnostic]:
    """V11: 10 unique travellers, published starting coins, known abilities."""
    where = _Where(game)
    deck = where.deck("travellers")
    if deck is None:
        return
    cards = deck.model.cards
    want = PUBLISHED["traveller_coins"]
    for i, card in enumerate(cards):
        if card.id in want and card.coins != want[card.id]:
            yield where.at(
                G_TRAVELLERS,
                deck,
                ("cards", i, "coins"),
                f"{card.id} starts with {want[card.id]} coins",
            )
        if card.id not in want:
            yield where.at(
                G_TRAVELLERS, deck, ("cards", i, "id"), f"{card.id} is not a published traveller"
            )
        if card.copies != 1:
            yield where.at(
                G_TRAVELLERS, deck, ("cards", i, "copies"), "every traveller tile is unique"
            )
        if card.ability.kind not in ABILITY_KINDS:
            yield where.at(
                G_TRAVELLERS,
                deck,
                ("cards", i, "ability", "kind"),
                f"the engine has no ability {card.ability.kind!r}",
            )
    missing = sorted(set(want) - {c.id for c in cards})
    if missing:
        yield where.at(
            G_TRAVELLERS, deck, ("cards",), f"no tile for {', '.join(missing)}", key=True
        )


def check_constants(game: Game) -> Iterator[Diagnostic]:
    """V12: farm, temple, village, meal draw and encounter numbers."""
    where = _Where(game)
    rules = where.rules
    for name, want in PUBLISHED["rules"].items():
        value = getattr(rules, name)
        if value != want:
            yield where.at(
                G_CONSTANTS, where.manifest, ("rules", name), f"{name} is {want} in the rules"
            )
    if rules.temple_min > rules.temple_max:
        yield where.at(
            G_CONSTANTS,
            where.manifest,
            ("rules", "temple_min"),
            f"temple_min {rules.temple_min} is above temple_max {rules.temple_max}",
        )
    deck = where.deck("encounters")
    if deck is None:
        return
    for i, card in enumerate(deck.model.cards):
        eff = card.effect
        want = PUBLISHED["effects"].get(eff.kind, {})
        if eff.kind == "temple_coin":
            want = PUBLISHED["miko"]
        for field, value in want.items():
            if getattr(eff, field) != value:
                yield where.at(
                    G_CONSTANTS,
                    deck,
                    ("cards", i, "effect", field),
                    f"{card.id}'s {field} is {value} in the rules",
                )


def check_players(game: Game) -> Iterator[Diagnostic]:
    """V13: player counts, the neutral traveller, tiles to deal, second slots."""
    where = _Where(game)
    manifest = where.manifest.model
    rules = where.rules
    low, high = PUBLISHED["players"]
    if (manifest.players.min, manifest.players.max) != (low, high):
        yield where.at(
            G_PLAYERS, where.manifest, ("players",), f"Tokaido plays with {low}-{high}", key=True
        )
    if sorted(rules.neutral_traveller_players) != PUBLISHED["neutral_players"]:
        yield where.at(
            G_PLAYERS,
            where.manifest,
            ("rules", "neutral_traveller_players"),
            "the neutral traveller joins 2-player games, and only those",
        )
    if rules.double_spaces_from != PUBLISHED["doubles_from"]:
        yield where.at(
            G_PLAYERS,
            where.manifest,
            ("rules", "double_spaces_from"),
            f"second slots open at {PUBLISHED['doubles_from']} players",
        )
    deck = where.deck("travellers")
    if deck is not None:
        tiles = sum(c.copies for c in deck.model.cards)
        if rules.travellers_dealt * manifest.players.max > tiles:
            yield where.at(
                G_PLAYERS,
                where.manifest,
                ("rules", "travellers_dealt"),
                f"{rules.travellers_dealt} tiles each for {manifest.players.max} players, "
                f"but there are {tiles}",
            )


_NAMED = ("travellers", "souvenirs", "meals", "encounters")


def check_names(game: Game) -> Iterator[Diagnostic]:
    """V14: every name and text in every language; Japanese names (travellers, souvenirs,
    meals, encounters) are one romanized word the same in all languages."""
    where = _Where(game)
    langs = list(where.manifest.model.languages)
    for kind, deck in sorted(where.decks.items()):
        for i, card in enumerate(deck.model.cards):
            for field in ("name", "text", "title"):
                text = getattr(card, field, None)
                if text is None:
                    continue
                values = text
                for lang in langs:
                    if not values.get(lang):
                        yield where.at(
                            G_NAMES,
                            deck,
                            ("cards", i, field),
                            f"{card.id}'s {field} has no {lang} text",
                        )
            if kind in _NAMED:
                names = card.name
                source = names.get(where.manifest.model.source_language) or ""
                for lang in langs:
                    name = names.get(lang) or ""
                    if name != source or not ROMANIZED.match(name):
                        yield where.at(
                            G_NAMES,
                            deck,
                            ("cards", i, "name", lang),
                            f"{card.id}: {name!r}; a Japanese name stays the romanized "
                            f"{source!r} in every language",
                        )
                        break


def _layout_text(game: Game, name: str) -> str | None:
    found = assets.find(assets.LAYOUTS, name, Path(game.root))
    return found.path.read_text(encoding="utf-8") if found and not found.outside else None


def check_backs(game: Game) -> Iterator[Diagnostic]:
    """V15: each deck has its own back: a back layout shared by several decks must draw a
    different face per deck kind (a `deck.kind == '<kind>'` condition for each)."""
    where = _Where(game)
    by_back: dict[str, list[str]] = {}
    for kind, deck in where.decks.items():
        back = getattr(deck.model, "back", None)
        if back:
            by_back.setdefault(back, []).append(kind)
        else:
            yield where.at(G_BACKS, deck, ("kind",), f"the {kind} deck has no back layout")
    for back, kinds in sorted(by_back.items()):
        if len(kinds) < 2:
            continue
        text = _layout_text(game, back) or ""
        for kind in sorted(kinds):
            if f"deck.kind == '{kind}'" not in text:
                deck = where.decks[kind]
                yield where.at(
                    G_BACKS,
                    deck,
                    ("back",),
                    f"back {back!r} is shared by {len(kinds)} decks but draws nothing of its "
                    f"own for {kind}: the piles look alike face down",
                )


_guarded = guarded_check  # valid content only; no manifest, no findings


CHECKS = tuple(
    _guarded(c)
    for c in (
        check_inns,
        check_kinds,
        check_doubles,
        check_views,
        check_panoramas,
        check_hot,
        check_encounters,
        check_souvenirs,
        check_meals,
        check_achievements,
        check_travellers,
        check_constants,
        check_players,
        check_names,
        check_backs,
    )
)
