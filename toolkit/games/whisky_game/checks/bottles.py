"""The bottles and the bag: one value per difficulty, the lost piles, and a bag that
can pay a lost bottle (E1, E11)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.whisky_game.checks.base import _Where, check

G_BOTTLES = rule(
    "G101",
    "bottle-values",
    "One bottle per difficulty value, distinct; 3-4 lost distilleries, a lost pile of"
    " bottles_per_distillery cards for each (E1).",
)
G_BAG = rule(
    "G112",
    "bag-size",
    "The bag holds at least a whole lost-distillery payment of each kind (E11).",
)


@check(G_BOTTLES)
def check_bottles(game: Game) -> Iterator[Diagnostic]:
    """E1: three bottle values, distinct; 3-4 lost distilleries; a lost pile to match."""
    w = _Where(game)
    rules = w.rules
    values = list(rules.bottle_values.values())
    if len(values) != rules.bottles_per_distillery or len(set(values)) != len(values):
        yield w.at(
            G_BOTTLES,
            w.manifest,
            ("rules", "bottle_values"),
            f"{len(values)} bottle values {values} for {rules.bottles_per_distillery}"
            " bottles per distillery (one distinct value each)",
            key=True,
        )
    if w.board is None:
        return
    lost = [s.id for s in w.board.model.spaces if s.kind == "lost_distillery"]
    if not 3 <= len(lost) <= 4:
        yield w.at(
            G_BOTTLES, w.board, ("spaces",), f"{len(lost)} lost distilleries; 3-4 expected", True
        )
    want = rules.bottles_per_distillery * len(lost)
    if len(rules.lost_values) != want:
        yield w.at(
            G_BOTTLES,
            w.manifest,
            ("rules", "lost_values"),
            f"lost pile of {len(rules.lost_values)} bottles; {len(lost)} lost distilleries"
            f" x {rules.bottles_per_distillery} = {want}",
        )


@check(G_BAG)
def check_bag(game: Game) -> Iterator[Diagnostic]:
    """E11: the bag can pay a whole lost bottle in any one kind (Friar John Cor)."""
    w = _Where(game)
    rules = w.rules
    need = sum(rules.lost_cost.values())
    for kind in ("barley", "water", "yeast"):
        have = rules.bag.get(kind, 0)
        if have < need:
            path = ("rules", "bag", kind) if kind in rules.bag else ("rules", "bag")
            yield w.at(
                G_BAG,
                w.manifest,
                path,
                f"the bag holds {have} {kind}; at least {need} (a lost bottle's price)",
                key=kind not in rules.bag,
            )
