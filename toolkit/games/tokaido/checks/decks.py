"""The decks (spec §7, §8): hot springs, encounters, souvenirs, meals, achievements and
travellers (V6–V11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.tokaido.checks.base import Path_, _sections, _Where, check
from toolkit.games.tokaido.checks.published import PUBLISHED
from toolkit.games.tokaido.constants import ABILITY_KINDS, ENCOUNTER_KINDS

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


@check(G_HOT)
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


@check(G_ENCOUNTERS)
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


@check(G_SOUVENIRS)
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


@check(G_MEALS)
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


@check(G_ACHIEVEMENTS)
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


@check(G_TRAVELLERS)
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
