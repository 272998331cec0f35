"""The outlines of a game font's glyphs, priced by their length (probe 61-4): the bounds on
a glyph's points and reach held each glyph, but ~450 distinct zig-zag glyphs just under
them took `export png` of a 40 kB game 26.9 s at five large sizes. A glyph may have
`MAX_GLYPH_OUTLINE` em of outline, and the glyphs of every character a game may print
`MAX_PRINTED_OUTLINE` together; real fonts pass."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_hardening_fonts60 import heavy_game, zigzag
from toolkit.render import game_fonts


def _p009(run_cli, root: Path) -> list[str]:
    result = run_cli("validate", str(root), "--format", "json", "--no-cache")
    return [d["message"] for d in json.loads(result.stdout) if d["code"] == "P009"]


def test_a_glyph_of_a_long_outline_is_refused(run_cli, tmp_path):
    # 1,000 points zig-zagging across the em: ~185 em of outline, under the points bound
    game = heavy_game(tmp_path / "g", "A", {"A": zigzag(1_000)}, {65: "A"})
    (message,) = _p009(run_cli, game)
    assert "'A' (U+0041)" in message and "em of outline" in message, message
    assert f"the limit is {game_fonts.MAX_GLYPH_OUTLINE} em a glyph" in message


def test_the_glyphs_a_game_prints_are_bounded_together(run_cli, tmp_path, monkeypatch):
    glyphs = {name: zigzag(200) for name in "ABCD"}  # ~37 em each
    cmap = {ord(name): name for name in glyphs}
    game = heavy_game(tmp_path / "g", "ABCD", glyphs, cmap)
    assert _p009(run_cli, game) == []
    monkeypatch.setattr(game_fonts, "MAX_PRINTED_OUTLINE", 100)
    game_fonts._REACHES.clear()
    (message,) = _p009(run_cli, game)
    assert "past 100 em together" in message and "'C' (U+0043)" in message, message
