"""A game's own font whose glyphs are heavy outlines (probe60-7): every glyph is filled from
its outline at each size a page prints it, so a 96 kB font of 64,000-point composite glyphs
took `export png` of a three-card game 24.7 s, and validate said nothing. A glyph a character
maps to is held to `MAX_GLYPH_POINTS` outline points, its components counted each time they
are drawn; real fonts pass."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

from tests.font_maker import make_font
from toolkit.render import game_fonts
from toolkit.render.game_fonts import MAX_GLYPH_POINTS


def zigzag(points: int) -> Glyph:
    """One closed contour of `points` points zig-zagging across the em."""
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    for i in range(1, points):
        pen.lineTo(((i * 37) % 1001, (i * 61) % 997 - 200))
    pen.closePath()
    return pen.glyph()


def composite(name: str, copies: int) -> Glyph:
    """A composite glyph drawing `name` `copies` times, each shifted."""
    glyph = Glyph()
    glyph.numberOfContours = -1
    glyph.components = []
    for j in range(copies):
        part = GlyphComponent()
        part.glyphName, part.x, part.y, part.flags = name, j * 3, j, 0x4
        glyph.components.append(part)
    return glyph


def font_builder(glyphs: dict[str, Glyph], cmap: dict[int, str], family: str) -> FontBuilder:
    """A TrueType font of `glyphs` (besides .notdef and space), mapped by `cmap`, to save."""
    names = [".notdef", "space", *glyphs]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({32: "space", **cmap})
    empty = TTGlyphPen(None).glyph()
    builder.setupGlyf({".notdef": empty, "space": empty, **glyphs})
    builder.setupHorizontalMetrics({name: (600, 0) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    return builder


def heavy_font(path: Path, glyphs: dict[str, Glyph], cmap: dict[int, str]) -> Path:
    """A TrueType font "Heavy" of `glyphs` (besides .notdef and space), mapped by `cmap`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    font_builder(glyphs, cmap, "Heavy").save(str(path))
    return path


def read(path: Path) -> tuple[str, str, str] | str:
    return game_fonts.read_face(path, path.parent.resolve())


def heavy_game(root: Path, text: str, glyphs: dict[str, Glyph], cmap: dict[int, str]) -> Path:
    """An English game printing `text` (a card's name and text) in the font "Heavy" of
    `glyphs` (`heavy_font`)."""
    (root / "decks").mkdir(parents=True)
    (root / "game.yaml").write_text(
        "id: game\ntitle: {en: Game}\nlanguages: [en]\nsource_language: en\n"
        "players: {min: 2, max: 4}\nrules: {}\nfiles:\n  decks: [decks/cards.yaml]\n"
        "style:\n  font: Heavy\n"
    )
    (root / "decks" / "cards.yaml").write_text(
        "id: cards\nkind: actions\nname: {en: Deck}\nsize: poker\ncards:\n"
        f"  - id: one\n    name: {{en: {text}}}\n    text: {{en: {text}}}\n"
    )
    heavy_font(root / "fonts" / "Heavy.ttf", glyphs, cmap)
    return root


def test_a_glyph_past_the_bound_is_refused_at_the_font_file(run_cli, tmp_path):
    glyphs = {"A": zigzag(MAX_GLYPH_POINTS + 1)}
    game = heavy_game(tmp_path / "game", "A", glyphs, {65: "A"})
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "P009"]
    assert [d["file"].removeprefix(f"{game}/") for d in found] == ["fonts/Heavy.ttf"]
    message = found[0]["message"]
    assert "'A' (U+0041)" in message and f"{MAX_GLYPH_POINTS + 1:,} outline points" in message
    assert f"the limit is {MAX_GLYPH_POINTS:,}" in message and "Simplify" in message
    assert result.exit_code == 1


def test_a_composite_counts_its_components_each_time_drawn(tmp_path):
    half = MAX_GLYPH_POINTS // 2 + 1  # one copy passes, two do not
    glyphs = {"part": zigzag(half), "B": composite("part", 2), "C": composite("part", 1)}
    why = read(heavy_font(tmp_path / "Heavy.ttf", glyphs, {66: "B", 67: "C"}))
    assert isinstance(why, str) and "'B' (U+0042)" in why and f"{2 * half:,} outline" in why
    light = read(heavy_font(tmp_path / "Light.ttf", glyphs, {67: "C"}))
    assert light[:2] == ("Heavy", "regular")  # the heavy composite maps no character


def test_nested_composites_multiply(tmp_path):
    glyphs = {"part": zigzag(20), "x10": composite("part", 10), "D": composite("x10", 30)}
    why = read(heavy_font(tmp_path / "Heavy.ttf", glyphs, {68: "D"}))
    assert isinstance(why, str) and "6,000 outline points" in why


def test_a_glyph_at_the_bound_passes(tmp_path):
    glyphs = {"A": zigzag(MAX_GLYPH_POINTS)}
    assert read(heavy_font(tmp_path / "Heavy.ttf", glyphs, {65: "A"}))[:2] == ("Heavy", "regular")


def test_a_real_font_passes(tmp_path):
    chars = "".join(chr(c) for c in range(0x20, 0x250)) + "€™−“”‘’…◌"
    for style in ("regular", "bolditalic"):
        path = make_font(tmp_path / f"Real-{style}.ttf", "Real Sans", style, chars)
        assert read(path)[:2] == ("Real Sans", style)


def test_a_composite_cycle_ends_and_counts_each_glyph_once(tmp_path, monkeypatch):
    # glyph order: .notdef 0, space 1, part 2, A 3; composites 3 -> (2, 3, 4), 4 -> (3, 2)
    glyphs = {"part": zigzag(10), "A": composite("part", 1)}
    data = heavy_font(tmp_path / "Cycle.ttf", glyphs, {65: "A"}).read_bytes()
    face = SimpleNamespace(charToGlyph={65: 3})
    named = {3: [2, 3, 4], 4: [3, 2]}
    game_fonts._outlines(face, data, named)  # ends, under the bound
    monkeypatch.setattr(game_fonts, "MAX_GLYPH_POINTS", 15)
    with pytest.raises(game_fonts._CostlyFont, match="has 20 outline points"):
        game_fonts._outlines(face, data, named)  # part, then part again through 4
