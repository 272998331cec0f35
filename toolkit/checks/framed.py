"""A check family's findings kept as one unit between `validate` runs (toolkit.content.
unit_cache) when the family reads no content file: after one card edit a family that checks
the boards, the manifest and the game's own files (icons, fonts) is not run again.

The unit is named by the game folder as the run's lookup hashed it, a file at a time
(toolkit.content.validate_cache.Frame), with the bytes of the content files (the game's
decks and question banks) left out; the units' head covers the code, the fonts and the
modules the checks loaded. The family runs on a copy of the game through which no content
file can be read: its `decks`, `questions`, `files()` and the load findings raise
`ContentRead` (not an Exception: no `except Exception` nor `getattr` default of the family
takes it for an answer), and its print memo starts empty. A family that reads them is run
again on the game itself and its findings are not kept, nor are findings of a run that
failed or yielded anything but diagnostics (worked out, as without units, every run). A
family that opts in reads files of the game folder only through the game object or by the
game's root (what the frame hashes): never a deck's file by its path.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from toolkit.checks import errors_only
from toolkit.content.game import Game
from toolkit.content.printing import every_language_printed
from toolkit.content.unit_cache import active
from toolkit.diagnostics import Diagnostic
from toolkit.render.textfit import game_budget

KIND = "family"


class ContentRead(BaseException):  # noqa: N818 (not an error: a way out of the family)
    """The family asked for content the frame does not cover."""


def _refused(self: Any, *args: Any) -> Any:
    raise ContentRead


class _WithoutContent(Game):
    """A game whose content files cannot be read (see the module docstring)."""

    decks = property(_refused)
    questions = property(_refused)
    diagnostics = property(_refused)
    files = _refused


def _without_content(game: Game) -> Game:
    view = copy.copy(game)
    view.__class__ = _WithoutContent
    view.__dict__["print_memo"] = {}
    return view


def _read(value: Any) -> tuple[list[Diagnostic], int]:
    """A unit's findings and the fitting it counted (a board's labels)."""
    from toolkit.content.validate_cache import finding_from_record

    if type(value) is not list or len(value) != 2:
        raise ValueError("not findings")
    records, spent = value
    if type(records) is not list or type(spent) is not int or spent < 0:
        raise ValueError("not findings")
    return [finding_from_record(r) for r in records], spent


def framed(family: str, check: Callable[[Game], Iterable[Any]], game: Game) -> Iterator[Any]:
    """The items of `check(game)`: those kept by the last run when no file but content
    changed since, else worked out (and kept when they can be)."""
    units = active()
    kept_whole = not errors_only() and every_language_printed()  # what `validate` finds
    paths = units.content if units is not None and kept_whole else None
    name = units.framed_name(f"{KIND}:{family}", paths) if units and paths is not None else None
    if units is None or name is None:
        yield from check(game)
        return
    budget = game_budget()  # what the family fits (a board's labels) counts as without units
    kept = units.get(name, _read)
    if kept is not None and budget.affords(kept[1]):
        budget.spent += kept[1]
        yield from kept[0]
        return
    spent, refusals = budget.spent, budget.refusals
    try:
        found = list(check(_without_content(game)))
    except ContentRead:
        budget.spent, budget.refusals = spent, refusals
        yield from check(game)
        return
    except (Exception, SystemExit):  # the same run on the game: its items, then its error
        budget.spent, budget.refusals = spent, refusals
        yield from check(game)
        return
    # one with a fit refused (past the budget) is worked out again, as without units
    if all(isinstance(d, Diagnostic) for d in found) and budget.refusals == refusals:
        from toolkit.content.validate_cache import finding_record

        units.put(name, [[finding_record(d) for d in found], budget.spent - spent])
        units.framed.append(name)
    yield from found
