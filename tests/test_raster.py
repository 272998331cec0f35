"""PNG images come from the PDF pages build draws, and the same page gives the same bytes."""

from __future__ import annotations

import io

from PIL import Image

from toolkit.content.game import bundled_games, load_game
from toolkit.render.artifacts.cards import cards_pdf
from toolkit.render.build import BuildOptions
from toolkit.render.raster import png_pages


def test_pages_render_to_identical_pngs_at_the_asked_resolution():
    game = load_game(bundled_games()["whisky-game"])
    deck = next(d for d in game.valid(game.decks) if d.id == "characters")
    pdf = cards_pdf(game, [deck], "en", BuildOptions(["en"]))
    first = list(png_pages(pdf, dpi=36, last=0))
    again = list(png_pages(pdf, dpi=36, last=0))
    assert len(first) == 1 and first == again
    image = Image.open(io.BytesIO(first[0]))
    assert image.size == (round(595.28 / 2), round(841.89 / 2))  # A4 at 36 dpi
    lo, hi = image.convert("L").getextrema()
    assert hi - lo > 100  # the page is drawn, not blank
