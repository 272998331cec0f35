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


def test_a_pictures_mean_colour_is_worked_out_once_for_many_pictures(tmp_path) -> None:
    # probe 66 (info): cards cycling through 257 pictures decoded each at every card
    from PIL import Image

    from toolkit.render.elements.image import _average

    paths = []
    for n in range(300):
        path = tmp_path / f"p{n}.png"
        Image.new("RGB", (4, 4), (n % 256, 0, 0)).save(path)
        paths.append(str(path))
    _average.cache_clear()
    for _ in range(2):
        for path in paths:
            assert _average(path) is not None
    assert _average.cache_info().misses == 300
    _average.cache_clear()
