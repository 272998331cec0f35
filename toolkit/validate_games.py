"""The findings of the games one `playset validate` is given, in their order: those the
findings cache holds (toolkit.content.validate_cache), and the others worked out, on the
machine's cores when there are several.

Each game's checks take a few tenths of a second of CPU, after imports shared by all of
them: with two games or more to check, each is checked in a process forked from this one
after its imports (toolkit.forks), the largest game first, as many at a time as there are
cores (or `workers`; by default none while the load average leaves less than half a core
idle: `forks.workers`). A child does what the loop of one game after another does (load
the game, run its checks, keep its units and findings in the cache) and sends back its
findings, what it printed, and the file stamps it learnt (kept by this process's `close`,
so the next run reads no more than after a run in one process). The findings are put
together in the games' order, as one game after another gives them: the same bytes out.
A game whose child fails is checked here, where it fails (or not) as it would have; where
no process can be forked (see `forks.available`), with one core, with `workers` 1 or with
one game to check, the games are checked here one after another.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolkit.content.validate_cache import FindingsCache
    from toolkit.diagnostics import Diagnostic, RuleSelection

WEIGHED_FILES = 5_000
"""Files a game's size is summed over, at most (the size only orders the games)."""


def validate_games(
    folders: Sequence[Path],
    selection: RuleSelection,
    options: Sequence[str],
    cache: FindingsCache | None,
    workers: int | None = None,
    settle: Callable[[], None] = lambda: None,
    outlive: Callable[[object], None] = lambda game: None,
) -> list[Diagnostic]:
    """Every finding of the games in `folders`, game after game in their order. `options`:
    the cache key's (`--select`, `--ignore`); `workers`: how many games may be checked at
    once, at most (None: one per core, one on a busy machine; never more than the cores);
    `settle`: called once a game is loaded, before its checks (the CLI's `settle`);
    `outlive`: given each game once checked, and None before the next is loaded (the CLI's
    `outlive`: the process ends without freeing the last one)."""
    check = partial(_check, outlive=outlive)
    if len(folders) < 2:  # one game: no child to start (nor the forks module to import)
        return _one_after_another(folders, selection, options, cache, settle, check)
    from toolkit import forks

    count = forks.workers(workers)
    if count < 2 or not forks.available():
        return _one_after_another(folders, selection, options, cache, settle, check)
    found: list[list[Diagnostic] | None] = (
        cache.lookup_all(folders, options) if cache else [None] * len(folders)
    )
    missed = list(
        dict.fromkeys(str(f) for f, hit in zip(folders, found, strict=True) if hit is None)
    )
    done: dict[str, forks.Done[tuple[list[Diagnostic], dict[str, list[object]], bool]]] = {}
    if len(missed) >= 2:
        _prepare(cache, settle)
        missed.sort(key=lambda name: -_weight(name))
        jobs = [
            partial(_in_child, Path(name), selection, options, cache, settle, check)
            for name in missed
        ]
        for name, result in zip(missed, forks.run(jobs, min(count, len(missed))), strict=True):
            if result is not forks.FAILED:
                done[name] = result
    shown: set[str] = set()
    for i, folder in enumerate(folders):
        if found[i] is not None:
            continue
        result = done.get(str(folder))
        if result is None:  # one game to check, or its child failed: checked here
            if cache:
                cache.resume(folder)
            found[i] = check(folder, selection, options, cache, settle)
            continue
        findings, stamps, changed = result.value
        if str(folder) not in shown:  # what it printed, once, where its checks would have
            shown.add(str(folder))
            sys.stdout.write(result.out)
            sys.stderr.write(result.err)
            if cache:
                cache.stats.learn(stamps, changed)
        found[i] = findings
    return [d for each in found if each is not None for d in each]


def _one_after_another(
    folders: Sequence[Path],
    selection: RuleSelection,
    options: Sequence[str],
    cache: FindingsCache | None,
    settle: Callable[[], None],
    check: Callable[..., list[Diagnostic]],
) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for folder in folders:
        # one game after another: each lookup starts from the code part the last hashed
        found = cache.lookup(folder, options, chained=True) if cache else None
        if found is None:
            found = check(folder, selection, options, cache, settle)
        diagnostics.extend(found)
    return diagnostics


def _check(
    folder: Path,
    selection: RuleSelection,
    options: Sequence[str],
    cache: FindingsCache | None,
    settle: Callable[[], None],
    outlive: Callable[[object], None] = lambda game: None,
) -> list[Diagnostic]:
    """The findings of the game in `folder`, worked out (and kept in the cache). The game
    checked is handed to `outlive` (the one before it let go first: one game in memory at
    a time): freed here, a card edit's game was ~100,000 objects freed one by one, ~1.5-3
    ms of a `validate` that ends right after."""
    from toolkit.checks import run_checks
    from toolkit.content.game import load_game

    outlive(None)
    if cache is None:
        game = load_game(folder)
        settle()  # the loaded game lives to the end: the checks' garbage is young
        found = run_checks(game, selection)
        outlive(game)
        return found
    with cache.units(folder):  # what this game's last run worked out, reused
        game = load_game(folder)
        settle()
        found = run_checks(game, selection)
    cache.save(folder, options, found)
    outlive(game)
    return found


_CHECKED_HERE = False
"""Whether this process (a forked child) has checked a game yet."""


def _in_child(
    folder: Path,
    selection: RuleSelection,
    options: Sequence[str],
    cache: FindingsCache | None,
    settle: Callable[[], None],
    check: Callable[..., list[Diagnostic]] = _check,
) -> tuple[list[Diagnostic], dict[str, list[object]], bool]:
    """`_check` (`check`) in a forked child, with the file stamps it learnt."""
    if cache is None:
        return check(folder, selection, options, cache, settle), {}, False
    global _CHECKED_HERE
    before = dict(cache.stats.seen)
    cache.resume(folder, first=not _CHECKED_HERE)  # the first: lookup_all's code part
    _CHECKED_HERE = True
    found = check(folder, selection, options, cache, settle)
    return found, cache.stats.learnt_since(before), cache.stats.changed


SHARED_MODULES = (
    "toolkit.boards.graph",
    "toolkit.boards.road",
    "toolkit.boards.score_track",
    "toolkit.boards.track",
    "toolkit.checks.legibility.colours",
    "toolkit.checks.legibility.faces",
    "toolkit.checks.legibility.meaning",
    "toolkit.checks.legibility.printed",
    "toolkit.checks.legibility.settings",
    "toolkit.content.checked",
    "toolkit.content.game_checks",
    "toolkit.content.models.board",
    "toolkit.content.models.score_track",
    "toolkit.content.parse_units",
    "toolkit.journal",
    "toolkit.render.artifacts.questions",
    "toolkit.render.boards.look",
    "toolkit.render.boards.printed",
    "toolkit.render.elements.badge",
    "toolkit.render.elements.box",
    "toolkit.render.elements.icon",
    "toolkit.render.elements.image",
    "toolkit.render.elements.text",
    "toolkit.render.pdf",
    "toolkit.render.tiling",
)
"""Modules the checks of any game import as they run (each bundled game's did): imported
once before the workers are forked, not once in each (only a cost: a module missing from
this list is imported where it is needed, as ever)."""


def _prepare(cache: FindingsCache | None, settle: Callable[[], None]) -> None:
    """What every child needs, done once here before they are forked: the check families
    and the modules the checks import, the real paths of the modules loaded (what the
    cache records of them), and the heap settled."""
    import importlib

    from toolkit.checks import FAMILIES

    FAMILIES.load()
    for name in SHARED_MODULES:
        with suppress(ImportError):
            importlib.import_module(name)
    if cache is not None:
        from toolkit.content.validate_cache import module_record

        module_record()
    settle()


def _weight(folder: str) -> int:
    """The bytes of a game's files (at most WEIGHED_FILES of them): the larger game is
    started first, so that no core is left checking one alone at the end."""
    total = files = 0
    for root, dirs, names in os.walk(folder):
        top = root == folder
        dirs[:] = [
            d for d in dirs if d[0] != "." and d != "__pycache__" and not (top and d == "output")
        ]
        for name in names:
            files += 1
            if files > WEIGHED_FILES:
                return total
            with suppress(OSError):
                total += os.stat(os.path.join(root, name)).st_size
    return total
