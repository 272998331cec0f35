"""The preview draws nothing in a game font validate refuses (P009) for the glyphs the game
prints: `build` and the exports refuse the whole game then, while the preview drew with it
(a 40 kB game of 3,990-point glyphs: one page 12 s of CPU)."""

from __future__ import annotations

from tests.test_hardening_fonts60 import heavy_game, zigzag
from toolkit.preview import live

KEY = "card/cards/one/en/front"


def _preview(tmp_path, monkeypatch, points: int) -> live.Preview:
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    game = heavy_game(tmp_path / "game", "A", {"A": zigzag(points)}, {65: "A"})
    preview = live.Preview(game)
    preview.load(check=False)
    preview.page(KEY)
    return preview


def test_a_face_in_a_refused_font_is_not_drawn_and_says_why(tmp_path, monkeypatch):
    preview = _preview(tmp_path, monkeypatch, 1_000)  # 185 em of outline: over 100 em
    assert preview.cache.page(KEY) is None
    reason = preview.cache.errors[KEY]
    assert "fonts/Heavy.ttf: its glyph for 'A' (U+0041)" in reason, reason
    assert "em of outline" in reason
    assert "P009: nothing is drawn in the game's fonts until it is fixed" in reason


def test_a_face_in_a_font_validate_accepts_is_drawn(tmp_path, monkeypatch):
    preview = _preview(tmp_path, monkeypatch, 40)
    assert preview.cache.page(KEY) is not None, preview.cache.errors
