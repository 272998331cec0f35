"""What a picture of the cards or a board draws, priced where the last bounds missed it
(probe 52): round caps on short dashes (an icon's, 52-6; a board line's, 52-3) paint a disc
the stroke's width across each, and the shapes of a game's SVG icons were in no export or
preview price (52-4, 52-5: 300 faces of 15,400 icon shapes took `export png` 54 s at the
--dpi its own refusal named, and the preview 69 s at start)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from tests.test_hardening_board_dashes58 import _game as _board_game


def _icon(tmp_path: Path, body: str):
    from toolkit.render.svg_icons import load_svg

    path = tmp_path / "i.svg"
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>', "utf-8"
    )
    icon, problem = load_svg(path, "icons/i.svg")
    assert problem is None and icon is not None
    return icon


@pytest.mark.parametrize(("cap", "capped"), [("butt", False), ("round", True), ("square", True)])
def test_an_icons_dash_caps_count_in_what_it_paints(tmp_path, cap, capped):
    circle = (
        '<circle cx="50" cy="50" r="40" fill="none" stroke="#000" stroke-width="100"'
        f' stroke-linecap="{cap}" stroke-dasharray="0.5 0.5"/>'
    )
    coverage = _icon(tmp_path, circle).coverage
    # ~251 dashes, each with two caps of 100² on a box of 100²: ~500 boxes painted over
    assert (coverage > 400) is capped, coverage


def _caps_findings(run_cli, root: Path) -> list[dict]:
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = diagnostics_json(result.output)
    return [d for d in found if "closer than half the line's width" in d["message"]]


def test_a_board_line_of_round_capped_dashes_closer_than_its_width_is_refused(tmp_path, run_cli):
    root = _board_game(
        tmp_path, run_cli, "[" + ", ".join(["0.125"] * 8) + "], width: 20, cap: round"
    )
    found = _caps_findings(run_cli, root)
    assert len(found) == 1, found
    assert found[0]["code"] == "S005" and found[0]["line"] == 6, found[0]
    assert "0.25 points apart, closer than half the line's width (20)" in found[0]["message"]
    out = tmp_path / "out"
    result = run_cli("export", "png", str(root), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1 and not list(out.rglob("*.png"))


@pytest.mark.parametrize(
    "dash", ["[0, 1.5]", "[10, 10], width: 20, cap: butt", "[1, 9], width: 20, cap: round"]
)
def test_a_board_line_of_dots_or_dashes_half_a_width_apart_is_fine(tmp_path, run_cli, dash):
    # butt dashes closer than that are refused too since probe 62-8 (test_hardening_lines62)
    root = _board_game(tmp_path, run_cli, dash)
    assert _caps_findings(run_cli, root) == []


def _heavy_icon_game(tmp_path: Path, run_cli, cards: int) -> Path:
    """A new game whose cards each draw 8 full-card uses of an icon of 480 stroked circles
    (3,840 icon shapes a face, within a face's 16,000)."""
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    circles = "".join(
        f'<circle cx="{5 + (i % 24) * 4}" cy="{5 + (i // 24) * 4.5}" r="1.5"/>' for i in range(480)
    )
    (root / "icons" / "many.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<g fill="none" stroke="currentColor" stroke-width="0.5">{circles}</g></svg>',
        "utf-8",
    )
    elements = "".join(
        "  - {kind: icon, icon: many, box: {x: 0, y: 0, w: 63, h: 88}}\n" for _ in range(8)
    )
    (root / "layouts" / "heavy.yaml").write_text(f"id: heavy\nelements:\n{elements}", "utf-8")
    deck = "id: cards\nkind: actions\nname: {en: Cards}\nsize: poker\nlayout: heavy\ncards:\n"
    deck += "".join(
        f"  - {{id: c{i}, name: {{en: C{i}}}, text: {{en: t}}}}\n" for i in range(cards)
    )
    (root / "decks" / "cards.yaml").write_text(deck, "utf-8")
    return root


def test_export_png_prices_the_shapes_of_the_icons_its_faces_draw(tmp_path, run_cli):
    root = _heavy_icon_game(tmp_path, run_cli, 200)
    check = run_cli("validate", str(root), "--no-cache", "--format", "json")
    errors = [d for d in diagnostics_json(check.output) if d["severity"] == "error"]
    assert errors == [], errors  # each face is within the icons' bounds
    out = tmp_path / "out"
    result = run_cli("export", "png", str(root), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "an SVG icon each of its shapes" in result.output
    assert not list(out.rglob("*.png"))
    from toolkit.render.raster_weight import FaceLoad, load_price

    # 200 faces of 3,840 shapes: ~1.4 s a hundred at 300 dpi, beside their pixels
    assert load_price(FaceLoad(200 * 3_840), 300) > 1_000_000_000


def test_the_preview_counts_the_icon_shapes_of_a_face_it_draws(tmp_path, run_cli):
    from toolkit.preview.face_budget import FACE_LETTERS, load_letters
    from toolkit.render.layout import load_layout

    root = _heavy_icon_game(tmp_path, run_cli, 1)
    from toolkit.content.game import load_game
    from toolkit.render.printjob import PrintJob

    game = load_game(root)
    deck = game.decks[0].model
    layout = load_layout("heavy", root)[0]
    job = PrintJob(game, deck, layout, None, "en", (63.0, 88.0))
    letters = load_letters(job.resolved(layout, deck.cards[0]), job)
    assert letters > 5 * FACE_LETTERS, letters  # ~35 ms of drawing, not a plain face's 4


def test_export_png_prices_the_pixels_of_the_pictures_its_faces_draw(tmp_path, run_cli):
    # probe 52-12: 100 faces of two 40 M-pixel pictures took `export png` 14.5 s, priced as
    # two boxes each; now each face's picture pixels are in the price
    from PIL import Image

    from toolkit.content.game import load_game
    from toolkit.render.exports import faces
    from toolkit.render.raster_weight import PICTURE_PIXEL, load_price

    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "art").mkdir()
    Image.effect_noise((800, 800), 60).convert("RGB").save(root / "art" / "p.jpg", quality=90)
    images = "".join(
        "  - {kind: image, box: {x: 0, y: 0, w: 63, h: 88}, path: art/p.jpg}\n" for _ in range(2)
    )
    (root / "layouts" / "pictured.yaml").write_text(f"id: pictured\nelements:\n{images}", "utf-8")
    deck = "id: cards\nkind: actions\nname: {en: Cards}\nsize: poker\nlayout: pictured\ncards:\n"
    deck += "".join(f"  - {{id: c{i}, name: {{en: C{i}}}, text: {{en: t}}}}\n" for i in range(10))
    (root / "decks" / "cards.yaml").write_text(deck, "utf-8")
    game = load_game(root)
    (printed,) = faces.printed_decks(game)
    assert faces.deck_load(game, printed, ["en"]).pictures == 10 * 2 * 640_000
    assert load_price(faces.FaceLoad(pictures=80_000_000 * 100), 300) == int(
        80_000_000 * 100 * PICTURE_PIXEL
    )


def test_an_icons_stroked_outline_is_in_its_price(tmp_path):
    # probe 54-8: one path of 24,000 segments across the box weighed 964 shapes and cost
    # ~0.37 s a full-card use at 300 dpi: each pixel of its outline is stroked
    from toolkit.render.raster_weight import ICON_EDGE, FaceLoad, load_price

    points = " ".join(f"{(i * 37) % 101} {(i * 61) % 97}" for i in range(400))
    zigzag = _icon(tmp_path, f'<path d="M{points}" fill="none" stroke="#000"/>')
    circle = _icon(tmp_path, '<circle cx="50" cy="50" r="40" fill="none" stroke="#000"/>')
    assert 7 < circle.outline < 8  # 2π·40 over a box of 100, a stroke's three passes
    assert zigzag.outline > 100 * circle.outline
    assert zigzag.weight <= 20  # what it weighed as shapes alone
    at_300 = load_price(FaceLoad(outline=zigzag.outline * 180), 300)
    assert at_300 == int(zigzag.outline * 180 * 300 / 72 * ICON_EDGE)


def test_an_icons_filled_outline_is_in_its_price_as_a_stroked_one(tmp_path):
    # probe 60-2: the same zig-zag filled, not stroked, cost as much a use and was priced
    # as its shapes and its box alone
    points = " ".join(f"{(i * 37) % 101} {(i * 61) % 97}" for i in range(400))
    stroked = _icon(tmp_path, f'<path d="M{points}" fill="none" stroke="#000"/>')
    filled = _icon(tmp_path, f'<path d="M{points}" fill="#000"/>')
    both = _icon(tmp_path, f'<path d="M{points}" fill="#000" stroke="#000"/>')
    unpainted = _icon(tmp_path, f'<path d="M{points}" fill="none"/>')
    assert filled.outline > 100
    # a stroke is three passes along its line (its sides, its joins); svglib closes a fill
    assert filled.outline == pytest.approx(stroked.outline / 3, rel=0.01)
    assert both.outline >= 1.33 * stroked.outline  # (svglib draws an open one in two)
    assert unpainted.outline == 0
