"""A game font's glyphs are priced in the export as a rasteriser walks them: each glyph once
for each size a language's document prints it at (probe 62-2: 450 distinct glyphs of 87 em,
each under every font bound, at 17 sizes in 10 languages took `export png` of a 70 kB game
31 s, where a light font took 5 s; validate was clean and the export was not refused)."""

from __future__ import annotations

import string
from pathlib import Path

from tests.test_hardening_fonts60 import heavy_game, zigzag
from toolkit.content.game import load_game
from toolkit.render.exports import faces
from toolkit.render.exports.faces import deck_load, printed_decks
from toolkit.render.raster_weight import FaceLoad, load_price

LETTERS = string.ascii_uppercase


def _game(root: Path, points: int, sizes: tuple[int, ...] = (9,), cards: int = 2) -> Path:
    """`heavy_game` of every capital a glyph of `points` points, its cards printing them all
    in one text element per size of `sizes`."""
    glyphs = {f"g{c}": zigzag(points) for c in LETTERS}
    game = heavy_game(root, LETTERS, glyphs, {ord(c): f"g{c}" for c in LETTERS})
    elements = "".join(
        f"  - {{kind: text, text: '{{{{ card.text }}}}', size: {{max: {size}, min: {size}}}, fit: false,"
        " box: {x: 2, y: 2, w: 59, h: 84}}\n"
        for size in sizes
    )
    (game / "layouts").mkdir()
    (game / "layouts" / "sized.yaml").write_text(f"id: sized\nelements:\n{elements}")
    deck = game / "decks" / "cards.yaml"
    rows = "".join(
        f"  - {{id: c{i}, name: {{en: {LETTERS[i]}}}, text: {{en: {LETTERS}}}}}\n"
        for i in range(cards)
    )
    deck.write_text(
        "id: cards\nkind: actions\nname: {en: DECK}\nsize: poker\nlayout: sized\ncards:\n" + rows
    )
    manifest = game / "game.yaml"  # every letter it prints in its font: validate is clean
    manifest.write_text(manifest.read_text().replace("{en: Game}", "{en: GAME}"))
    return game


def _load(game: Path) -> FaceLoad:
    loaded = load_game(game)
    (deck,) = printed_decks(loaded)
    return deck_load(loaded, deck, ["en"])


def test_each_glyph_is_counted_once_for_each_size_a_language_prints_it(tmp_path):
    one = _load(_game(tmp_path / "one", 200))
    many_cards = _load(_game(tmp_path / "cards", 200, cards=6))
    sizes = _load(_game(tmp_path / "sizes", 200, sizes=(9, 10, 11)))
    assert one.glyph_points > 26 * 200  # every capital's glyph at its size (and the name's)
    assert many_cards.glyph_points == one.glyph_points  # the same glyphs at the same size
    assert sizes.glyph_points - one.glyph_points == 2 * 26 * 200  # two sizes more
    assert sizes.glyph_em - one.glyph_em > one.glyph_em  # two sizes more, each larger
    light = _load(_game(tmp_path / "light", 12))
    assert load_price(one, 300) > 10 * load_price(light, 300)


def test_an_export_of_heavy_glyphs_at_many_sizes_is_refused_before_drawing(
    tmp_path, run_cli, monkeypatch
):
    sizes = tuple(range(9, 21))
    heavy = _game(tmp_path / "heavy", 400, sizes)
    light = _game(tmp_path / "light", 12, sizes)
    cost = {g: load_price(_load(g), 300) for g in (heavy, light)}
    # the bound between the two exports' prices (the faces' own pixels alike in both)
    pixels = 2 * faces.face_pixels(printed_decks(load_game(light))[0], 300) + 4
    monkeypatch.setattr(faces, "MAX_EXPORT_PIXELS", pixels + (cost[heavy] + cost[light]) // 2)
    out = tmp_path / "out"
    refused = run_cli("export", "png", str(heavy), "--lang", "en", "--out", str(out))
    assert refused.exit_code == 1, refused.output
    assert "a glyph of the game's fonts each size it prints at" in refused.output
    assert not list(out.rglob("*.png"))
    drawn = run_cli("export", "png", str(light), "--lang", "en", "--out", str(out))
    assert drawn.exit_code == 0, drawn.output


def test_a_game_in_the_toolkit_fonts_pays_nothing_for_its_glyphs(tmp_path):
    game = _game(tmp_path / "g", 200)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("style:\n  font: Heavy\n", ""))
    assert _load(game) == FaceLoad()
