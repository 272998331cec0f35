"""How many times longer a transform makes a line, at most: what an SVG icon's outline
(`svg_icons`) and a picture drawn on a scaled canvas (`picture_scaled`) are measured by."""

from __future__ import annotations

import math
from typing import Any

LONGEST = 1e18
"""What a stretch is counted at most (a matrix of huge or infinite numbers has no length a
weight can hold)."""


def stretch(transform: Any) -> float:
    """How many times longer a transform makes a line, at most (its matrix's larger singular
    value): `scale(0.001, 1000)` keeps areas but makes a vertical zig-zag 1,000 times longer
    (probe 60-13), which the square root of its determinant (1) did not see."""
    a, b, c, d = (float(v) for v in tuple(transform)[:4])
    squares = a * a + b * b + c * c + d * d
    determinant = a * d - b * c
    largest = (squares + math.sqrt(max(0.0, squares * squares - 4 * determinant * determinant))) / 2
    return math.sqrt(largest) if math.isfinite(largest) else LONGEST
