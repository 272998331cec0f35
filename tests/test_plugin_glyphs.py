"""A game hands its board glyphs through a typed plugin field (`GamePlugin.board_glyphs`), not
an untyped side channel: the Whisky Game's map draws with them, other games have none."""

from __future__ import annotations

from toolkit.content.game import bundled_games, load_game
from toolkit.render.boards.look import plugin_glyphs


def test_the_whisky_game_hands_its_glyphs_and_others_none():
    games = bundled_games()
    glyphs = plugin_glyphs(load_game(games["whisky-game"]))
    assert glyphs and all(callable(glyph) for glyph in glyphs.values())
    assert plugin_glyphs(load_game(games["tokaido"])) == {}


def test_the_glyphs_draw_letters_in_the_font_the_renderer_hands_in():
    """The game never imports the renderer: the letters it draws (S, ?) are in the font the
    renderer's lookup names, asked when the glyph is drawn."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.fonts import font_name

    plugin = load_game(bundled_games()["whisky-game"]).plugin
    asked: list[str] = []
    glyphs = plugin.board_glyphs(lambda style: asked.append(style) or font_name(style))
    assert asked == []  # nothing is asked before a glyph draws
    canvas = Canvas(io.BytesIO())
    glyphs["s"](canvas, 20, 20, 12)
    glyphs["lost"](canvas, 40, 20, 12)
    glyphs["bottle"](canvas, 60, 20, 12)
    assert asked == ["bold", "bold"]
