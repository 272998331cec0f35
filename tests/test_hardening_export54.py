"""Probe 40 H4: `export png` bounded the pixels of each page but not of the whole export, so
100 cards of 300 × 420 mm in three languages (a 2.5 kB deck) were 5,300 M pixels, 54 s of
CPU and 609 files; `export tts` 14.8 s. One export's card images now have a bound in all,
checked from the decks' sizes before anything is drawn."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reportlab.lib.units import mm

from tests.conftest import FIXTURES, REPO
from toolkit.content.game import load_game
from toolkit.render.exports import faces
from toolkit.render.exports.tts import encoded_pixels
from toolkit.render.raster import pixels


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    return game


def _pixels(game_folder: Path, dpi: float, bleed: bool = False, tts: bool = False) -> int:
    """One language's card pixels as the export counts them, from the decks' sizes: each
    card's front, and each card's back or the deck's one back (tts: `tts.encoded_pixels`,
    each face drawn then every cell of its sheets and its back image encoded; probe 42 M4)."""
    total = 0
    for deck in faces.printed_decks(load_game(game_folder)):
        if tts:
            total += encoded_pixels(deck, dpi)
            continue
        edge = 6 if bleed else 0
        width, height = (pixels((side + edge) * mm, dpi) for side in deck.size_mm)
        count = len(deck.cards) + (len(deck.cards) if deck.back_per_card else 1)
        total += width * height * count
    return total


MAX_EXPORT_PIXELS = 1_000_000_000  # the bound (faces.MAX_EXPORT_PIXELS; 1,500 M until probe 41)


def test_the_bound_is_the_one_the_exports_check():
    assert getattr(faces, "MAX_EXPORT_PIXELS", None) == MAX_EXPORT_PIXELS


def test_the_probe_deck_is_over_the_bound_and_every_bundled_export_far_under(tmp_path):
    game = _game(tmp_path)
    cards = [f"  - {{id: c{i}, name: {{fr: A, es: A, en: A}}}}" for i in range(100)]
    head = "id: cards\nkind: actions\nname: {fr: A, es: A, en: A}\n"
    size = "size: {width_mm: 300, height_mm: 420}\ncards:\n"
    (game / "decks" / "cards.yaml").write_text(head + size + "\n".join(cards) + "\n")
    assert 3 * _pixels(game, 300) > 3 * MAX_EXPORT_PIXELS / 2  # 5,300 M: refused
    assert 3 * _pixels(game, 150, tts=True) > MAX_EXPORT_PIXELS
    for folder in sorted((REPO / "content").glob("*/game.yaml")):
        langs = len(load_game(folder.parent).manifest.languages)
        most = max(_pixels(folder.parent, 300), _pixels(folder.parent, 150, tts=True))
        assert langs * most * 1.2 < MAX_EXPORT_PIXELS, folder.parent.name  # the defaults
        assert langs * _pixels(folder.parent, 300, bleed=True) < MAX_EXPORT_PIXELS


@pytest.mark.parametrize("kind", ["png", "tts"])
def test_an_export_over_the_bound_is_refused_before_anything_is_drawn(
    run_cli, tmp_path, monkeypatch, kind
):
    game, out = _game(tmp_path), tmp_path / "out"
    one = _pixels(game, 100, tts=kind == "tts")  # a language's card pixels at --dpi 100
    monkeypatch.setattr(faces, "MAX_EXPORT_PIXELS", one + one // 2, raising=False)
    args = ["export", kind, str(game), "--dpi", "100", "--out", str(out)]
    # three languages: refused up front, exit 1, nothing written (no half of the languages)
    result = run_cli(*args)
    assert result.exit_code == 1 and not out.exists(), result.output
    message = " ".join(result.output.split())
    assert f"{one * 3 / 1e6:,.0f} M pixels in 3 language(s)" in message
    assert "export may draw: lower --dpi (" in message and "fewer languages with --lang" in message
    # one language is within the bound; the other two refused leave its images as they were
    assert run_cli(*args, "--lang", "en").exit_code == 0
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    result = run_cli(*args, "--lang", "en,fr")
    assert result.exit_code == 1 and not (out / "fixture-game" / "fr").exists()
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before
    # the --dpi the message names is within the bound for every language
    most = message.split("lower --dpi (")[1].split(" ")[0]
    low = ["export", kind, str(game), "--dpi", most, "--out", str(tmp_path / "low")]
    assert run_cli(*low).exit_code == 0
