"""Probe 39 H5 and M4 (issue #33): pictures were bounded by their pixels, not by what their
files pay for. Five nearly blank one-bit PNGs of 40 M pixels (24 kB in all) took 12 s of CPU
and 500 MB to build; three 2.9 kB icons each embedding a 16 M-pixel one (2 kB) 364 MB."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import REPO, copy_game
from tests.test_hardening_probe3 import picture_icons

SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' width="100" height="100">\n'
)


def _blank(size: tuple[int, int]) -> bytes:
    """A one-bit PNG of `size`, all black but one pixel: a few hundred bytes."""
    picture = Image.new("1", size, 0)
    picture.putpixel((0, 0), 1)
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    return out.getvalue()


def _game_with_pictures(tmp_path: Path, pictures: dict[str, bytes]) -> Path:
    """drinking-heroes with `pictures` (name: bytes) in art/, each drawn by the hero layout."""
    folder = copy_game(REPO / "content" / "drinking-heroes", tmp_path / "g")
    (folder / "art").mkdir()
    for name, data in pictures.items():
        (folder / "art" / name).write_bytes(data)
    layout = folder / "layouts" / "dh-hero.yaml"
    images = "".join(
        f"  - {{kind: image, box: {{x: 1, y: 1, w: 2, h: 2}}, path: art/{name}}}\n"
        for name in pictures
    )
    layout.write_text(layout.read_text().replace("elements:\n", "elements:\n" + images, 1))
    return folder


def test_nearly_blank_pictures_of_millions_of_pixels_are_refused_past_a_game_budget(
    tmp_path, run_cli
):
    # H5: each picture under the 40 M-pixel bound and the game's 200 M, in a few kB each:
    # decoded whole in every PDF (500 MB a picture of 40 M). Now the pixels the files do
    # not pay for (beyond 256 a byte) are bounded for the game: 16 M
    from toolkit.render import pictures

    first, second = _blank((3000, 3000)), _blank((3000, 2999))
    assert len(first) < 2_000 and 9_000_000 / len(first) > 4_000  # pixels a stored byte
    photo = Image.effect_noise((400, 400), 60).convert("RGB")  # a paid-for picture
    out = io.BytesIO()
    photo.save(out, "PNG")
    flat = io.BytesIO()
    Image.new("RGB", (1000, 1000), (200, 40, 40)).save(flat, "PNG")  # flat colour: paid
    folder = _game_with_pictures(
        tmp_path,
        {"a.png": first, "photo.png": out.getvalue(), "flat.png": flat.getvalue(), "b.png": second},
    )
    result = run_cli("validate", str(folder), "--no-cache")
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "P004" in said
    assert (
        f"image 'art/b.png' holds 8,997,000 pixels in {pictures.paid_bytes(second):,} bytes"
        " of pixel data: with it, the"
        f" pictures the game's layouts print hold more than {pictures.MAX_UNPAID_PIXELS:,}"
        " pixels beyond 256 a stored byte together"
    ) in said
    assert re.search(r"heroes\.yaml:\d+:\d+: P004", said)  # at the first card printing it
    for fine in ("art/a.png'", "art/photo.png'", "art/flat.png'"):
        assert f"image {fine} holds" not in said


def test_unpaid_pixels_leave_real_artwork_alone():
    from toolkit.render import pictures

    # a 40 M-pixel photograph of a few MB, a flat-colour RGB board, pay for themselves
    assert pictures.unpaid_pixels(40_000_000, 4_000_000) == 0
    assert pictures.unpaid_pixels(2_000_000, 5_573 * 2) == 0  # a flat-colour RGB card picture
    # a 6300×6300 RGB disc on white: five such boards fit in the game's budget
    assert pictures.unpaid_pixels(39_690_000, 143_933) * 5 < pictures.MAX_UNPAID_PIXELS
    assert pictures.unpaid_pixels(39_690_000, 4_896) > pictures.MAX_UNPAID_PIXELS  # blank 1-bit


@pytest.mark.parametrize("how", ["data", "file"])
def test_an_icon_picture_of_millions_of_pixels_in_a_few_bytes_is_refused(tmp_path, how):
    # M4: three 2.9 kB icons each embedding a 4000×3999 one-bit PNG (2 kB) took 364 MB to
    # build; an icon's picture may hold 1 M pixels beyond what its bytes pay for
    from toolkit.render.svg_icons import load_svg

    icons = picture_icons(tmp_path, how, _blank((1200, 1000)), _blank((900, 900)))
    icon, problem = load_svg(icons / "big.svg", "icons/big.svg", icons)
    assert icon is None and problem is not None
    assert (problem.span.line, problem.span.col) == (2, 3)
    assert "holds 1200×1000 pixels in" in problem.message
    assert "more than 1,000,000 beyond 256 a stored byte" in problem.message
    icon, problem = load_svg(icons / "small.svg", "icons/small.svg", icons)
    assert problem is None and icon is not None
