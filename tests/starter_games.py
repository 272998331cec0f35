"""Starter games (`playset new`) changed in one file, as the hardening tests make them."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolkit.scaffold.new import new_game

_STARTER: dict[str, str] = {}


def engine_game(tmp_path: Path, extra: str = "", old: str = "", new: str = "") -> Path:
    """The starter game with an engine under tmp_path (made once), its engine.py the
    starter's with `old` replaced by `new` and `extra` appended: one game per test, its
    engine swapped (a new modification time, so the engine is imported again)."""
    folder = tmp_path / "demo"
    engine = folder / "engine.py"
    if not folder.exists():
        new_game(folder, "demo", ["en"], engine=True)
        _STARTER["text"] = engine.read_text(encoding="utf-8")
    text = _STARTER["text"]
    if old:
        assert old in text
        text = text.replace(old, new, 1)
    before = engine.stat().st_mtime_ns
    engine.write_text(text + "\n" + extra + "\n", encoding="utf-8")
    os.utime(engine, ns=(before + 1_000_000_000, before + 1_000_000_000))
    return folder


def rulebook_game(
    run_cli: Callable[..., Any], tmp_path: Path, text: str, name: str = "probe"
) -> Path:
    """A starter game under tmp_path whose rulebooks (every language's) all read `text`."""
    tmp_path.mkdir(exist_ok=True)
    result = run_cli("new", name, "--into", str(tmp_path))
    assert result.exit_code == 0, result.output
    game = tmp_path / name
    for book in (game / "rulebook").glob("*.md"):
        book.write_text(text, encoding="utf-8")
    return game


def edit_engine(game: Path, old: str, new: str) -> None:
    """Replace `old` (which must be there) by `new` once in the game's engine.py."""
    path = game / "engine.py"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
