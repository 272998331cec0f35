"""The map's name placement sums overlaps without a call per rectangle (`_covered`,
`_touching`): the same floats and the same choices as the plain sums they replace, so a
board is drawn byte for byte as before (budget60)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from toolkit.render.boards import graph

_coord = st.one_of(
    st.floats(-50, 50, allow_nan=False),
    st.integers(-50, 50),
    st.sampled_from([0.0, -0.0, 1e-300, math.inf, -math.inf, math.nan]),
)
_rect = st.tuples(_coord, _coord, _coord, _coord)


def _same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


@given(_rect, st.lists(_rect, max_size=30))
def test_covered_is_the_plain_sum_of_overlaps(rect, rects):
    assert _same(graph._covered(rect, rects), sum(graph._overlap(rect, r) for r in rects))


@given(_rect, st.lists(_rect, max_size=30), st.floats(0, 1e4), st.sampled_from([1.0, 2.0]))
def test_a_sum_stopped_at_a_bound_reaches_it_when_the_whole_sum_does(rect, rects, bound, weight):
    whole = sum(graph._overlap(rect, r) for r in rects)
    part = graph._covered(rect, rects, 0.5, weight, bound)
    assert (0.5 + part * weight >= bound) == (0.5 + whole * weight >= bound)
    if 0.5 + whole * weight < bound:
        assert _same(part, whole)


@given(_rect, st.lists(_rect, max_size=30))
def test_touching_keeps_the_overlapping_rectangles_in_order(area, rects):
    ids = list(range(len(rects)))
    assert graph._touching(area, rects, ids) == [
        i for i in ids if graph._overlap(area, rects[i]) > 0
    ]
