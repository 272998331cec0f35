"""`guard_compared` counts a text operand as `tick()` then `charge_read(text)` do (written
out in it: it runs at each operand of each comparison and test of a render)."""

from __future__ import annotations

import pytest

from toolkit.render import template_bounds as tb


@pytest.mark.parametrize("value", ["", "short", "x" * 7, "x" * 8, "y" * 80_005, b"z" * 640])
def test_a_text_operand_is_counted_as_a_tick_and_a_read(value) -> None:
    seen = []
    for guarded in (True, False):
        outer = tb.enter()
        try:
            budget = tb.current()
            assert budget is not None
            budget.ticks = 62  # the next tick looks at the clock and the steps
            if guarded:
                assert tb.guard_compared(value) is value
            else:
                tb.tick()
                tb.charge_read(value)
            seen.append((budget.ticks, budget.created, budget.iterations))
        finally:
            tb.leave(outer)
    assert seen[0] == seen[1]


def test_outside_a_render_a_text_is_given_back() -> None:
    assert tb.current() is None
    assert tb.guard_compared("text") == "text"
