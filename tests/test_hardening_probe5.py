"""Findings of the fifth hostile-input probe (issue #33's re-probe), each with its test."""

from __future__ import annotations

from pathlib import Path

import pytest

SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' width="100" height="100">'
)


def _icons(tmp_path: Path) -> Path:
    from PIL import Image

    icons = tmp_path / "icons"
    icons.mkdir()
    Image.new("1", (100, 100)).save(icons / "b.png")  # 10,000 pixels
    return icons


@pytest.mark.parametrize(
    ("prefix", "each"),
    [
        ("", '<image xlink:href="b.png" width="5" height="5"/>'),
        (
            '<defs><image id="i" xlink:href="b.png" width="5" height="5"/></defs>',
            '<use xlink:href="#i"/>',
        ),
        ("", '<use xlink:href="inner.svg#i"/>'),
    ],
    ids=["images", "uses", "another-file"],
)
def test_the_pictures_an_icon_draws_are_bounded_together_not_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefix: str, each: str
):
    # P2: the pixel bound held per picture: a 2 kB PNG of 16 M pixels drawn 200 times from
    # a 13 kB icon (each <image>, or each <use> of one, decodes it again) took minutes
    from toolkit.render import svg_guard

    monkeypatch.setattr(svg_guard, "MAX_PIXELS", 25_000)  # two and a half pictures
    icons = _icons(tmp_path)
    (icons / "inner.svg").write_text(
        f'{SVG_OPEN}<image id="i" xlink:href="b.png" width="5" height="5"/></svg>\n'
    )
    icon = icons / "x.svg"
    icon.write_text(f"{SVG_OPEN}{prefix}{each * 3}</svg>\n")
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None
    assert "pixels together" in refusal.message
    # one of them (a <defs> picture counts as drawn, as svglib may) stays within it
    icon.write_text(f"{SVG_OPEN}{prefix}{each}</svg>\n")
    assert svg_guard.check(icon, icons) is None
