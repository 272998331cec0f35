"""Probe 36, H4: colours that carry meaning (A002, A003) were one finding per colliding pair.

A board of 2,000 regions in near-black colours, all distinct (89 kB), gave 1.9 million
findings, 38 s of CPU and 895 MB. Now members of one colour count as one colour, each
distinct colour has one A002 and one A003 at most (at its first member, naming the first
earlier colour it collides with), and the pairs of distinct colours compared are charged to
a budget (`meaning.MAX_PAIRS`) for each run, so neither the findings nor the work grow as N².
The same loop serves space kinds, link kinds and a layout's alternatives.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from toolkit.checks.legibility import meaning
from toolkit.content.game import load_game

REGIONS = """regions:
  - id: north
    name:
      fr: Nord
      es: Norte
      en: North
"""


def _board_game(tmp_path: Path, colours: list[str]) -> Path:
    """The deutan-kinds case with one region per colour (`r0`, `r1`, …), named by an alias."""
    game = build_case(FIXTURES / "broken" / "deutan-kinds", tmp_path / "game")
    board = game / "boards" / "map.yaml"
    rows = [
        "regions:",
        "  - {id: r0, name: &n {fr: R, es: R, en: R}, colour: " + f'"{colours[0]}"}}',
    ]
    rows += [f'  - {{id: r{i}, name: *n, colour: "{c}"}}' for i, c in enumerate(colours) if i]
    text = board.read_text().replace(REGIONS, "\n".join(rows) + "\n")
    text = text.replace("region: north", "region: r0").replace("icon: star}\n", "icon: coin}\n", 1)
    assert text.count("id: r") == len(colours)
    board.write_text(text)
    return game


def _board_findings(game: Path) -> list:
    return [d for d in meaning._boards(load_game(game)) if d.code in ("A002", "A003")]


@pytest.fixture
def compared(monkeypatch):
    """How many times two colours were compared for a colour vision."""
    calls = Counter()
    real = meaning.vision_difference

    def counted(a, b, vision):
        calls["vision"] += 1
        return real(a, b, vision)

    monkeypatch.setattr(meaning, "vision_difference", counted)
    return calls


def test_one_finding_per_region_not_per_pair(tmp_path):
    """The probe's board, smaller: 300 near-black regions, every pair alike in grey."""
    game = _board_game(tmp_path, [f"#{i:06x}" for i in range(300)])
    found = _board_findings(game)
    by_code = Counter(d.code for d in found)
    assert 0 < by_code["A003"] <= 299, by_code  # was 21,629 (and 18,889 A002)
    assert by_code["A002"] <= 299, by_code
    lines = Counter((d.code, d.span.line) for d in found)
    assert max(lines.values()) == 1
    first = next(d for d in found if d.code == "A003")
    assert "region 'r0' (#000000" in first.message and "region 'r1' (#000001)" in first.message


def test_one_colour_is_compared_once(tmp_path, compared):
    """400 regions in two colours that deuteranopes confuse: one pair of colours compared,
    one finding, at the first region of the second colour."""
    game = _board_game(tmp_path, ["#18a860", "#d81860"] * 200)
    found = _board_findings(game)
    assert [d.code for d in found] == ["A002"]  # was 40,000 findings
    assert "region 'r0' (#18a860" in found[0].message
    assert "region 'r1' (#d81860, and 199 more in this colour)" in found[0].message
    assert compared["vision"] <= len(meaning.VISIONS)  # was 120,000


def test_the_pairs_compared_are_charged_to_a_budget(tmp_path, compared, monkeypatch):
    """300 near-black regions, then 300 near-white ones: each near-white one looks back past
    every near-black one before its first collision. The work is bounded by MAX_PAIRS, and
    the same findings come out twice in the same order."""
    monkeypatch.setattr(meaning, "MAX_PAIRS", 5_000, raising=False)
    dark = [f"#{i:06x}" for i in range(300)]
    light = [f"#ff{0xFF - i // 256:02x}{0xFF - i % 256:02x}" for i in range(300)]
    colours = dark + light
    game = _board_game(tmp_path, colours)
    found = _board_findings(game)
    assert compared["vision"] <= 3 * 5_000, compared  # was every pair: 179,700
    assert found  # the first colours are still told
    again = _board_findings(game)
    assert [(d.code, d.span.line, d.message) for d in again] == [
        (d.code, d.span.line, d.message) for d in found
    ]


LAYOUT = """\
# yaml-language-server: $schema=../../../../../schemas/layout.schema.json
id: standard
elements:
BANDS  - kind: text
    box: {x: 4, y: 20, w: -4, h: 30}
    text: "{{ card.text }}"
    size: {max: 10, min: 7}
"""


def test_layout_alternatives_one_finding_each(tmp_path):
    """A layout's alternatives go through the same loop: 120 bands in one box, picked by
    the card's id, in near-black fills."""
    game = build_case(FIXTURES / "broken" / "low-contrast", tmp_path / "game")
    bands = "".join(
        f"  - {{kind: box, when: \"card.id == 'c{i}'\", box: {{x: 2, y: 2, w: -2, h: 10}}, "
        f'fill: "#{i:06x}"}}\n'
        for i in range(120)
    )
    (game / "layouts" / "standard.yaml").write_text(LAYOUT.replace("BANDS", bands))
    found = [d for d in meaning.check(load_game(game)) if "layouts/" in d.file]
    by_code = Counter(d.code for d in found)
    assert 0 < by_code["A003"] <= 119, by_code  # was 6,884 (a pair each)
    assert max(Counter((d.code, d.span.line) for d in found).values()) == 1
