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
        f"  - {{kind: text, text: '{{{{ card.text }}}}', size: {{max: {size}, min: {size}}},"
        " fit: false, box: {x: 2, y: 2, w: 59, h: 84}}\n"
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


def _priced_apart(tmp_path: Path, run_cli, monkeypatch, costly: Path, cheap: Path) -> str:
    """With the export's bound between the two games' prices (their faces' own pixels
    alike), `export png --lang en` of `costly` is refused before drawing and `cheap` drawn:
    the refusal."""
    cost = {g: load_price(_load(g), 300) for g in (costly, cheap)}
    assert cost[costly] > 10 * cost[cheap], cost
    pixels = 2 * faces.face_pixels(printed_decks(load_game(cheap))[0], 300) + 4
    monkeypatch.setattr(faces, "MAX_EXPORT_PIXELS", pixels + (cost[costly] + cost[cheap]) // 2)
    out = tmp_path / "out"
    refused = run_cli("export", "png", str(costly), "--lang", "en", "--out", str(out))
    assert refused.exit_code == 1, refused.output
    assert not list(out.rglob("*.png"))
    drawn = run_cli("export", "png", str(cheap), "--lang", "en", "--out", str(out))
    assert drawn.exit_code == 0, drawn.output
    return refused.output


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
    said = _priced_apart(tmp_path, run_cli, monkeypatch, heavy, light)
    assert "a glyph of the game's fonts each size it prints at" in said


def test_a_game_in_the_toolkit_fonts_pays_nothing_for_its_glyphs(tmp_path):
    game = _game(tmp_path / "g", 200)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("style:\n  font: Heavy\n", ""))
    assert _load(game) == FaceLoad()


def test_a_glyph_a_template_prints_is_judged_when_drawn(tmp_path, run_cli):
    # probe 62-5: validate judges the characters a game writes; a layout template printed
    # U+4E00 (written nowhere) in a glyph of 741 em, and `export png` took 25 s
    glyphs = {f"g{c}": zigzag(12) for c in LETTERS} | {"hidden": zigzag(1_000)}
    cmap = {ord(c): f"g{c}" for c in LETTERS} | {0x4E00: "hidden"}
    game = heavy_game(tmp_path / "game", "A", glyphs, cmap)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("{en: Game}", "{en: GAME}"))
    (game / "layouts").mkdir()
    (game / "layouts" / "hidden.yaml").write_text(
        "id: hidden\nelements:\n  - {kind: text, text: \"{{ '%c'|format(19968) }}\","
        " size: {max: 12, min: 12}, box: {x: 2, y: 2, w: 59, h: 84}}\n"
    )
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker\n", "size: poker\nlayout: hidden\n"))
    deck.write_text(deck.read_text().replace("{en: Deck}", "{en: DECK}"))
    checked = run_cli("validate", str(game), "--no-cache")
    assert "P009" not in checked.output  # what validate sees written is light
    out = tmp_path / "out"
    refused = run_cli("export", "png", str(game), "--out", str(out))
    assert refused.exit_code == 1, refused.output
    assert "print characters a game font cannot draw" in refused.output
    assert "its glyph for '一' (U+4E00) has" in refused.output and "(P009)" in refused.output
    assert not list(out.rglob("*.png"))

    from toolkit.preview import live

    preview = live.Preview(game)
    preview.load(check=False)
    key = "card/cards/one/en/front"
    preview.page(key)
    assert preview.cache.page(key) is None
    assert "its glyph for '一' (U+4E00)" in preview.cache.errors[key]


def _advancing(
    root: Path, advance: int, size: int, low: int = 0, high: int = 1_000, words: int = 250
) -> Path:
    """`_game` of light glyphs each a square from `low` to `high` font units (1,000 an em)
    advancing `advance` units, its one text element at `size` points printing `words` words
    of four letters."""
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    from tests.test_hardening_fonts60 import font_builder

    game = _game(root, 12, (size,), cards=1)
    pen = TTGlyphPen(None)
    pen.moveTo((low, low))
    for x, y in ((low, high), (high, high), (high, low)):
        pen.lineTo((x, y))
    pen.closePath()
    square = pen.glyph()
    glyphs = {f"g{c}": square for c in LETTERS}
    builder = font_builder(glyphs, {ord(c): f"g{c}" for c in LETTERS}, "Heavy")
    names = [".notdef", "space", *glyphs]
    builder.setupHorizontalMetrics({name: (advance, 0) for name in names})
    builder.save(str(game / "fonts" / "Heavy.ttf"))
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace(f"text: {{en: {LETTERS}}}", f"text: {{en: {'ABCD ' * words}}}")
    )
    return game


def test_letters_a_font_prints_over_each_other_are_priced(tmp_path, run_cli):
    # probe 62-6: glyphs that advance nothing fit any text on one line at any size: 3,900
    # letters on each of 80 full-card boxes at 96 points took `export png --lang en` 16 s
    flat = _load(_advancing(tmp_path / "zero", 0, 24))
    assert flat.overprint > 700  # 1,000 letters, where a 59 × 84 mm box holds ~280 at 24 pt
    assert _load(_advancing(tmp_path / "honest", 600, 24)).overprint == 0  # the lines shown


def test_an_export_of_overprinted_letters_is_refused_before_drawing(tmp_path, run_cli, monkeypatch):
    zero, honest = _advancing(tmp_path / "zero", 0, 96), _advancing(tmp_path / "honest", 600, 96)
    said = _priced_apart(tmp_path, run_cli, monkeypatch, zero, honest)
    assert "letters a font prints over each other" in said


def _with_rulebook(game: Path) -> Path:
    """`game` with an English rulebook of capitals (its headings and body in the font)."""
    (game / "rulebook").mkdir()
    (game / "rulebook" / "en.md").write_text(f"# {LETTERS}\n\n## {LETTERS}\n\n{LETTERS}\n")
    manifest = game / "game.yaml"
    text = manifest.read_text().replace(
        "  decks: [decks/cards.yaml]\n",
        "  decks: [decks/cards.yaml]\n  rulebook: {en: rulebook/en.md}\n",
    )
    manifest.write_text(text)
    return game


def test_a_rulebook_in_a_game_font_is_priced_by_the_glyphs_it_draws(tmp_path, monkeypatch):
    import pytest

    from toolkit.render.artifacts import BuildError
    from toolkit.render.exports import pages
    from toolkit.render.exports.png import rulebook_document, within_pixels
    from toolkit.render.glyph_tally import glyphs_tallied

    games = {p: load_game(_with_rulebook(_game(tmp_path / str(p), p))) for p in (12, 400)}
    glyphs = {}
    for points, game in games.items():
        with glyphs_tallied(game) as tally:
            pdf = rulebook_document(game, "en")
        assert pdf is not None and tally.drawn  # its headings and body, at their sizes
        glyphs[points] = load_price(tally.load(), 150)
    assert glyphs[400] > 10 * glyphs[12]
    plain = pages._Priced([("rulebook", pages.page_sizes(pdf), FaceLoad())]).cost(150)
    monkeypatch.setattr(pages, "MAX_EXPORT_PAGE_COST", plain + (glyphs[400] + glyphs[12]) // 2)
    with pytest.raises(BuildError, match="rulebook page"):  # its glyphs take it past
        pages.priced_pages(games[400], ["en"], 150, "--page-dpi", rulebook_document, within_pixels)
    pages.priced_pages(games[12], ["en"], 150, "--page-dpi", rulebook_document, within_pixels)


def test_glyphs_that_paint_past_their_square_are_priced_for_each_letter(
    tmp_path, run_cli, monkeypatch
):
    # probe 63-1: squares 8.8 em a side (under P009's 4-em reach) advancing a quarter em fit
    # 3,000 letters at 6 pt on a card, and each letter painted 77 em²: export png 30 s
    big = _advancing(tmp_path / "big", 250, 6, -3_900, 4_900, words=60)
    honest = _advancing(tmp_path / "honest", 250, 6, 0, 700, words=60)
    assert _load(big).glyph_ink_em > 240 * 70 and _load(honest).glyph_ink_em == 0
    _priced_apart(tmp_path, run_cli, monkeypatch, big, honest)
