"""`export png` and `export tts` draw a deck's card images a few at a time: a deck's bitmaps
held together reached 1.9 GB for 600 poker cards at 300 dpi, 5.5 GB for three large cards at
1200 dpi. A card image past the pixel bound is refused before any is drawn."""

from __future__ import annotations

import weakref
from pathlib import Path

import pytest

from toolkit.render import raster
from toolkit.render.exports import png
from toolkit.scaffold.new import new_game

CARDS = 24


def _game(tmp_path: Path) -> Path:
    """The starter game with a deck of CARDS cards."""
    folder = tmp_path / "many"
    new_game(folder, "many", ["en"])
    deck = folder / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    head = text[: text.index("cards:\n") + len("cards:\n")]
    cards = "".join(
        f"  - id: c{i}\n    name: {{en: 'Card {i}'}}\n    text: {{en: 'Go on.'}}\n"
        for i in range(CARDS)
    )
    deck.write_text(head + cards, encoding="utf-8")
    return folder


def _most_alive(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The most card bitmaps alive at once while the test runs (its one item, updated)."""
    alive, most = [0], [0]
    real = raster._render_box

    def counted(*args):
        image = real(*args)
        alive[0] += 1
        most[0] = max(most[0], alive[0])
        weakref.finalize(image, lambda: alive.__setitem__(0, alive[0] - 1))
        return image

    monkeypatch.setattr(raster, "_render_box", counted)
    return most


@pytest.mark.parametrize("kind", ["png", "tts"])
def test_a_deck_s_card_images_are_never_all_held_at_once(kind, run_cli, tmp_path, monkeypatch):
    most = _most_alive(monkeypatch)
    game = _game(tmp_path)
    out = tmp_path / "out"
    result = run_cli("export", kind, str(game), "--lang", "en", "--dpi", "60", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert len(list((out / "many" / "en").rglob("*.png"))) > 1
    assert most[0] <= 2 * raster.ENCODERS + 2, most  # a sheet's or a few encoders' worth


def test_a_card_image_of_too_many_pixels_is_refused_before_any_is_drawn(
    run_cli, tmp_path, monkeypatch
):
    # a 300 × 420 mm card at --dpi 1200 is 291 M pixels; the bound is lowered here to a
    # poker card at 600 dpi (about 3.5 M pixels) to meet it at once
    monkeypatch.setattr(png, "MAX_PAGE_PIXELS", 2_000_000)
    drawn: list[float] = []
    real = raster._render_box
    monkeypatch.setattr(raster, "_render_box", lambda *a: drawn.append(a[2]) or real(*a))
    game = _game(tmp_path)
    out = str(tmp_path / "o")  # its rulebook's pages small: they are checked first now
    args = ["--lang", "en", "--dpi", "600", "--page-dpi", "30", "--out", out]
    result = run_cli("export", "png", str(game), *args)
    assert result.exit_code == 1, result.output
    assert "deck " in result.output and "at --dpi 600 would be" in result.output
    assert "use --dpi" in result.output and "Traceback" not in result.output
    assert drawn == []


def test_large_card_images_are_encoded_one_at_a_time(run_cli, tmp_path, monkeypatch):
    # four 150 M pixel cards waiting for the encoders were 2.3 GB (probe 20 H1): past
    # PENDING_PIXELS waiting, each is encoded before the next is drawn
    monkeypatch.setattr(raster, "PENDING_PIXELS", 1, raising=False)
    monkeypatch.setattr(raster, "ENCODERS", 4)
    monkeypatch.setattr(raster.os, "cpu_count", lambda: 4)
    most = _most_alive(monkeypatch)
    game = _game(tmp_path)
    out = tmp_path / "out"
    result = run_cli("export", "png", str(game), "--lang", "en", "--dpi", "60", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert most[0] <= 2, most
