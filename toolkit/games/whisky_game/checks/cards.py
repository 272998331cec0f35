"""What the character and special cards do: regions they name hold the spaces they need, and
every effect is one the engine implements (E9, E10)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.whisky_game.checks.base import _Where, check
from toolkit.games.whisky_game.effect_kinds import IMPLEMENTED_CHARACTERS, IMPLEMENTED_SPECIALS

G_NAMED = rule(
    "G109",
    "named-targets",
    "A region a card sends players to, or takes a bottle from, holds such spaces (E9).",
)
G_EFFECTS = rule(
    "G110",
    "effect-implemented",
    "Every effect kind of a character or special card is implemented by the engine (E10).",
)


@check(G_NAMED)
def check_named(game: Game) -> Iterator[Diagnostic]:
    """E9: a region named by a card holds the spaces the card needs."""
    w = _Where(game)
    deck = w.decks.get("specials")
    if w.board is None or deck is None:
        return
    spaces = w.board.model.spaces
    for i, card in enumerate(deck.model.cards):
        e = card.effect
        if e.kind == "move_to_region":
            if not any(s.region == e.region and s.kind != "sea" for s in spaces):
                yield w.at(
                    G_NAMED,
                    deck,
                    ("cards", i, "effect", "region"),
                    f"{card.id} sends players to {e.region}, which has no space",
                )
        elif e.kind == "take_region_bottle" and not any(
            s.region == e.region and s.kind == "distillery" for s in spaces
        ):
            yield w.at(
                G_NAMED,
                deck,
                ("cards", i, "effect", "region"),
                f"{card.id} takes a bottle from {e.region}, which has no distillery",
            )


@check(G_EFFECTS)
def check_effects(game: Game) -> Iterator[Diagnostic]:
    """E10: every effect kind used is one the engine implements."""
    w = _Where(game)
    for kind, deck in w.decks.items():
        if kind == "characters":
            for i, card in enumerate(deck.model.cards):
                for j, e in enumerate(card.effects):
                    if e.kind not in IMPLEMENTED_CHARACTERS:
                        yield w.at(
                            G_EFFECTS,
                            deck,
                            ("cards", i, "effects", j, "kind"),
                            f"{card.id}: effect {e.kind} is not implemented",
                        )
        elif kind == "specials":
            for i, card in enumerate(deck.model.cards):
                if card.effect.kind not in IMPLEMENTED_SPECIALS:
                    yield w.at(
                        G_EFFECTS,
                        deck,
                        ("cards", i, "effect", "kind"),
                        f"{card.id}: effect {card.effect.kind} is not implemented",
                    )
