"""Counting the 'did you mean' searches a run makes: every search goes through
`suggest._search`."""

from __future__ import annotations

from typing import Any

import pytest

from toolkit.content import suggest


def counted_searches(monkeypatch: pytest.MonkeyPatch, *kept: Any) -> list[str]:
    """The names searched for from here on, with the answers `kept` (cached functions)
    hold from earlier tests forgotten."""
    for cached in kept:
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()
    asked: list[str] = []
    real = suggest._search

    def counted(name: str, *args: object) -> tuple[str | None, int]:
        asked.append(name)
        return real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(suggest, "_search", counted)
    return asked
