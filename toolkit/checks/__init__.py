"""Rule families and the runner that applies them to a loaded game.

Each family is a module of this package with a `check(game, facts)` generator that it
registers (`register(CheckFamily(...))`); its rules are declared beside it. A package outside
the toolkit adds a family through the `playset.checks` entry point group. Y and S rules are
emitted while loading (toolkit.content).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from toolkit.content.game import Game
from toolkit.content.plugin import plugins
from toolkit.content.walk import Facts, collect
from toolkit.diagnostics import Diagnostic, Rule, RuleSelection, Severity
from toolkit.diagnostics.suppress import unsuppressed
from toolkit.registry import Registry

Family = Callable[[Game, Facts], Iterable[Diagnostic]]


@dataclass(frozen=True)
class CheckFamily:
    """A registered family of cross-file checks: `check(game, facts)` yields diagnostics of
    the rules its module declares."""

    name: str
    summary: str
    check: Family


FAMILIES: Registry[CheckFamily] = Registry(
    "check family",
    package=__name__,
    group="playset.checks",
    accepts=lambda obj: isinstance(obj, CheckFamily),
)
register = FAMILIES.register


def game_selection(game: Game) -> RuleSelection:
    """The rule selection the game's manifest asks for."""
    if game.manifest is None:
        return RuleSelection()
    return RuleSelection.parse(game.manifest.checks.select, game.manifest.checks.ignore)


_ERRORS_ONLY: ContextVar[bool] = ContextVar("errors_only", default=False)


def wanted(*rules: Rule) -> bool:
    """Whether the running checks report any of `rules`: a run for the validity gate asks
    for errors only (`run_checks(errors_only=True)`), and a rule that only warns is then of
    no use; a family skips the work that can only find such rules."""
    return not _ERRORS_ONLY.get() or any(r.severity == Severity.ERROR for r in rules)


def run_checks(
    game: Game, selection: RuleSelection | None = None, *, errors_only: bool = False
) -> list[Diagnostic]:
    """Every diagnostic of the game (load-time and cross-file), filtered and sorted; with
    `errors_only` (the validity gate), families may leave out rules that only warn (see
    `wanted`): every error is still there, some warnings are not."""
    found: list[Diagnostic] = list(game.diagnostics)
    facts = collect(game)
    asked = _ERRORS_ONLY.set(errors_only)
    try:
        for family in FAMILIES.values():
            found.extend(family.check(game, facts))
    finally:
        _ERRORS_ONLY.reset(asked)
    if not any(d.severity == "error" for d in found):
        for game_check in game.plugin.checks:
            found.extend(game_check(game))
    chosen = game_selection(game).merged(selection or RuleSelection())
    kept = unsuppressed((d for d in found if chosen.allows(d.code)), inside=[Path(game.root)])
    return sorted(kept, key=Diagnostic.sort_key)


def iter_rules() -> Iterator[str]:
    """Import every module that declares rules (for `playset rules`); plugins, check families
    and the `playset.rules` entry points load theirs."""
    from toolkit.diagnostics import REGISTRY

    plugins()
    FAMILIES.load()
    REGISTRY.load()
    yield from (
        "toolkit.content.source",
        "toolkit.content.sheets.rules",
        "toolkit.content.validation",
        "toolkit.checks",
        "toolkit.checks.balance",
        "toolkit.sim.variants",
        "toolkit.sim.engines",
        "toolkit.sim.contract_run",
        "toolkit.content.plugin",
    )
