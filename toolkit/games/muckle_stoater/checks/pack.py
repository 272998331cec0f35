"""The pack deck: one card with effects per rank, splits of the rank's own move, a way to
leave the Dock, and copies that match the suits and jokers (invariants 5, 6)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.games.muckle_stoater.checks.base import JOKER, _Where, check

G_EFFECTS = rule(
    "G305",
    "rank-effects",
    "Every rank of the pack (and JOKER when jokers > 0) needs exactly one card with effects.",
)
G_SPLIT = rule(
    "G306",
    "split-total",
    "A split_steps total must equal the move_steps of the same rank, in 2 parts.",
)
G_LEAVE = rule("G307", "leave-dock-rank", "At least one rank must have a leave_dock effect.")
G_COPIES = rule(
    "G312",
    "pack-copies",
    "A rank's copies per pack should equal pack.suits (jokers: pack.jokers).",
    Severity.WARNING,
)


def _ranks(where: _Where) -> list[str]:
    pack = where.rules.pack
    return list(pack.ranks) + ([JOKER] if pack.jokers > 0 else [])


@check(G_EFFECTS)
def check_effects(game: Game) -> Iterator[Diagnostic]:
    """Invariant 5a: every rank has one card with effects; step counts are positive."""
    where = _Where(game)
    if where.deck is None:
        yield where.at(G_EFFECTS, where.manifest, ("files", "decks"), "no deck of kind 'pack'")
        return
    cards = where.deck.model.cards
    wanted = _ranks(where)
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        if card.rank not in wanted:
            yield where.at(
                G_EFFECTS,
                where.deck,
                ("cards", i, "rank"),
                f"rank {card.rank!r} is not in the pack (ranks: {', '.join(wanted)})",
            )
        elif card.rank in seen:
            yield where.at(
                G_EFFECTS, where.deck, ("cards", i, "rank"), f"rank {card.rank!r} appears twice"
            )
        seen.setdefault(card.rank, i)
        for j, eff in enumerate(card.effects):
            for field in ("steps", "total"):
                value = getattr(eff, field, None)
                if value is not None and value < 1:
                    yield where.at(
                        G_EFFECTS,
                        where.deck,
                        ("cards", i, "effects", j, field),
                        f"{field} must be a positive number, not {value}",
                    )
    ranks = where.rules.pack.ranks
    for i, rank in enumerate(ranks):
        if rank not in seen:
            yield where.at(
                G_EFFECTS,
                where.manifest,
                ("rules", "pack", "ranks", i),
                f"rank {rank!r} has no card (and so no effect) in the pack deck",
            )
    if JOKER in wanted and JOKER not in seen:
        yield where.at(
            G_EFFECTS,
            where.manifest,
            ("rules", "pack", "jokers"),
            f"the pack has jokers but the pack deck has no {JOKER} card",
        )


@check(G_SPLIT)
def check_split(game: Game) -> Iterator[Diagnostic]:
    """Invariant 5b: a split uses exactly the rank's own move, in two parts."""
    where = _Where(game)
    if where.deck is None:
        return
    for i, card in enumerate(where.deck.model.cards):
        moves = [e.steps for e in card.effects if e.kind == "move_steps"]
        for j, eff in enumerate(card.effects):
            if eff.kind != "split_steps":
                continue
            if eff.parts != 2:
                yield where.at(
                    G_SPLIT, where.deck, ("cards", i, "effects", j, "parts"), "parts must be 2"
                )
            if not moves:
                yield where.at(
                    G_SPLIT,
                    where.deck,
                    ("cards", i, "effects", j),
                    f"rank {card.rank!r} splits but has no move_steps to split",
                )
            elif eff.total not in moves:
                yield where.at(
                    G_SPLIT,
                    where.deck,
                    ("cards", i, "effects", j, "total"),
                    f"split total {eff.total} differs from the rank's move of {moves[0]}",
                )


@check(G_LEAVE)
def check_leave(game: Game) -> Iterator[Diagnostic]:
    """Invariant 6: someone must be able to leave the Dock."""
    where = _Where(game)
    if where.deck is None:
        return
    if not any(e.kind == "leave_dock" for c in where.deck.model.cards for e in c.effects):
        yield where.at(
            G_LEAVE,
            where.deck,
            ("cards",),
            "no rank has leave_dock: no Laddie can ever start",
            key=True,
        )


@check(G_COPIES)
def check_copies(game: Game) -> Iterator[Diagnostic]:
    """Copies per pack agree with the pack's suits and jokers (the engine uses copies)."""
    where = _Where(game)
    if where.deck is None:
        return
    pack = where.rules.pack
    for i, card in enumerate(where.deck.model.cards):
        want = pack.jokers if card.rank == JOKER else pack.suits
        if card.copies != want:
            what = "jokers" if card.rank == JOKER else "suits"
            yield where.at(
                G_COPIES,
                where.deck,
                ("cards", i, "copies"),
                f"{card.copies} copies per pack, but pack.{what} is {want}",
            )
