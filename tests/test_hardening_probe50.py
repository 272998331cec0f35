"""Probe 50 (session 58): what a second look at SVG icons still let through."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_face_inline_icons import _svg


@pytest.mark.parametrize(
    ("shape", "copies"),
    [
        # P50-4: `z` takes no number but ~1 µs to read: 400 uses of 50,000 took 18.8 s
        ('<path id="p" d="M50 50{}" fill="none" stroke="red"/>'.format("z" * 20_000), 30),
        # svglib reads a path's whole text again for each use: 300,000 spaces × 490, 30 s
        ('<path id="p" d="M50 50{}L1 1"/>'.format(" " * 30_000), 30),
        # and converts a text again for each use: 300,000 characters × 490, 56 s, 752 MB
        ('<text id="p" x="0" y="50" font-size="0.001">{}</text>'.format("W" * 10_000), 30),
        (
            '<text id="p" x="0" y="50" font-size="0.001"><tspan>{}</tspan></text>'.format(
                "W" * 10_000
            ),
            30,
        ),
    ],
)
def test_a_paths_commands_and_characters_and_a_texts_count_each_use_again(
    tmp_path: Path, shape: str, copies: int
):
    icon, problem = _svg(tmp_path, f"<defs>{shape}</defs>" + '<use href="#p"/>' * copies)
    assert icon is None and problem is not None and "2,000 elements" in problem.message
    icon, problem = _svg(tmp_path, f"<defs>{shape}</defs>" + '<use href="#p"/>')
    assert problem is None and icon is not None  # one use draws


def test_a_path_of_commands_without_numbers_counts_them(tmp_path: Path):
    # P50-4 without <use>: five icons of 1.9 M `z` took validate 8.5 s, build 10 s
    icon, problem = _svg(tmp_path, '<path d="M50 50{}"/>'.format("z" * 60_000))
    assert icon is None and problem is not None
    assert "50,000 numbers and commands" in problem.message


@pytest.mark.parametrize("signature", [b"wOF2", b"wOFF"])
def test_a_web_font_is_told_by_its_signature_never_decompressed(run_cli, tmp_path, signature):
    # P50-5: fontTools decompressed a WOFF2 file's whole stream to tell what it was (a 1.6 kB
    # file of 2 GiB of zeros took 4.3 GB) and, without Brotli, raised ImportError: four check
    # families failed (E008) where one P009 belongs
    from tests.test_game_fonts import findings, themed_game

    game = themed_game(tmp_path)
    (game / "fonts" / "Web.ttf").write_bytes(signature + b"\0\1\0\0" + b"\0" * 64)
    found = findings(run_cli, game)
    assert [(d["code"], d["file"]) for d in found] == [("P009", "fonts/Web.ttf")], found
    assert "a web font (woff" in found[0]["message"]


def test_a_dash_arrays_numbers_and_an_elements_attributes_count_each_use_again(
    tmp_path: Path,
):
    # P50-6: a path dashed by a list of 50,000 numbers, used 400 times: validate 29 s, ~1 GB;
    # such a list is now refused where it is written (probe 52-1: svg_properties), and a
    # path's own numbers still count for each use
    dashes = ",".join(["1"] * 2_000)
    shape = f'<path id="p" d="M0 0L100 100" stroke="red" stroke-dasharray="{dashes}"/>'
    icon, problem = _svg(tmp_path, f"<defs>{shape}</defs>" + '<use href="#p"/>' * 60)
    assert icon is None and problem is not None
    assert "stroke-dasharray is 3,999 characters long" in problem.message
    shape = '<path id="p" d="M0 0' + " L1 1" * 1_000 + '" stroke="red"/>'
    icon, problem = _svg(tmp_path, f"<defs>{shape}</defs>" + '<use href="#p"/>' * 60)
    assert icon is None and problem is not None and "2,000 elements" in problem.message
    styled = '<rect id="p" width="9" height="9" style="{}"/>'.format("fill:red;" * 1_000)
    icon, problem = _svg(tmp_path, f"<defs>{styled}</defs>" + '<use href="#p"/>' * 100)
    assert icon is None and problem is not None and "2,000 elements" in problem.message
    icon, problem = _svg(tmp_path, f"<defs>{styled}</defs>" + '<use href="#p"/>' * 10)
    assert problem is None and icon is not None


def test_a_strokes_joins_count_in_what_it_paints(tmp_path: Path):
    # P50-7: 20,000 segments of 0.01 unit stroked 100 wide with round joins: each join a
    # disc the icon's size, 0.25 s a use; the shape's box said it painted its box once
    zigzag = "l.01 0l-.01 0" * 2_500
    wide = (
        f'<path d="M50 50{zigzag}" fill="none" stroke="red" stroke-width="100"'
        ' stroke-linejoin="round"/>'
    )
    icon, problem = _svg(tmp_path, wide)
    assert problem is None and icon is not None
    assert icon.coverage > 4_000  # 5,001 vertices, each a box's worth
    thin = wide.replace('stroke-width="100"', 'stroke-width="1"')
    icon, problem = _svg(tmp_path, thin)
    assert problem is None and icon is not None
    assert icon.coverage < 2


def test_a_data_uris_characters_count_each_use_again(tmp_path: Path):
    # P50-13: a 10×10 JPEG padded to 1.4 MB in a data: URI, used 490 times: svglib copies
    # and decodes it again for each use, validate 2.4 GB
    import base64
    import io
    import os

    from PIL import Image

    picture = io.BytesIO()
    Image.frombytes("RGB", (256, 256), os.urandom(256 * 256 * 3)).save(picture, "PNG")
    data = base64.b64encode(picture.getvalue()).decode("ascii")
    image = (
        f'<image id="i" width="10" height="10" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' xlink:href="data:image/png;base64,{data}"/>'
    )
    icon, problem = _svg(tmp_path, f"<defs>{image}</defs>" + '<use href="#i"/>' * 100)
    assert icon is None and problem is not None
    assert "16,000,000 pixels together" in problem.message
    icon, problem = _svg(tmp_path, f"<defs>{image}</defs>" + '<use href="#i"/>' * 5)
    assert problem is None and icon is not None


def _heavy_icon_game(tmp_path: Path, run_cli) -> Path:
    """A new game with `icons/token.svg`: 1,990 small circles (weight ~1,992, little paint)."""
    from tests.test_board_icon_weight import _icon

    assert run_cli("new", "g", "--into", str(tmp_path), "--lang", "en").exit_code == 0
    root = tmp_path / "g"
    (root / "icons").mkdir(exist_ok=True)
    (root / "icons" / "token.svg").write_text(_icon(1_990), encoding="utf-8")
    return root


def _r010(run_cli, root: Path) -> list[dict]:
    import json

    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["code"] == "R010"]


def test_a_rulebooks_inline_icons_weigh_within_what_its_pages_draw(tmp_path: Path, run_cli):
    # P50-16: 150 uses of a 2,000-element icon (under R010's count and paint) printed blank
    # past a page's weight, validate clean
    root = _heavy_icon_game(tmp_path, run_cli)
    book = root / "rulebook" / "en.md"
    text = book.read_text(encoding="utf-8")
    book.write_text(text + "".join(f"\nStep {i} :token: here.\n" for i in range(10)), "utf-8")
    (found,) = _r010(run_cli, root)
    assert "inline icons weigh more than 16,000 drawn elements" in found["message"]
    assert found["file"].endswith("rulebook/en.md")
    book.write_text(text + "".join(f"\nStep {i} :token: here.\n" for i in range(7)), "utf-8")
    assert _r010(run_cli, root) == []


def test_the_card_references_inline_icons_weigh_within_what_its_pages_draw(tmp_path: Path, run_cli):
    # P50-14: the card reference prints every card text's icons, outside R010's count
    root = _heavy_icon_game(tmp_path, run_cli)
    deck = root / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(
        text.replace("en: Draw a card.", 'en: "Draw a card.' + " :token:" * 9 + '"'), "utf-8"
    )
    (found,) = _r010(run_cli, root)
    assert "the card reference's inline icons (en) weigh more than 16,000" in found["message"]
    assert found["file"].endswith("decks/cards.yaml")
    deck.write_text(
        text.replace("en: Draw a card.", 'en: "Draw a card.' + " :token:" * 7 + '"'), "utf-8"
    )
    assert _r010(run_cli, root) == []
