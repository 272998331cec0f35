"""Exports: build artifacts that are not PDFs (card images, Tabletop Simulator saves).

Each export is one module of this package that declares itself with `register` beside the code
that makes it, as build artifacts (`toolkit.render.artifacts`) and diagnostic rules do; a package
outside the toolkit adds one through the `playset.exports` entry point group. An export's
options are a dataclass of its own (a subclass of `ExportOptions`): each field with a `help`
(`option(...)`) is a command-line option of its `playset export <name>` command, which the CLI
makes from the registry, so a new export edits no other file.
Every export draws from the PDF pages `build` writes (one drawing path) and writes through
`toolkit.fileio` (atomic, deterministic bytes).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.fileio import HeldFolder
from toolkit.registry import Registry


@dataclass(frozen=True)
class ExportOptions:
    """What every export is run with; an export's own options subclass this. A value that
    cannot be used raises ValueError in `__post_init__` (the CLI's usage error)."""

    langs: list[str]


def option(default: Any, help: str, flag: str | None = None) -> Any:
    """A field of an export's options that the command line offers (`--page-dpi` for
    `page_dpi`, or `flag` as given, e.g. `--bleed/--no-bleed`)."""
    return field(default=default, metadata={"help": help, "flag": flag})


MIN_DPI, MAX_DPI = 30, 1200
"""The resolutions an export may be asked for."""


def check_dpi(name: str, value: float) -> None:
    """Refuse a resolution no printer or screen wants (and that would exhaust memory)."""
    if not MIN_DPI <= value <= MAX_DPI:
        raise ValueError(
            f"--{name.replace('_', '-')} must be between {MIN_DPI} and {MAX_DPI}, not {value:g}"
        )


Progress = Callable[[int, int], None]  # (done, total) steps, for a progress bar
Report = Callable[[Path], None]  # each file written


@dataclass(frozen=True)
class Export:
    """A registered export: `run(game, out, options, report, progress)` → files written, with
    `out` the output folder held open (`fileio.HeldFolder`: `out / name` is a Path; write
    below it with `journal.JournaledSet(out, folder)`, a `fileio.StagedSet` that makes and
    writes from its descriptor and journals its renames) and `options` an instance of
    `options` (its own dataclass); `help` is its command's help and `hint` a line said after
    a run that wrote everything."""

    name: str
    summary: str
    run: Callable[[Any, Path | HeldFolder, Any, Report, Progress], list[Path]]
    options: type[ExportOptions] = ExportOptions
    help: str = ""
    hint: str | None = None


REGISTRY: Registry[Export] = Registry(
    "export",
    package=__name__,
    group="playset.exports",
    accepts=lambda obj: isinstance(obj, Export),
)
register = REGISTRY.register


def once(written: Collection[Path], path: Path) -> None:
    """Refuse (BuildError) a file an export has already written in this run: its names are
    made of ids (`<deck>-<n>.png`, `<bank>-backs-<n>.png`, `board-<id>-<n>.png`), and a deck
    named `easy-backs` beside a question bank `easy` would put two images in one file, the
    first lost and the save naming the second for both. Pass a set of the files written (kept
    beside the export's list): searched in a list, 12,000 files were 72 M comparisons."""
    if path in written:
        from toolkit.render.artifacts import BuildError

        raise BuildError(
            f"two files of this export are named {path.name} (one id followed by -1, -back,"
            " -backs-1… is another's file name); rename a deck, question bank or board"
        )


def prune(folder: Path, kept: list[Path], out: Path | HeldFolder) -> list[Path]:
    """Remove the images and saves in an export's own folder that this run did not write (a
    card deleted from the content must not linger as an image a print service uploads), and
    the folders left empty. Only .png and .json files are touched, and the temporary files
    an export killed before its renames left (`fileio.remove_stale_temporaries`); nothing in
    or below a folder holding a game.yaml (a game kept where the export writes).

    `folder` lies below the output folder `out`; a link in its place or between the two is
    refused (OutputError), never walked: a run that writes no image there (a game drawing
    nothing in a language) meets no write to refuse it first, and a game folder may bring
    `output/<game>/<lang>/png` as a link to a folder of the user's pictures."""
    from toolkit.content.folders import MANIFEST
    from toolkit.fileio import remove_inside, remove_stale_temporaries, walk_inside

    keep = {os.path.abspath(path) for path in kept}  # nothing below `out` is a link
    removed: list[Path] = []
    listed: list[tuple[Path, bool]] = []
    # listed from the descriptors of `out` (a HeldFolder: opened once for the command) and
    # of each folder below it, never by path: `out` exchanged for a link to a folder of the
    # user's pictures meanwhile is not walked
    for at, dirs, files, fd in walk_inside(out, folder):
        if MANIFEST in files:  # a game folder kept here (or the export's folder one): its
            dirs[:] = []  # art and schemas are the designer's, not images of a past run
            continue
        remove_stale_temporaries(fd)  # staged by an export killed before its renames
        listed += [(at / name, True) for name in dirs] + [(at / name, False) for name in files]
    # each removed by name in its folder reached from `out` without following a link
    for path, is_folder in sorted(listed, reverse=True):
        if is_folder:
            remove_inside(out, path, folders_only=True)  # an empty one only (rmdir)
            continue
        stale = path.suffix in (".png", ".json") and os.path.abspath(path) not in keep
        if stale and remove_inside(out, path):
            removed.append(path)
    return removed


def exports() -> dict[str, Export]:
    """Every registered export by name."""
    return REGISTRY.load()
