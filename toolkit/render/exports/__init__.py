"""Exports: build artifacts that are not PDFs (card images, Tabletop Simulator saves).

Each export is one module that declares itself with `register` beside the code that makes it,
as diagnostic rules do; `exports()` imports the known modules and returns the registry, so the
CLI lists and runs whatever is registered. Every export draws from the PDF pages `build`
writes (one drawing path) and writes through `toolkit.fileio` (atomic, deterministic bytes).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MODULES = ("toolkit.render.exports.png", "toolkit.render.exports.tts")


@dataclass(frozen=True)
class ExportOptions:
    langs: list[str]
    dpi: float = 300.0  # card images
    page_dpi: float = 150.0  # boards and rulebook pages (an A2 board at 300 dpi is 35 Mpx)
    bleed: bool = False  # card images with their bleed (print services) or trimmed
    base_url: str | None = None  # Tabletop Simulator: hosted images instead of file:// URLs


Progress = Callable[[int, int], None]  # (done, total) steps, for a progress bar
Report = Callable[[Path], None]  # each file written


@dataclass(frozen=True)
class Export:
    """A registered export: `run(game, out, options, report, progress)` → files written."""

    name: str
    summary: str
    run: Callable[[Any, Path, ExportOptions, Report, Progress], list[Path]]


REGISTRY: dict[str, Export] = {}


def prune(folder: Path, kept: list[Path]) -> list[Path]:
    """Remove the images and saves in an export's own folder that this run did not write (a
    card deleted from the content must not linger as an image a print service uploads), and
    the folders left empty. Only .png and .json files are touched."""
    keep = {path.resolve() for path in kept}
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_symlink() or not path.is_file():
            if path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
                path.rmdir()
            continue
        if path.suffix in (".png", ".json") and path.resolve() not in keep:
            path.unlink()
            removed.append(path)
    return removed


def register(export: Export) -> Export:
    if export.name in REGISTRY and REGISTRY[export.name] != export:
        raise ValueError(f"export {export.name!r} registered twice")
    REGISTRY[export.name] = export
    return export


def exports() -> dict[str, Export]:
    for module in MODULES:
        importlib.import_module(module)
    return REGISTRY
