"""The rulebook's look comes from the game: game.yaml's `style:` sets its accent colour,
heading font and cover picture; a game without one keeps the toolkit's look."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from tests.conftest import FIXTURES, copy_game
from tests.font_maker import LATIN, make_font
from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.render.rulebook import accent_for, render_rulebook


def styled_game(tmp_path: Path, style: str) -> Path:
    game = tmp_path / "game"
    copy_game(FIXTURES / "base", game)
    manifest = game / "game.yaml"
    rulebooks = "".join(f"    {lang}: rulebook/{lang}.md\n" for lang in ("fr", "es", "en"))
    manifest.write_text(
        manifest.read_text() + f"  rulebook:\n{rulebooks}style:\n{style}", encoding="utf-8"
    )
    (game / "rulebook").mkdir()
    for lang in ("fr", "es", "en"):
        text = "# Jeu\n\n## Mise en place\n\nTexte.\n"
        (game / "rulebook" / f"{lang}.md").write_text(text, encoding="utf-8")
    return game


def fonts_of(page) -> set[str]:
    found = page["/Resources"].get("/Font", {})
    return {str(f.get_object()["/BaseFont"]).split("+")[-1] for f in found.values()}


def rgb(hex_colour: str) -> bytes:
    """How reportlab writes a colour in a page's content stream (`.482353 .247059 .070588`),
    the cover's frame being drawn in the accent."""
    parts = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return " ".join(f"{p:.6f}".removeprefix("0").rstrip("0") for p in parts).encode()


def test_accent_heading_font_and_cover_come_from_game_yaml(tmp_path):
    style = "  accent: '#7b3f12'\n  heading_font: Display Face\n  cover: art/cover.png\n"
    game = styled_game(tmp_path, style)
    # the heading face prints the cover's title "Jeu témoin" and the Spanish contents'
    # heading "Índice" (P002 without é or Í)
    make_font(game / "fonts" / "Display-Bold.ttf", "Display Face", "bold", LATIN + "ÉÈÀéÍ")
    (game / "art").mkdir()
    Image.new("RGB", (300, 200), (40, 90, 160)).save(game / "art" / "cover.png")
    loaded = load_game(game)
    assert [d for d in run_checks(loaded) if d.severity.name == "ERROR"] == []
    reader = PdfReader(io.BytesIO(render_rulebook(loaded, "fr")))
    cover, body = reader.pages[0], reader.pages[-1]
    assert any(f.startswith("DisplayFace-Bold") for f in fonts_of(cover))  # the title
    assert any(f.startswith("DisplayFace-Bold") for f in fonts_of(body))  # the headings
    assert "NotoSans-Regular" in fonts_of(body)  # the text keeps the game's font
    assert rgb("#7b3f12") in cover.get_contents().get_data()
    assert rgb(accent_for(loaded.id)) not in cover.get_contents().get_data()
    images = [x for x in cover["/Resources"]["/XObject"].values() if x["/Subtype"] == "/Image"]
    assert [(x["/Width"], x["/Height"]) for x in images] == [(300, 200)]


def test_without_a_style_the_rulebook_keeps_the_toolkits_look(tmp_path):
    game = styled_game(tmp_path, "  font: Noto Sans\n")
    loaded = load_game(game)
    plain = PdfReader(io.BytesIO(render_rulebook(loaded, "en"))).pages[0]
    assert rgb(accent_for(loaded.id)) in plain.get_contents().get_data()
    assert {f.rsplit("-", 1)[0] for f in fonts_of(plain)} == {"NotoSans"}


def test_a_missing_cover_picture_is_found_at_game_yaml(tmp_path):
    game = styled_game(tmp_path, "  cover: art/nope.png\n")
    found = [d for d in run_checks(load_game(game)) if d.code == "P004"]
    assert [(Path(d.file).name, d.span.line) for d in found] == [("game.yaml", 28)]
    assert "art/nope.png" in found[0].message
