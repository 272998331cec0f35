"""What an SVG icon costs a rasteriser, priced where probe 60 found the face load blind: a
box that resolves to a negative size (drawn mirrored, priced below nothing, 60-12), a group
that stretches one axis (60-13) and gradient fills (60-14)."""

from __future__ import annotations

import pytest

from tests.conftest import diagnostics_json
from tests.test_hardening_raster59 import _icon


def test_a_box_counting_from_an_edge_it_starts_past_has_no_size():
    from toolkit.render.elements.base import Box

    assert Box(x=62, y=87, w=-62, h=-87).resolve(63, 88) == (62, 87, 0.0, 0.0)
    assert Box(x=3, y=3, w=-3, h=-3).resolve(63, 88) == (3, 3, 57, 82)


def test_an_icon_in_a_box_of_no_size_is_said_and_not_priced(tmp_path, run_cli):
    # probe 60-12: three icons at x: 62, w: -62 (-61 mm) were drawn mirrored, whole, and
    # their negative side cancelled the outline price of four full-card uses
    from toolkit.render.elements.base import Resolved
    from toolkit.render.elements.icon import IconElement

    element = IconElement(kind="icon", box={"x": 62, "y": 87, "w": -62, "h": -87}, icon="x")
    resolved = Resolved(element, *element.box.resolve(63, 88), values=("x",))
    assert element.icons_drawn(resolved, frozenset({"x"})) == []

    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    layout = root / "layouts" / "standard.yaml"  # the deck's
    text = layout.read_text("utf-8").replace(
        "elements:\n",
        "elements:\n  - {kind: icon, box: {x: 62, y: 87, w: -62, h: -87}, icon: token}\n",
        1,
    )
    layout.write_text(text, "utf-8")
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P003"]
    assert len(found) == 1 and "box of 0 × 0 mm" in found[0]["message"], found
    assert found[0]["file"].endswith("standard.yaml")


def test_a_stretched_group_lengthens_the_outline_it_strokes(tmp_path):
    # probe 60-13: under scale(0.001, 1000) a zig-zag is 1,000 times longer as drawn than
    # the square root of the determinant (1) counted
    points = " ".join(f"{i * 0.004:.3f} {0.1 * (i % 2)}" for i in range(400))
    path = f'<path d="M{points}" fill="none" stroke="#000" stroke-width="0.05"/>'
    plain = _icon(tmp_path, path)
    stretched = _icon(tmp_path, f'<g transform="scale(0.001,1000)">{path}</g>')
    assert stretched.outline > 50 * plain.outline, (stretched.outline, plain.outline)


@pytest.mark.parametrize(("kind", "least"), [("radialGradient", 10), ("linearGradient", 2.5)])
def test_a_gradient_fill_costs_more_than_a_flat_one(tmp_path, kind, least):
    # probe 60-14: 60 radial gradients over the box, ~0.7 s a full-card use, priced as flat
    stops = '<stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/>'
    rect = '<rect x="0" y="0" width="100" height="100" fill="{}"/>'
    flat = _icon(tmp_path, rect.format("#f00"))
    shaded = _icon(
        tmp_path, f'<defs><{kind} id="r">{stops}</{kind}></defs>' + rect.format("url(#r)")
    )
    assert shaded.coverage >= least * flat.coverage, (shaded.coverage, flat.coverage)


def test_an_overflowing_text_draws_only_the_lines_its_box_shows(tmp_path, run_cli):
    # probe 60-15: a `fit: false` text is not fitted, and its lines past the box were put in
    # the PDF, clipped: a rasteriser still walks every glyph of each
    from pypdf import PdfReader

    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    layout = root / "layouts" / "standard.yaml"
    words = '"{% for i in range(400) %}w{{ i }} {% endfor %}"'
    element = (
        f"  - {{kind: text, box: {{x: 5, y: 5, w: 20, h: 10}}, text: {words},"
        " size: {max: 8, min: 8}, fit: false}\n"
    )
    layout.write_text(layout.read_text("utf-8").replace("elements:\n", "elements:\n" + element, 1))
    result = run_cli("build", str(root), "--out", str(tmp_path / "out"), "--no-cache")
    assert result.exit_code == 0, result.output
    (pdf,) = (tmp_path / "out").rglob("cards.pdf")
    printed = PdfReader(pdf).pages[0].extract_text()
    assert "w0 " in printed and "w1 " in printed
    assert "w399" not in printed and "w200" not in printed


def test_a_gradient_filled_outline_is_in_its_price_as_a_flat_one(tmp_path):
    # probe 61-3: svglib fills a gradient through a shape that holds the path as its clip
    # and no fillColor, so the zig-zag's outline was not counted: 29.4 s for 10 cards
    points = " ".join(f"{(i * 37) % 101} {(i * 61) % 97}" for i in range(400))
    stops = '<stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/>'
    flat = _icon(tmp_path, f'<path d="M{points}" fill="#000"/>')
    for kind in ("linearGradient", "radialGradient"):
        shaded = _icon(
            tmp_path,
            f'<defs><{kind} id="g">{stops}</{kind}></defs><path d="M{points}" fill="url(#g)"/>',
        )
        assert shaded.outline >= 0.99 * flat.outline, (kind, shaded.outline, flat.outline)
