"""Probe 38: what got around probe 37's fixes."""

from __future__ import annotations

from tests.test_hardening_probe30_svg import _icon


def test_an_icon_of_many_plain_rules_on_many_shapes_is_refused(tmp_path):
    """M2: `rect{fill:red}` 300 times on 300 rectangles (6.4 kB) was 90,000 steps, under the
    limit, and cost ~0.15 s of styling; every icon a game lists is loaded at each check, so
    a hundred of them took 15 s. An icon has a few rules over tens of shapes."""
    from toolkit.render import svg_guard

    refusal = svg_guard.check(
        *_icon(tmp_path, "<style>" + "rect{fill:red}" * 300 + "</style>" + "<rect/>" * 300)
    )
    assert refusal is not None and "steps to match" in refusal.message
    assert (
        svg_guard.check(
            *_icon(tmp_path, "<style>" + "rect{fill:red}" * 10 + "</style>" + "<rect/>" * 300)
        )
        is None
    )
