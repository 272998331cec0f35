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
