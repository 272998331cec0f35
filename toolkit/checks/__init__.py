"""Rule families and the runner that applies them to a loaded game.

Each family is a module of this package with a `check(game, facts)` generator that it
registers (`register(CheckFamily(...))`); its rules are declared beside it. A package outside
the toolkit adds a family through the `playset.checks` entry point group. Y and S rules are
emitted while loading (toolkit.content).
"""

from __future__ import annotations

import inspect
import os
import traceback
from collections.abc import Callable, Collection, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.content.assets import steady
from toolkit.content.game import Game
from toolkit.content.plugin import plugins
from toolkit.content.printing import printing
from toolkit.content.unit_cache import active
from toolkit.content.walk import Facts, collect
from toolkit.diagnostics import Diagnostic, Rule, RuleSelection, Severity, Span, rule
from toolkit.diagnostics.capped import capped
from toolkit.diagnostics.suppress import unsuppressed
from toolkit.registry import Registry, cut, describe, plugin_code, say
from toolkit.render.textfit import fitting

Family = Callable[[Game, Facts], Iterable[Diagnostic]]


@dataclass(frozen=True)
class CheckFamily:
    """A registered family of cross-file checks: `check(game, facts)` yields diagnostics of
    the rules its module declares."""

    name: str
    summary: str
    check: Family
    order: float = 0.0
    """Where the family runs among the others (lower first, then by discovery order): one
    that uses what another works out in the run comes after it."""


FAMILIES: Registry[CheckFamily] = Registry(
    "check family",
    package=__name__,
    group="playset.checks",
    rank=lambda family: family.order,
    accepts=lambda obj: isinstance(obj, CheckFamily),
    reports_broken=True,  # E008, by run_checks
)
register = FAMILIES.register

E_CHECK = rule(
    "E008",
    "check-plugin-failed",
    "An installed check (a `playset.checks` family or a game plugin's check) failed to "
    "import, raised, or yielded something other than a well-formed diagnostic (or a plugin's "
    "metric failed in `check`).",
)


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


def content_paths(game: Game) -> frozenset[str] | None:
    """The game's content files (decks, question banks), their paths made absolute, or
    None when one has no path (not parsed), or is not read as its kind alone: it did not
    load as one (a layout, the glossary or game.yaml listed as a deck: what else reads it
    is not known here), or it is a file the game reads as something else too (game.yaml,
    a board, the glossary, a rulebook, a file of its layouts, icons or fonts). The frame
    leaves a content file's bytes out of the names of units that read no content file:
    such a file's edits went unseen by them, and the findings kept were stale (probe71-1).
    Frozen: the frame keeps its digest by it (toolkit.content.validate_cache.Frame.digest)."""
    paths = set()
    for loaded in [*game.decks, *game.questions]:
        if loaded.doc is None or loaded.model is None:
            return None
        paths.add(os.path.abspath(loaded.doc.path))
    if paths & _read_otherwise(game):
        return None
    found_by_name = tuple(os.path.join(os.path.abspath(game.root), d, "") for d in NAMED_FOLDERS)
    if any(path.startswith(found_by_name) for path in paths):
        return None
    return frozenset(paths)


NAMED_FOLDERS = ("layouts", "icons", "fonts")
"""The game's folders whose files the checks find by name (a layout, an icon, a font)."""


def _read_otherwise(game: Game) -> set[str]:
    """The files (made absolute) the checks read as something other than a deck or bank."""
    others = [game.manifest_file, *game.boards, game.glossary]
    found = {os.path.abspath(f.doc.path) for f in others if f is not None and f.doc is not None}
    found |= {os.path.abspath(path) for path in game.rulebook.values()}
    return found


def errors_only() -> bool:
    """Whether the running checks are those of the validity gate (errors only)."""
    return _ERRORS_ONLY.get()


def run_checks(
    game: Game,
    selection: RuleSelection | None = None,
    *,
    errors_only: bool = False,
    printed: Collection[str] | None = None,
) -> list[Diagnostic]:
    """Every diagnostic of the game (load-time and cross-file), filtered and sorted; with
    `errors_only` (the validity gate), families may leave out rules that only warn (see
    `wanted`): every error is still there, some warnings are not. `printed` (the gate of a
    build of some languages) limits the checks of what prints in each language to those
    (toolkit.content.printing); the checks that do not depend on the language run in full."""
    # a layout or icon name is looked up once in the run; the checks share one budget of
    # text fitting (toolkit.render.textfit.fitting)
    with steady(), fitting():
        return _run_checks(game, selection, errors_only, printed)


def _run_checks(
    game: Game,
    selection: RuleSelection | None,
    errors_only: bool,
    printed: Collection[str] | None = None,
) -> list[Diagnostic]:
    found: list[Diagnostic] = list(game.diagnostics)
    units = active()
    if units is not None:  # what a unit named by the frame leaves out (toolkit.checks.framed)
        units.content = content_paths(game)
    facts = collect(game)
    asked = _ERRORS_ONLY.set(errors_only)
    try:
        with printing(printed):  # the checks of what prints: those languages' alone
            for family in FAMILIES.values():
                origin = FAMILIES.origin(family.name) or "?"
                what = f"the check family {family.name!r} ({origin})"
                # a family of Playset's own is no plugin to uninstall
                advice = _OWN_FAULT if origin.startswith("toolkit.") else _PLUGIN_FAULT
                found.extend(_guarded(what, family.check, game, (game, facts), advice))
    finally:
        _ERRORS_ONLY.reset(asked)
    found.extend(_broken_families(game))
    if not any(d.severity == "error" for d in found):
        for game_check in game.plugin.checks:
            name = getattr(game_check, "__name__", type(game_check).__name__)
            module = getattr(game_check, "__module__", None) or "?"
            what = f"the check {name!r} of the game plugin {game.plugin.game_id!r} ({module})"
            found.extend(_guarded(what, game_check, game, (game,)))
    chosen = game_selection(game).merged(selection or RuleSelection())
    kept = unsuppressed((d for d in found if chosen.allows(d.code)), inside=[Path(game.root)])
    return capped(sorted(kept, key=Diagnostic.sort_key))


_PLUGIN_FAULT = "fix or uninstall the plugin"
_OWN_FAULT = "a fault of Playset's: please report it with this message"


def _guarded(
    what: str,
    check: Callable[..., Iterable[Any]],
    game: Game,
    args: tuple[Any, ...],
    advice: str = _PLUGIN_FAULT,
) -> list[Diagnostic]:
    """The diagnostics of one check, run so that a plugin's mistake is one E008 finding (at
    its own code's line where it can be found) and the other checks still run: any exception
    (a `sys.exit()`, which ended validate silently with exit 0, a GeneratorExit or a
    BaseException of its own), or an item that is not a well-formed Diagnostic. Its print()
    goes to stderr and the working folder it may change is put back (`plugin_code`). Ctrl-C
    still stops the command."""
    kept: list[Diagnostic] = []
    try:
        with plugin_code():
            for item in check(*args):
                well = _well_formed(item)
                if well is not None:
                    kept.append(well)
                    continue
                shown = _shown(item)
                if isinstance(item, Diagnostic):
                    message = (
                        f"{what} yielded a malformed Diagnostic {shown} "
                        f"({_malformed(item)}); it is left out ({advice})"
                    )
                else:
                    message = (
                        f"{what} yielded {shown} ({type(item).__name__}), not a Diagnostic; "
                        f"it is left out ({advice})"
                    )
                kept.append(_plugin_finding(game, check, None, message))
    except BaseException as exc:  # noqa: BLE001 - a plugin must not end the command
        if isinstance(exc, KeyboardInterrupt):
            raise
        message = f"{what} failed: {describe(exc)}; its findings are missing ({advice})"
        kept.append(_plugin_finding(game, check, exc.__traceback__, message))
    return kept


def _well_formed(item: object) -> Diagnostic | None:
    """`item` as a Diagnostic every printer can show, or None: a Diagnostic is a plain
    dataclass, and a plugin's with `file=None` or `severity="fatal"` crashed the sort or the
    printers after the guard. A severity given as its text ("error") is taken."""
    if not isinstance(item, Diagnostic) or _malformed(item) is not None:
        return None
    if type(item) is Diagnostic and type(item.severity) is Severity:
        return item
    return Diagnostic(item.file, item.code, item.message, Severity(item.severity), item.span)


_SEVERITIES = frozenset(s.value for s in Severity)
"""The severities' texts, made once (each finding's is looked up: 34,000 P001 a game)."""


def _malformed(item: Diagnostic) -> str | None:
    """What is wrong with a Diagnostic's fields, or None."""
    for field_name in ("file", "code", "message"):
        value = getattr(item, field_name, None)
        if not isinstance(value, str):
            return f"its {field_name} is {type(value).__name__}, not str"
    severity = getattr(item, "severity", None)
    if not isinstance(severity, str) or severity not in _SEVERITIES:
        return f"its severity is {_shown(severity)}, not one of error, warning, info"
    span = getattr(item, "span", None)
    if not isinstance(span, Span):
        return f"its span is {type(span).__name__}, not Span"
    for field_name in ("line", "col", "end_line", "end_col"):
        value = getattr(span, field_name)
        if not isinstance(value, int) and not (value is None and field_name.startswith("end")):
            return f"its span's {field_name} is {type(value).__name__}, not int"
    for field_name in ("sheet", "file"):
        value = getattr(span, field_name)
        if value is not None and not isinstance(value, str):
            return f"its span's {field_name} is {type(value).__name__}, not str"
    return None


def _broken_families(game: Game) -> list[Diagnostic]:
    """An installed check family whose entry point failed to import: one E008 finding each
    (validate said "clean" without having run it)."""
    return [
        _plugin_finding(
            game,
            None,
            None,
            f"the installed check family {name!r} (entry point of `playset.checks`) cannot be "
            f"imported ({cut(why)}); its checks did not run (fix or uninstall the plugin)",
            at=FAMILIES.broken_at.get(name),
        )
        for name, why in sorted(FAMILIES.broken.items())
    ]


def _plugin_finding(
    game: Game,
    check: Any,
    tb: Any,
    message: str,
    at: tuple[str, int] | None = None,
) -> Diagnostic:
    """An E008 finding at the plugin's own line: the innermost traceback frame in the
    check's file, else where the check is defined, else game.yaml."""
    if at is None:
        at = _plugin_place(check, tb)
    if at is not None:
        from toolkit.content.folders import display_path

        return E_CHECK.at(display_path(Path(at[0])), Span(max(1, at[1]), 1), message)
    manifest = game.manifest_file.rel if game.manifest_file is not None else "game.yaml"
    return E_CHECK.at(manifest, Span(1, 1), message)


def _plugin_place(check: Any, tb: Any) -> tuple[str, int] | None:
    try:
        target = inspect.unwrap(check) if check is not None else None
        file = inspect.getsourcefile(target) if target is not None else None
        line = inspect.getsourcelines(target)[1] if target is not None else 1
    except Exception:  # noqa: BLE001 - a plugin's object (a `__wrapped__` loop: ValueError)
        file, line = None, 1
    if file is None:
        return None
    frames = traceback.extract_tb(tb) if tb is not None else []
    inside = [f for f in frames if f.filename == file and f.lineno]
    if inside:
        return file, int(inside[-1].lineno or 1)
    return file, line


def _shown(item: object) -> str:
    """A plugin object as a message shows it: its repr, cut; its type's name when its own
    `__repr__` fails."""
    try:
        return cut(repr(item))
    except Exception:  # noqa: BLE001 - a plugin object's own __repr__ failed
        return type(item).__name__


def say_broken_families() -> None:
    """A warning on stderr for each installed check family that cannot be loaded: what
    `validate` reports as E008, for a command that lists rules (`rules`, `reference`)."""
    FAMILIES.load()
    for name, why in sorted(FAMILIES.broken.items()):
        say(
            f"warning: the installed check family {name!r} (entry point of `playset.checks`) "
            f"cannot be loaded ({cut(why)}); its rules are left out (fix or uninstall the "
            "plugin)"
        )


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
