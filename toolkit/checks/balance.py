"""B rules: what a short simulation says about the rules, as diagnostics."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolkit.content.game import Game
from toolkit.content.walk import collect
from toolkit.diagnostics import Diagnostic, Severity, Span, rule

if TYPE_CHECKING:  # the simulation is imported when a report is checked, not by `validate`
    from toolkit.sim.metrics import SimReport

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

# Which rule a flagged metric raises: by metric key first, then by its group.
RULES_BY_METRIC = {"timeouts": B_TIMEOUTS}
RULES_BY_GROUP = {"seat": B_UNFAIR_SEAT, "role": B_UNFAIR_ROLE, "card": B_DEAD_CARD}


def check(game: Game, report: SimReport) -> Iterator[Diagnostic]:
    """One diagnostic per flagged metric of the report (the metric registry decides what a
    finding is; this module only says which rule it is and where it points)."""
    from toolkit.checks import E_CHECK
    from toolkit.sim.metrics import METRICS, iter_metrics

    manifest = game.manifest_file
    where = manifest.rel if manifest else "game.yaml"
    declared = {(x.namespace, x.id): x for x in collect(game).declared}

    def place(namespace: str, ident: str) -> tuple[str, Span]:
        found = declared.get((namespace, ident))
        if found and found.file.doc:
            return found.file.rel, found.file.doc.span(found.path)
        return where, Span()

    setup = report.setup_text
    fair = (report.fair_share or 0) * 100
    failed: list[str] = []  # a plugin's metric that failed: E008, not a traceback
    for m in iter_metrics(report, failed=failed):
        found = RULES_BY_METRIC.get(m.key) or RULES_BY_GROUP.get(m.group)
        if not m.flag or found is None:
            continue
        lo, hi = (m.lo or 0) * 100, (m.hi or 0) * 100
        if m.group == "card":
            file, span = place("card", m.label)
            yield found.at(
                file, span, f"{m.label} was never played in {report.games} games ({setup})"
            )
        elif m.group in ("seat", "role"):
            file, span = place("card", m.label) if m.group == "role" else (where, Span())
            text = (
                f"{m.label} wins {(m.value or 0) * 100:.1f}% [{lo:.1f}–{hi:.1f}%], fair share "
                f"{fair:.1f}% ({m.note}; {setup})"
            )
            yield found.at(file, span, text)
        else:
            text = (
                f"{m.label}: {(m.value or 0) * 100:.1f}% of {report.games} games "
                f"[{lo:.1f}–{hi:.1f}%] ({setup})"
            )
            yield found.at(where, Span(), text)
    for why in failed:
        yield E_CHECK.at(where, Span(), why)
    for name, why in sorted(METRICS.broken.items()):  # an installed metric left out
        text = f"the installed metric {name!r} (entry point of `playset.metrics`) is left out: "
        yield E_CHECK.at(where, Span(), f"{text}{why} (fix or uninstall the plugin)")
