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
