"""Inline icons print wherever a text prints: `:name:` in rulebook prose, tables and the card
reference is the icon, sized to its text; a game's SVG icon takes the colour it is printed in
through `currentColor` (fill and stroke), and one without keeps its own colours."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from toolkit.render.icons import BUILTIN, IconSet, draw_icon
from toolkit.render.raster import images_selected
from toolkit.render.svg_icons import load_svg

TINTED = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
  <circle cx="30" cy="50" r="20" fill="currentColor"/>
  <line x1="60" y1="10" x2="60" y2="90" stroke="currentColor" stroke-width="12"/>
  <rect x="80" y="40" width="15" height="20" fill="#00aa00"/>
</svg>
"""
OWN = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
  <circle cx="30" cy="50" r="20"/>
  <line x1="60" y1="10" x2="60" y2="90" stroke="#0000ff" stroke-width="12"/>
</svg>
"""
# A coin: its rim in the text's colour, its centre always green (to find it on a page).
DOUBLOON = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <circle cx="50" cy="50" r="46" fill="currentColor"/>
  <circle cx="50" cy="50" r="30" fill="#00c000"/>
</svg>
"""
GREEN = (0, 192, 0)


def _pixels(tmp_path: Path, svg: str, colour: str) -> list[tuple[int, int, int]]:
    """The icon drawn at 100 pt in `colour`, read at the circle, the line and the square."""
    path = tmp_path / "icon.svg"
    path.write_text(svg, encoding="utf-8")
    icon, problem = load_svg(path, "icons/icon.svg")
    assert icon is not None and problem is None
    icons = IconSet({**BUILTIN.drawers, "icon": icon}, BUILTIN.names | {"icon"})
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(100, 100), invariant=1)
    assert draw_icon(canvas, "icon", 0, 0, 100, colour, icons)
    canvas.showPage()
    canvas.save()
    image = images_selected(buffer.getvalue(), [0], 72)[0]
    return [image.getpixel(xy) for xy in ((30, 50), (60, 50), (87, 50))]


def test_current_color_takes_the_colour_asked_for(tmp_path):
    assert _pixels(tmp_path, TINTED, "#cc0000") == [(204, 0, 0), (204, 0, 0), (0, 170, 0)]
    assert _pixels(tmp_path, TINTED, "#1144ee")[:2] == [(17, 68, 238)] * 2


def test_an_svg_without_current_color_keeps_its_own_colours(tmp_path):
    circle, line, _ = _pixels(tmp_path, OWN, "#cc0000")
    assert circle == (0, 0, 0) and line == (0, 0, 255)  # SVG's default black, its own blue


def _designer_game(run_cli, tmp_path: Path) -> Path:
    result = run_cli("new", "doubloons", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    game = tmp_path / "doubloons"
    (game / "icons").mkdir(exist_ok=True)  # `playset new` gives an example icon
    (game / "icons" / "doubloon.svg").write_text(DOUBLOON, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("en: Score {points} points.", "en: Gain {points} :doubloon:."))
    rulebook = game / "rulebook" / "en.md"
    rulebook.write_text(
        rulebook.read_text(encoding="utf-8")
        + "\n## Treasure\n\nEach :doubloon: scores a point. Count your **:doubloon:** aloud.\n"
        + "\n| Card | Gain |\n|---|---|\n| Treasure | 3 :doubloon: |\n",
        encoding="utf-8",
    )
    return game


def test_inline_icons_print_in_the_rulebook(run_cli, tmp_path):
    game, out = _designer_game(run_cli, tmp_path), tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--only", "rulebook")
    assert result.exit_code == 0, result.output
    pdf = (out / "doubloons" / "en" / "rulebook.pdf").read_bytes()
    pages = PdfReader(io.BytesIO(pdf)).pages
    text = "\n".join(page.extract_text() for page in pages)
    assert "Each" in text and "Gain 3" in text  # prose and the card reference printed…
    assert ":doubloon:" not in text and "doubloon" not in text  # …with icons, not words
    images = images_selected(pdf, list(range(len(pages))), 150)
    coins = [dict((c, n) for n, c in image.getcolors(1 << 24)).get(GREEN, 0) for image in images]
    assert sum(1 for n in coins if n) == 1  # all on the rules page: prose, table, reference
    page = images[coins.index(max(coins))]
    # Four coins (prose twice, the table, the reference), each about 10 px wide at 150 dpi.
    assert 4 * 30 <= max(coins) <= 4 * 120
    assert page.size == (1240, 1754)
