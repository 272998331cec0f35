"""The game's bound on its icons' pictures together is looked at from the files' headers
before any is decoded (probe 62-4: ten icons of 16 M pixels took validate to 694 MB, each
decoded, before the bound refused the fourth); the same picture in many icons counts once."""

from __future__ import annotations

from pathlib import Path

from tests.test_hardening_probe6_render import _icon_folder
from toolkit.render import icons as icons_module
from toolkit.render import svg_guard, svg_icons


def test_icons_past_the_games_picture_bound_are_refused_before_decoding(tmp_path, monkeypatch):
    monkeypatch.setattr(svg_guard, "MAX_GAME_PICTURE_PIXELS", 100_000)  # two of 200 × 200
    decoded: list[int] = []
    real = svg_icons._decoded

    def counted(data: bytes):
        decoded.append(len(data))
        return real(data)

    monkeypatch.setattr(svg_icons, "_decoded", counted)
    colours = {f"{c}.png": f"#{i:02x}{i:02x}{i:02x}" for i, c in enumerate("abcdef", 1)}
    _icon_folder(tmp_path, colours, count=6)
    found = icons_module.icon_set(tmp_path)
    assert [Path(p.file).name for p in found.problems] == [f"i_{c}.svg" for c in "cdef"]
    assert all("more than 100,000 pixels together" in p.message for p in found.problems)
    assert len(decoded) == 2  # the two icons kept: the others are refused from the headers


def test_one_picture_in_many_icons_counts_once(tmp_path, monkeypatch):
    monkeypatch.setattr(svg_guard, "MAX_GAME_PICTURE_PIXELS", 100_000)
    _icon_folder(tmp_path, {"b.png": "#c81e1e"}, count=6)
    assert not icons_module.icon_set(tmp_path).problems
