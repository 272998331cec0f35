"""A game of many small content files (decks) with a cold findings cache: each file's units
are named by the frame with the other content files left out (toolkit.content.unit_cache.
Units.framed_name_but), and that name costs the same whatever the number of files. Probe 42
N1: each name hashed the game folder again minus one file and built a set over every other
file, ~8 names a file: 116 s of `validate` for 6,000 one-card decks. Counted in bytes
hashed, not timed."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES, relink_modelines
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.content import validate_cache

DECK = """id: {id}
kind: actions
name: {{fr: D{i}, es: E{i}, en: N{i}}}
size: poker
cards:
  - {{id: k{i}, name: {{fr: A{i}, es: B{i}, en: C{i}}}}}
"""


def _game(tmp_path: Path, count: int) -> Path:
    """The base fixture with `count` more one-card deck files listed."""
    game = tmp_path / f"game{count}"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    listed = "".join(f"    - decks/d{i}.yaml\n" for i in range(count))
    for i in range(count):
        (game / "decks" / f"d{i}.yaml").write_text(DECK.format(id=f"d{i}", i=i), "utf-8")
    text = (game / "game.yaml").read_text("utf-8")
    text = text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n" + listed)
    (game / "game.yaml").write_text(text, "utf-8")
    return game


class _Counted:
    """hashlib as toolkit.content.validate_cache sees it, counting the bytes it hashes."""

    def __init__(self) -> None:
        self.bytes = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(hashlib, name)

    def sha256(self, data: bytes = b"") -> Any:
        return _Digest(self, hashlib.sha256(), data)


class _Digest:
    def __init__(self, counted: _Counted, inner: Any, data: bytes) -> None:
        self.counted, self.inner = counted, inner
        self.update(data)

    def update(self, data: bytes) -> None:
        self.counted.bytes += len(data)
        self.inner.update(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _hashed(tmp_path: Path, counted: _Counted, count: int) -> int:
    """The bytes the findings cache hashes in a cold `validate` of `count` more decks."""
    game = _game(tmp_path, count)
    counted.bytes = 0
    assert _run(str(game), "-f", "json") == (0, "[]\n")
    return counted.bytes


def test_a_files_names_cost_the_same_whatever_the_files(cache, tmp_path, monkeypatch):  # noqa: F811
    counted = _Counted()
    monkeypatch.setattr(validate_cache, "hashlib", counted)
    _hashed(tmp_path / "warm", counted, 0)  # the code part, hashed once in a process
    none = _hashed(tmp_path, counted, 0)
    few = (_hashed(tmp_path, counted, 20) - none) / 20
    many = (_hashed(tmp_path, counted, 120) - none) / 120
    # each file's names in constant work: the bytes hashed a file do not grow with the
    # files (they grew with them: each name hashed the whole folder again)
    assert many < 1.2 * few, (none, few, many)  # was 11,567 and 19,472 bytes


def test_a_files_name_changes_with_it_and_the_other_files_but_content(tmp_path, monkeypatch):
    from tests.test_validate_cache_framed import _frame_units

    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    game = _game(tmp_path, 2)
    here, other = str(game / "decks" / "d0.yaml"), str(game / "decks" / "d1.yaml")

    def name() -> str | None:
        return _frame_units(game).framed_name_but("kind", here)

    first = name()
    assert first is not None and first == name()
    with open(other, "a", encoding="utf-8") as f:
        f.write("# another deck edited: the same name\n")
    assert name() == first
    with open(here, "a", encoding="utf-8") as f:
        f.write("# this deck edited\n")
    second = name()
    assert second != first
    with open(game / "boards" / "map.yaml", "a", encoding="utf-8") as f:
        f.write("# a file not content edited\n")
    assert name() not in (first, second)
