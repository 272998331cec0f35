"""Probe 68: an import's edits put into a file in one pass."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.i18n.yaml_edit import spliced


def _one_at_a_time(text: str, planned: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(planned, key=lambda p: p[0], reverse=True):
        text = text[:start] + new + text[end:]
    return text


@st.composite
def _edits(draw) -> tuple[str, list[tuple[int, int, str]]]:
    text = draw(st.text("ab\\n", max_size=30))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=8)))
    planned = []
    for n, at in enumerate(cuts):  # apart; at one place, insertions only
        nxt = cuts[n + 1] if n + 1 < len(cuts) else len(text)
        shared = cuts.count(at) > 1
        end = at if shared or not draw(st.booleans()) else draw(st.integers(at, nxt))
        planned.append((at, end, draw(st.text("XY", max_size=3))))
    order = draw(st.permutations(range(len(planned))))
    return text, [planned[i] for i in order]


@settings(max_examples=400, deadline=None)
@given(_edits())
def test_edits_put_in_in_one_pass_make_the_same_text(case) -> None:
    text, planned = case
    assert spliced(text, planned) == _one_at_a_time(text, planned)


def test_many_edits_copy_the_text_once(monkeypatch) -> None:
    # probe 68-3: each edit copied the whole text: n edits of an L-byte file, n·L
    text = "k: v\n" * 20_000
    planned = [(5 * i + 3, 5 * i + 4, "w") for i in range(20_000)]
    assert spliced(text, planned) == "k: w\n" * 20_000
