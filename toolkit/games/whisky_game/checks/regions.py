"""The regions: how many, their distilleries, a goal every table can reach, and the S and
resource spaces in each (E2, E3, E11)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.content.game import Game
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.games.whisky_game.checks.base import _Where, check

if TYPE_CHECKING:
    from toolkit.content.models.board import GraphBoard

G_REGIONS = rule(
    "G102",
    "goal-regions",
    "The map has exactly goal_regions regions, each with the same number of distilleries,"
    " each named in the glossary (E2).",
)
G_REACHABLE_GOAL = rule(
    "G103",
    "goal-reachable",
    "At the largest table each region holds a bottle per player, the bottles hold every"
    " player's goal_points, and one top bottle per region reaches goal_points (E3).",
)
G_SPREAD = rule(
    "G111",
    "region-spaces",
    "Each region should have at least 2 S spaces and 2 resource spaces (E11).",
    Severity.WARNING,
)


def _distilleries_by_region(board: GraphBoard) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {r.id: [] for r in board.regions}
    for s in board.spaces:
        if s.kind == "distillery" and s.region:
            out.setdefault(s.region, []).append(s.id)
    return out


@check(G_REGIONS)
def check_regions(game: Game) -> Iterator[Diagnostic]:
    """E2: goal_regions regions, an equal number of distilleries each, glossary names."""
    w = _Where(game)
    if w.board is None:
        return
    regions = w.board.model.regions
    if len(regions) != w.rules.goal_regions:
        yield w.at(
            G_REGIONS,
            w.board,
            ("regions",),
            f"{len(regions)} regions, but goal_regions is {w.rules.goal_regions}",
            key=True,
        )
    by_region = _distilleries_by_region(w.board.model)
    counts = [len(v) for v in by_region.values()]
    usual = max(set(counts), key=counts.count) if counts else 0
    for i, r in enumerate(regions):
        if len(by_region.get(r.id, [])) != usual or usual == 0:
            yield w.at(
                G_REGIONS,
                w.board,
                ("regions", i, "id"),
                f"region {r.id} has {len(by_region.get(r.id, []))} distilleries; the others"
                f" have {usual}",
            )
    glossary = game.glossary.model if game.glossary else None
    if glossary is not None:
        terms = {t.id for t in glossary.terms}
        for i, r in enumerate(regions):
            if r.id not in terms:
                yield w.at(
                    G_REGIONS,
                    w.board,
                    ("regions", i, "id"),
                    f"region {r.id} is not in the glossary",
                )


@check(G_REACHABLE_GOAL)
def check_goal_reachable(game: Game) -> Iterator[Diagnostic]:
    """E3: enough bottles per region and points for the largest table."""
    w = _Where(game)
    if w.board is None:
        return
    rules = w.rules
    players = w.manifest.model.players.max
    per = rules.bottles_per_distillery
    values = list(rules.bottle_values.values())
    by_region = _distilleries_by_region(w.board.model)
    for i, r in enumerate(w.board.model.regions):
        bottles = len(by_region.get(r.id, [])) * per
        if bottles < players:
            yield w.at(
                G_REACHABLE_GOAL,
                w.board,
                ("regions", i, "id"),
                f"region {r.id} holds {bottles} bottles for up to {players} players",
            )
    total = sum(len(v) for v in by_region.values()) * sum(values)
    if total < players * rules.goal_points:
        yield w.at(
            G_REACHABLE_GOAL,
            w.manifest,
            ("rules", "goal_points"),
            f"the bottles hold {total} points;"
            f" {players} players need {players * rules.goal_points}",
        )
    if values and max(values) * rules.goal_regions < rules.goal_points:
        yield w.at(
            G_REACHABLE_GOAL,
            w.manifest,
            ("rules", "goal_points"),
            f"{rules.goal_regions} top bottles give {max(values) * rules.goal_regions} points,"
            f" less than goal_points {rules.goal_points}",
        )


@check(G_SPREAD)
def check_spread(game: Game) -> Iterator[Diagnostic]:
    """E11 (warning): S and resource spaces in every region."""
    w = _Where(game)
    if w.board is None:
        return
    board = w.board.model
    for i, r in enumerate(board.regions):
        for kind, label in (("special", "S"), ("resource", "resource")):
            count = sum(1 for s in board.spaces if s.region == r.id and s.kind == kind)
            if count < 2:
                yield w.at(
                    G_SPREAD,
                    w.board,
                    ("regions", i, "id"),
                    f"region {r.id} has {count} {label} space(s); 2 or more expected",
                )
