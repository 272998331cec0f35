"""Probe 42 N3 and M4: exports of many small decks. `export tts`/`png` checked each file
against every file written before it (`path in written` on a list: 2 M comparisons at 2,000
files, ~72 M at 12,000), and `export tts`'s pixel bound counted each face twice while a
one-card deck encodes a 2 × 2 sheet and a back image of its own (1,000 one-card decks: 774 M
counted, 967 M encoded)."""

from __future__ import annotations

import shutil
from pathlib import Path, PurePath
from typing import Any

import pytest

from tests.conftest import FIXTURES

DECKS = 30


def _game(tmp_path: Path, decks: int = DECKS) -> Path:
    """The fixture game with `decks` more decks of one poker card each."""
    game = tmp_path / "many"
    shutil.copytree(FIXTURES / "base", game)
    manifest = game / "game.yaml"
    listed = "".join(f"    - decks/d{d}.yaml\n" for d in range(decks))
    first = "    - decks/cards.yaml\n"
    manifest.write_text(manifest.read_text().replace(first, first + listed))
    for d in range(decks):
        (game / "decks" / f"d{d}.yaml").write_text(
            f"id: d{d}\nkind: actions\nname: {{fr: D{d}, es: D{d}, en: D{d}}}\nsize: poker\n"
            f"cards:\n  - {{id: k{d}, name: {{fr: A{d}, es: A{d}, en: A{d}}}}}\n"
        )
    return game


@pytest.mark.parametrize("kind", ["png", "tts"])
def test_each_file_is_checked_against_those_written_without_comparing_them_all(
    run_cli, tmp_path, monkeypatch, kind
):
    import importlib

    module = importlib.import_module(f"toolkit.render.exports.{kind}")
    compared, checked = [0], [0]
    equal, once = PurePath.__eq__, module.once

    def counting_eq(self: PurePath, other: Any) -> Any:
        compared[0] += 1
        return equal(self, other)

    def counted(written: Any, path: Path) -> None:
        checked[0] += 1
        with monkeypatch.context() as patch:  # the comparisons the check itself makes
            patch.setattr(PurePath, "__eq__", counting_eq)
            once(written, path)

    monkeypatch.setattr(module, "once", counted)
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli("export", kind, str(game), "--lang", "en", "--dpi", "30", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert checked[0] > 2 * DECKS  # every file is checked…
    assert compared[0] < checked[0]  # …at a cost of its own (in a list: ~files² / 2)
