"""A game's own font whose glyphs have few points but a huge outline (fonts60's finding): each
glyph is rendered as a bitmap of its outline's box at each size a page prints it, so a 17.6 kB
font of 4-point squares 32 em a side took `export png` of a 450-letter game 14.3 s, and
validate said nothing. A glyph of a character the game may print is held to
`MAX_GLYPH_REACH` em beyond the em square, measured from its decoded points (a glyph header's
box may lie); real fonts pass."""

from __future__ import annotations

import json
from pathlib import Path

from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

from tests.font_maker import make_font
from tests.test_hardening_fonts60 import font_builder
from toolkit.render import game_fonts
from toolkit.render.game_fonts import MAX_GLYPH_POINTS, MAX_GLYPH_REACH

EM = 1000


def square(low: int, high: int) -> Glyph:
    """A 4-point square from (low, low) to (high, high)."""
    pen = TTGlyphPen(None)
    pen.moveTo((low, low))
    pen.lineTo((high, low))
    pen.lineTo((high, high))
    pen.lineTo((low, high))
    pen.closePath()
    return pen.glyph()


def placed(name: str, x: int, scale: float | None = None) -> Glyph:
    """A composite glyph drawing `name` once, shifted by `x` (and scaled by `scale`)."""
    part = GlyphComponent()
    part.glyphName, part.x, part.y, part.flags = name, x, 0, 0x4
    if scale is not None:
        part.transform = [[scale, 0], [0, scale]]
    glyph = Glyph()
    glyph.numberOfContours, glyph.components = -1, [part]
    return glyph


def far_font(
    path: Path, glyphs: dict[str, Glyph], cmap: dict[int, str], header: bool = True
) -> Path:
    """A TrueType font "Far" of `glyphs` (besides .notdef and space), mapped by `cmap`; with
    `header` False, every glyph header keeps the box of a small square (a lying header)."""
    builder = font_builder(glyphs, cmap, "Far")  # EM units a square em
    if not header:
        builder.font.recalcBBoxes = False
        for name in glyphs:
            glyph = builder.font["glyf"][name]
            glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax = 0, 0, 500, 500
    path.parent.mkdir(parents=True, exist_ok=True)
    builder.save(str(path))
    return path


def far_game(root: Path, text: str = "A", rulebook: str | None = None) -> Path:
    """A one-card game printing `text` in the family "Far" (and a rulebook, if given)."""
    game = root / "game"
    (game / "decks").mkdir(parents=True)
    listed = "  rulebook: {en: rulebook/en.md}\n" if rulebook is not None else ""
    (game / "game.yaml").write_text(
        "id: game\ntitle: {en: Game}\nlanguages: [en]\nsource_language: en\n"
        "players: {min: 2, max: 4}\nrules: {}\nfiles:\n  decks: [decks/cards.yaml]\n"
        f"{listed}style:\n  font: Far\n"
    )
    (game / "decks" / "cards.yaml").write_text(
        "id: cards\nkind: actions\nname: {en: Deck}\nsize: poker\ncards:\n"
        f"  - id: one\n    name: {{en: {text}}}\n    text: {{en: {text}}}\n"
    )
    if rulebook is not None:
        (game / "rulebook").mkdir()
        (game / "rulebook" / "en.md").write_text(rulebook, encoding="utf-8")
    return game


def p009(run_cli, game: Path) -> tuple[list[str], int]:
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = [d for d in json.loads(result.stdout) if d["code"] == "P009"]
    assert all(d["file"] == f"{game}/fonts/Far.ttf" for d in found)
    return [d["message"] for d in found], result.exit_code


def test_a_glyph_reaching_far_past_the_em_is_refused_at_the_font_file(run_cli, tmp_path):
    game = far_game(tmp_path)
    far_font(game / "fonts" / "Far.ttf", {"A": square(-16 * EM, 16 * EM)}, {65: "A"})
    messages, code = p009(run_cli, game)
    assert len(messages) == 1 and code == 1
    assert "'A' (U+0041)" in messages[0] and "reaches 16.0 em beyond the em square" in messages[0]
    assert f"the limit is {MAX_GLYPH_REACH} em" in messages[0] and "another font" in messages[0]


def test_a_glyph_header_that_lies_is_not_believed(run_cli, tmp_path):
    game = far_game(tmp_path)
    glyphs = {"A": square(-16 * EM, 16 * EM)}
    path = far_font(game / "fonts" / "Far.ttf", glyphs, {65: "A"}, header=False)
    from fontTools.ttLib import TTFont

    assert TTFont(path)["glyf"]["A"].xMax == 500  # the header claims half an em
    messages, _ = p009(run_cli, game)
    assert len(messages) == 1 and "x -16,000 to 16,000" in messages[0]


def test_composites_are_measured_where_their_components_land(run_cli, tmp_path):
    glyphs = {"dot": square(0, 100), "A": placed("dot", 30 * EM), "B": placed("dot", 0, 1.5)}
    game = far_game(tmp_path, "AB")
    far_font(game / "fonts" / "Far.ttf", glyphs, {65: "A", 66: "B"})
    messages, _ = p009(run_cli, game)
    assert len(messages) == 1 and "'A' (U+0041) reaches 29.1 em" in messages[0]
    glyphs = {"big": square(0, 4 * EM), "A": placed("big", 0), "B": placed("big", 0, 1.5)}
    other = far_game(tmp_path / "scaled", "AB")
    far_font(other / "fonts" / "Far.ttf", glyphs, {65: "A", 66: "B"})
    messages, _ = p009(run_cli, other)  # 3 em beyond passes; scaled by 1.5, 5 em does not
    assert len(messages) == 1 and "'B' (U+0042) reaches 5.0 em" in messages[0]


def test_a_character_the_rulebook_template_prints_is_measured(run_cli, tmp_path):
    glyphs = {"A": square(0, 500), "far": square(-16 * EM, 16 * EM)}
    game = far_game(tmp_path, "A", rulebook='# Rules\n\nPlay {{ "\\u4e00" }}.\n')
    far_font(game / "fonts" / "Far.ttf", glyphs, {65: "A", 0x4E00: "far"})
    messages, _ = p009(run_cli, game)
    assert len(messages) == 1 and "(U+4E00)" in messages[0]


def test_a_far_glyph_no_text_prints_is_not_decoded(run_cli, tmp_path):
    glyphs = {"A": square(0, 500), "far": square(-16 * EM, 16 * EM)}
    game = far_game(tmp_path, "A")
    far_font(game / "fonts" / "Far.ttf", glyphs, {65: "A", 0x4E00: "far"})
    assert p009(run_cli, game)[0] == []


def test_the_bound(tmp_path):
    reach = MAX_GLYPH_REACH * EM
    glyphs = {"A": square(-reach, EM + reach), "B": square(-reach - 1, 0)}
    path = far_font(tmp_path / "Far.ttf", glyphs, {65: "A", 66: "B"})
    family, _, key = game_fonts.read_face(path, tmp_path.resolve())
    assert family == "Far"
    assert game_fonts.reach_problem(key, "A") is None
    why = game_fonts.reach_problem(key, "AB")
    assert why is not None and "'B' (U+0042) reaches 4.1 em" in why


def test_a_real_font_passes(tmp_path):
    chars = "".join(chr(c) for c in range(0x20, 0x250)) + "€™−“”‘’…◌"
    for style in ("regular", "bolditalic"):
        path = make_font(tmp_path / f"Real-{style}.ttf", "Real Sans", style, chars)
        family, _, key = game_fonts.read_face(path, tmp_path.resolve())
        assert family == "Real Sans" and game_fonts.reach_problem(key, chars) is None


def test_a_composite_naming_itself_ends(tmp_path):
    glyphs = {"dot": square(0, 100), "A": placed("dot", 0)}
    path = far_font(tmp_path / "Far.ttf", glyphs, {65: "A"})
    data = bytearray(path.read_bytes())
    tables = game_fonts._tables(bytes(data))
    start = tables[b"glyf"][0] + game_fonts._glyph_offsets(bytes(data), tables)[3]
    data[start + 12 : start + 14] = (3).to_bytes(2, "big")  # A (glyph 3) now names itself
    path.write_bytes(bytes(data))
    family, _, key = game_fonts.read_face(path, tmp_path.resolve())
    assert family == "Far" and game_fonts.reach_problem(key, "A") is None


def test_components_nested_past_the_bound_are_refused(tmp_path):
    depth = game_fonts.MAX_COMPONENT_DEPTH + 2
    glyphs = {"dot": square(0, 100), f"c{depth}": placed("dot", 10)}
    for level in range(depth - 1, -1, -1):
        glyphs[f"c{level}"] = placed(f"c{level + 1}", 10)
    path = far_font(tmp_path / "Far.ttf", glyphs, {65: "c0", 66: f"c{depth - 10}"})
    family, _, key = game_fonts.read_face(path, tmp_path.resolve())
    assert game_fonts.reach_problem(key, "B") is None  # 11 deep
    why = game_fonts.reach_problem(key, "AB")
    assert why is not None and "'A' (U+0041) nests composite glyphs more than" in why
    assert game_fonts.reach_problem(key, "B") is None and game_fonts.reach_problem(key, "A") == why


def zigzag(points: int, size: int) -> Glyph:
    """One closed contour of `points` points zig-zagging across a box `size` units a side."""
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((size, size))
    for i in range(2, points):
        pen.lineTo(((i * 37) % 1001 * size // 1000, (i * 61) % 997 * size // 1000))
    pen.closePath()
    return pen.glyph()


def test_a_glyph_larger_than_an_em_is_held_to_its_points_per_square_em(run_cli, tmp_path):
    points = MAX_GLYPH_POINTS // 4 + 100  # passes in an em, not over 2 x 2 em
    # (A in a quarter em: across the whole em its outline would pass MAX_GLYPH_OUTLINE)
    glyphs = {"A": zigzag(points, EM // 4), "B": zigzag(points, 2 * EM), "C": zigzag(150, 5 * EM)}
    game = far_game(tmp_path, "ABC")
    far_font(game / "fonts" / "Far.ttf", glyphs, {65: "A", 66: "B", 67: "C"})
    messages, code = p009(run_cli, game)
    assert len(messages) == 1 and code == 1
    assert f"'B' (U+0042) has {points:,} outline points over 2.0 x 2.0 em" in messages[0]
    assert f"the limit is {MAX_GLYPH_POINTS:,} points per square em" in messages[0]


def test_a_component_placed_by_matching_points_is_measured_within_its_parts(tmp_path):
    from fontTools.misc.arrayTools import calcIntBounds
    from fontTools.ttLib import TTFont

    glyph = placed("far", 0)
    matched = GlyphComponent()
    matched.glyphName, matched.firstPt, matched.secondPt, matched.flags = "dot", 2, 0, 0
    glyph.components.append(matched)  # dot's point 0 on far's point 2 (20,100, 100)
    glyphs = {"dot": square(0, 100), "far": square(20 * EM, 20 * EM + 100), "A": glyph}
    path = far_font(tmp_path / "Far.ttf", glyphs, {65: "A"})
    font = TTFont(path)
    exact = calcIntBounds(font["glyf"]["A"].getCoordinates(font["glyf"])[0])
    assert exact == (20 * EM, 20 * EM, 20 * EM + 200, 20 * EM + 200)
    family, _, key = game_fonts.read_face(path, tmp_path.resolve())
    why = game_fonts.reach_problem(key, "A")
    assert why is not None and "x 19,900 to 20,200" in why  # the parts widened by dot each way
