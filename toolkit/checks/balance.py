"""B rules: what a short simulation says about the rules, as diagnostics."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.content.walk import collect
from toolkit.diagnostics import Diagnostic, Severity, Span, rule
from toolkit.sim.metrics import Report

B_TIMEOUTS = rule(
    "B001", "timeouts", "More than 1% of simulated games hit the turn cap.", Severity.WARNING
)
B_UNFAIR_SEAT = rule(
    "B002",
    "unfair-seat",
    "A seat wins significantly more or less than its fair share.",
    Severity.WARNING,
)
B_UNFAIR_ROLE = rule(
    "B003",
    "unfair-role",
    "A role (character, hero) wins significantly off its fair share.",
    Severity.WARNING,
)
B_DEAD_CARD = rule(
    "B004", "dead-card", "A card was never played in the simulated games.", Severity.WARNING
)

TIMEOUT_LIMIT = 0.01


def check(game: Game, report: Report) -> Iterator[Diagnostic]:
    d = report.data
    manifest = game.manifest_file
    where = manifest.rel if manifest else "game.yaml"
    declared = {(x.namespace, x.id): x for x in collect(game).declared}

    def place(namespace: str, ident: str) -> tuple[str, Span]:
        found = declared.get((namespace, ident))
        if found and found.file.doc:
            return found.file.rel, found.file.doc.span(found.path)
        return where, Span()

    setup = ", ".join(f"{k}={v}" for k, v in report.setup.items())
    if d["timeouts"]["rate"] > TIMEOUT_LIMIT:
        t = d["timeouts"]
        yield B_TIMEOUTS.at(
            where,
            Span(),
            f"{t['rate'] * 100:.1f}% of {d['games']} games timed out "
            f"[{t['lo'] * 100:.1f}–{t['hi'] * 100:.1f}%] ({setup})",
        )

    def unfair(label: str, row: dict) -> str:
        return (
            f"{label} wins {row['rate'] * 100:.1f}% "
            f"[{row['lo'] * 100:.1f}–{row['hi'] * 100:.1f}%], fair share "
            f"{(d['fair_share'] or 0) * 100:.1f}% (Holm p={row['p_adjusted']:.3g}; {setup})"
        )

    for row in d["seats_win"]:
        if row["unfair"]:
            yield B_UNFAIR_SEAT.at(where, Span(), unfair(f"seat {row['seat']}", row))
    for row in d["roles_win"]:
        if row["unfair"]:
            file, span = place("card", row["role"])
            yield B_UNFAIR_ROLE.at(file, span, unfair(row["role"], row))
    for card in d["cards"]:
        if card["dead"]:
            file, span = place("card", card["card"])
            yield B_DEAD_CARD.at(
                file, span, f"{card['card']} was never played in {d['games']} games ({setup})"
            )
