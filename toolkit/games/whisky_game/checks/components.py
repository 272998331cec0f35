"""G checks that the printed bottles, lost bottles and tokens are the pieces the rules count.

The engine reads `bottles_per_distillery`, `bottle_values`, `lost_values` and `bag` from the
manifest; the box holds what the decks print. These rules make the two agree, each finding
at the node to fix, and one finding per cause (a changed card is one finding, not a surplus
and a shortage). A game without one of these decks is not checked for it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.content.game import Game, LoadedFile, ValidFile
from toolkit.content.models.manifest import ManifestBase
from toolkit.content.plugin import rules_of
from toolkit.diagnostics import Diagnostic, Rule, Span, rule
from toolkit.games.whisky_game.checks.base import check
from toolkit.games.whisky_game.models import WhiskyRules

if TYPE_CHECKING:
    from toolkit.content.models.board import GraphBoard

G_BOTTLES = rule(
    "G131",
    "bottles-per-distillery",
    "Each distillery on the map needs bottles_per_distillery bottle cards, evenly over the "
    "difficulties of bottle_values.",
)
G_BOTTLE_MAP = rule(
    "G132",
    "bottle-matches-map",
    "A bottle card prints its distillery's name and region as the map has them.",
)
G_LOST = rule(
    "G133",
    "lost-pile",
    "The lost bottles' values are rules.lost_values, dealt evenly to the map's lost distilleries.",
)
G_TOKENS = rule(
    "G134", "token-copies", "Resource tokens of each kind: as many copies as rules.bag holds."
)

Path = tuple[str | int, ...]


def _deck(game: Game, kind: str) -> LoadedFile | None:
    return next((f for f in game.decks if getattr(f.model, "kind", "") == kind), None)


def _manifest(game: Game) -> tuple[ValidFile[ManifestBase], WhiskyRules]:
    """The valid manifest and its typed rules (the checks run on a valid one only)."""
    manifest = ValidFile.of(game.manifest_file, ManifestBase)
    if manifest is None:
        raise ValueError(f"{game.id}: no valid manifest")
    return manifest, rules_of(manifest.model, WhiskyRules)


def _board(game: Game) -> GraphBoard | None:
    return next((b for b in game.valid(game.boards) if getattr(b, "kind", "") == "graph"), None)


def _at(code: Rule, file: LoadedFile, path: Path, message: str, key: bool = False) -> Diagnostic:
    doc = file.doc
    span = Span() if doc is None else doc.key_span(path) if key else doc.span(path)
    return code.at(file.rel, span, message)


@check(G_BOTTLES)
def check_bottles(game: Game) -> Iterator[Diagnostic]:
    """Bottles per distillery and per difficulty (spec §A11, invariant E1)."""
    deck, board = _deck(game, "bottles"), _board(game)
    if deck is None or deck.model is None or board is None:
        return
    manifest, rules = _manifest(game)
    levels = list(rules.bottle_values)
    want = rules.bottles_per_distillery
    each, extra = divmod(want, len(levels)) if levels else (0, 1)
    if extra:
        yield _at(
            G_BOTTLES,
            manifest,
            ("rules", "bottles_per_distillery"),
            f"{want} bottles cannot be shared evenly over {len(levels)} difficulties",
        )
        return
    by_distillery: dict[str, list[int]] = defaultdict(list)
    for i, card in enumerate(deck.model.cards):
        by_distillery[card.distillery].extend([i] * card.copies)
    cards = deck.model.cards
    for space in (s for s in board.spaces if s.kind == "distillery"):
        found = by_distillery.get(space.id, [])
        if not found:
            yield _at(G_BOTTLES, deck, ("cards",), f"no bottle for {space.name}", key=True)
            continue
        seen: Counter[str] = Counter()
        surplus: list[int] = []
        for i in found:
            seen[cards[i].difficulty] += 1
            if seen[cards[i].difficulty] > each:
                surplus.append(i)
        missing = [lv for lv in levels for _ in range(each - seen[lv])]
        if surplus:
            i = surplus[0]
            lack = f" (missing: {', '.join(missing)})" if missing else ""
            yield _at(
                G_BOTTLES,
                deck,
                ("cards", i, "difficulty"),
                f"{space.name} has {seen[cards[i].difficulty]} {cards[i].difficulty} bottles, "
                f"{each} wanted{lack}",
            )
        elif missing:
            yield _at(
                G_BOTTLES,
                deck,
                ("cards", found[-1], "distillery"),
                f"{space.name} has {len(found)} bottles, rules.bottles_per_distillery is "
                f"{want} (missing: {', '.join(missing)})",
            )


@check(G_BOTTLE_MAP)
def check_bottles_match_map(game: Game) -> Iterator[Diagnostic]:
    """The face prints the card's name and region: they must be the map's."""
    deck, board = _deck(game, "bottles"), _board(game)
    if deck is None or deck.model is None or board is None:
        return
    spaces = {s.id: s for s in board.spaces}
    for i, card in enumerate(deck.model.cards):
        space = spaces.get(card.distillery)
        if space is None:
            continue  # an R finding already
        for lang, text in card.name.items():
            if text != space.name:
                yield _at(
                    G_BOTTLE_MAP,
                    deck,
                    ("cards", i, "name", lang),
                    f"{text!r} is not the map's name for {card.distillery}: {space.name!r}",
                )
        if card.region != space.region:
            yield _at(
                G_BOTTLE_MAP,
                deck,
                ("cards", i, "region"),
                f"{space.name} lies in {space.region} on the map, not {card.region}",
            )


@check(G_LOST)
def check_lost_pile(game: Game) -> Iterator[Diagnostic]:
    """The lost pile's values and its even split over the lost distilleries (§C5)."""
    deck, board = _deck(game, "lost_bottles"), _board(game)
    if deck is None or deck.model is None or board is None:
        return
    manifest, rules = _manifest(game)
    values = list(rules.lost_values)
    lost = [s for s in board.spaces if s.kind == "lost_distillery"]
    cards = [(i, c) for i, c in enumerate(deck.model.cards) for _ in range(c.copies)]
    # Values: a card worth a value the rules lack (or one too many) pairs with a missing one.
    left = Counter(values)
    surplus = []
    for i, card in cards:
        if left[card.value] > 0:
            left[card.value] -= 1
        else:
            surplus.append((i, card))
    missing = sorted(left.elements())
    for n, (i, card) in enumerate(surplus):
        instead = f"; the pile lacks one worth {missing[n]}" if n < len(missing) else ""
        yield _at(
            G_LOST,
            deck,
            ("cards", i, "value"),
            f"a lost bottle worth {card.value}: rules.lost_values has no more of it{instead}",
        )
    short_values = missing[len(surplus) :]
    # Distilleries: each gets len(values) / len(lost) cards.
    if not lost:
        return
    each, extra = divmod(len(values), len(lost))
    if extra:
        yield _at(
            G_LOST,
            manifest,
            ("rules", "lost_values"),
            f"{len(values)} values cannot be dealt evenly to {len(lost)} lost distilleries",
        )
        return
    held: dict[str, list[int]] = defaultdict(list)
    for i, card in cards:
        held[card.distillery].append(i)
    under = [(s, each - len(held[s.id])) for s in lost if len(held[s.id]) < each]
    shortfall = [s.name for s, n in under for _ in range(n)]
    paired = 0
    for space in lost:
        for i in held[space.id][each:]:
            other = f"; {shortfall[paired]} is short" if paired < len(shortfall) else ""
            paired += 1
            yield _at(
                G_LOST,
                deck,
                ("cards", i, "distillery"),
                f"{space.name} has {len(held[space.id])} lost bottles, each lost distillery "
                f"gets {each}{other}",
            )
    if paired < len(shortfall) or short_values:
        names = ", ".join(shortfall[paired:]) or "none"
        worth = ", ".join(map(str, short_values)) or "none"
        yield _at(
            G_LOST,
            deck,
            ("cards",),
            f"the pile has {len(cards)} lost bottles, rules.lost_values {len(values)} "
            f"(missing values: {worth}; short: {names})",
            key=True,
        )


@check(G_TOKENS)
def check_tokens(game: Game) -> Iterator[Diagnostic]:
    """Token copies per kind are the bag's counts (§C9)."""
    deck = _deck(game, "tokens")
    if deck is None or deck.model is None:
        return
    bag = _manifest(game)[1].bag
    by_kind: dict[str, list[int]] = defaultdict(list)
    for i, card in enumerate(deck.model.cards):
        by_kind[card.resource].append(i)
    cards = deck.model.cards
    for kind, found in by_kind.items():
        if kind not in bag:
            yield _at(G_TOKENS, deck, ("cards", found[0], "resource"), f"rules.bag holds no {kind}")
            continue
        copies = sum(cards[i].copies for i in found)
        if copies != bag[kind]:
            i = found[-1]
            path: Path = ("cards", i, "copies")
            if deck.doc is not None and path not in deck.doc.spans:
                path = ("cards", i, "resource")
            yield _at(
                G_TOKENS, deck, path, f"{copies} {kind} tokens, but rules.bag has {bag[kind]}"
            )
    for kind, count in bag.items():
        if kind not in by_kind and count:
            yield _at(
                G_TOKENS, deck, ("cards",), f"no {kind} token, rules.bag has {count}", key=True
            )
