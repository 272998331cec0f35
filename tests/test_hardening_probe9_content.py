"""Findings of the ninth hostile-input probe (issue #33), on content: SVG icons, fonts,
spreadsheets, PO files, YAML and rulebooks (/work/notes/probe9c.md)."""

from __future__ import annotations

import time

import pytest

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'


def _icon(tmp_path, body: str):
    icons = tmp_path / "icons"
    icons.mkdir(exist_ok=True)
    icon = icons / "x.svg"
    icon.write_text(f"{SVG_OPEN}\n{body}</svg>\n")
    return icon, icons


def _stops(count: int) -> str:
    return "".join(
        f'<stop offset="{i / count}" stop-color="#{i % 256:02x}0000"/>' for i in range(count)
    )


@pytest.mark.parametrize("kind", ["linearGradient", "radialGradient"])
def test_a_gradient_drawn_by_many_shapes_is_counted_by_its_stops(tmp_path, kind):
    # C1: each shape filled with a gradient writes all its stops into the PDF at every draw:
    # a 50 kB icon (a 1,000-stop gradient, 480 <use> of one rectangle) took 1.3 s and
    # 125 MB per card drawn; `build` of 36 cards ran past 90 s at 3 GB
    from toolkit.render import svg_icons

    uses = "".join(f'<use href="#r" x="{i}"/>' for i in range(20))
    body = (
        f'<defs><{kind} id="g">{_stops(1000)}</{kind}></defs>\n'
        f'<rect id="r" width="10" height="10" fill="url(#g)"/>{uses}\n'
    )
    icon, icons = _icon(tmp_path, body)
    start = time.process_time()
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert drawn is None and problem is not None
    assert "stops" in problem.message and "21,000" in problem.message
    assert (problem.span.line, problem.span.col) == (2, 7)
    assert time.process_time() - start < 2.0


def test_gradient_stops_inherited_through_a_chain_are_counted(tmp_path):
    from toolkit.render import svg_icons

    shapes = '<rect width="10" height="10" fill="url(#b)"/>' * 30
    chain = (
        f'<linearGradient id="a">{_stops(100)}</linearGradient><linearGradient id="b" href="#a"/>'
    )
    body = chain + shapes
    icon, icons = _icon(tmp_path, body)
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert drawn is None and problem is not None and "3,000" in problem.message


def test_ordinary_gradients_are_drawn(tmp_path):
    from toolkit.render import svg_icons

    shapes = '<circle cx="50" cy="50" r="40" fill="url(#g)"/>' * 40
    body = f'<radialGradient id="g">{_stops(5)}</radialGradient>{shapes}'
    icon, icons = _icon(tmp_path, body)
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert problem is None and drawn is not None
