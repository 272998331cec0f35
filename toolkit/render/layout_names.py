"""Layout names without the layouts: the built-in layouts a deck is drawn with when it
names none, and where a layout's file is. A light module: the preview's dependency map and
its findings' places read them without importing jinja2 and the layout models."""

from __future__ import annotations

from pathlib import Path

from toolkit.content import assets

DEFAULT_FRONT = "standard"
DEFAULT_BACK = "back"


def layout_file(name: str, game_root: Path | None = None) -> str:
    """A layout's path as diagnostics show it."""
    return assets.expected(assets.LAYOUTS, name, game_root).display
