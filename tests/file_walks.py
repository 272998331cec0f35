"""Helpers of the tests that a check skips a content file whose texts had nothing to say in
the last run (`Clean` by file): after one card edit of a copy of the Whisky Game only the
edited deck's texts are walked, and the findings are those of a run without the cache."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.conftest import REPO
from tests.test_validate_cache_units import _run

CARD = "en: Your Glenlivet bottle scores +{amount} points."
"""A card text of the Whisky Game's characters deck that the tests edit."""


def walked(monkeypatch: Any, module: Any, name: str, at: int = 0) -> list[object]:
    """What `module.name` is called with from now on (its argument `at`), each call noted."""
    seen: list[object] = []
    real = getattr(module, name)

    def counted(*args: Any) -> Any:
        seen.append(args[at])
        return real(*args)

    monkeypatch.setattr(module, name, counted)
    return seen


def checked_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the Whisky Game validated once (its findings kept), and its deck holding
    `CARD`."""
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    _run(str(copy))
    deck = copy / "decks" / "characters.yaml"
    assert CARD in deck.read_text("utf-8")
    return copy, deck


def walks_after_an_edit(copy: Path, deck: Path, seen: list[object]) -> list[tuple[int, int]]:
    """(texts walked with the cache, texts walked without) after each of two edits of
    `CARD` (and back), the findings asserted the same with the cache as without."""
    text = deck.read_text("utf-8")
    counts = []
    for edited in ("en: Your Glenlivet bottle scores +{amount} extra points.", CARD):
        deck.write_text(text.replace(CARD, edited), "utf-8")
        seen.clear()
        cached_run = _run(str(copy), "-f", "json")
        edited_file = len(seen)
        seen.clear()
        assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
        counts.append((edited_file, len(seen)))
    return counts
