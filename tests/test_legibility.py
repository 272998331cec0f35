"""The A rules (legibility) beyond the broken fixtures: thresholds a game sets, what tells two
colours apart, colours in every form the renderer reads, and a picture under a text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import FIXTURES, build_case, diagnostics_json
from toolkit.checks.legibility.colours import (
    VISIONS,
    contrast,
    delta_e_2000,
    grey_difference,
    rgb,
    seen_as,
    vision_difference,
)


def _codes(run_cli, game: Path, monkeypatch) -> list[dict]:
    monkeypatch.chdir(game)
    return diagnostics_json(run_cli("validate", ".", "--format", "json").stdout)


def _game(case: str, tmp_path: Path) -> Path:
    return build_case(FIXTURES / "broken" / case, tmp_path / "game")


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_colours_read_alike_in_every_form():
    assert rgb("white") == rgb("#ffffff") == rgb("#FFFFFF") == (1.0, 1.0, 1.0)
    assert rgb("darkslategray") == rgb("#2f4f4f")  # reportlab's names, as layouts draw them
    assert rgb("not a colour") is None
    assert contrast(rgb("black"), rgb("white")) == pytest.approx(21.0)
    assert contrast(rgb("#777777"), rgb("white")) == pytest.approx(4.48, abs=0.01)  # WCAG's


def test_vision_and_difference_match_coloraide():
    """The check's own arithmetic (Machado 2009 at severity 1, CIEDE2000) is coloraide's."""
    from coloraide import Color

    rng = random.Random(7)
    for _ in range(200):
        a = tuple(rng.random() for _ in range(3))
        b = tuple(rng.random() for _ in range(3))
        theirs = Color("srgb", list(a)).delta_e(Color("srgb", list(b)), method="2000")
        assert delta_e_2000(a, b) == pytest.approx(theirs, abs=0.02)
        for vision, name in zip(VISIONS, ("protan", "deutan", "tritan"), strict=True):
            simulated = Color("srgb", list(a)).filter(name, method="machado").convert("srgb")
            assert seen_as(a, vision) == pytest.approx(simulated.clip().coords(), abs=1e-9)


def test_vision_difference_tells_which_vision():
    red, green = rgb("#d81860"), rgb("#18a860")
    assert (
        vision_difference(red, green, "deuteranopia")
        < 10
        < vision_difference(red, green, "tritanopia")
    )
    assert {v: vision_difference(red, red, v) for v in VISIONS} == dict.fromkeys(VISIONS, 0.0)
    assert grey_difference(rgb("#2f6fd0"), rgb("#d04020")) < 1


def test_game_sets_its_thresholds(run_cli, tmp_path, monkeypatch):
    game = _game("small-spanish", tmp_path)
    assert [d["code"] for d in _codes(run_cli, game, monkeypatch)] == ["A004"]
    _append(game / "game.yaml", "checks:\n  legibility:\n    min_text_pt: 5.5\n")
    assert _codes(run_cli, game, monkeypatch) == []


def test_contrast_threshold_from_game_yaml(run_cli, tmp_path, monkeypatch):
    game = _game("low-contrast", tmp_path)
    _append(game / "game.yaml", "checks:\n  legibility:\n    contrast: 2.5\n")
    assert _codes(run_cli, game, monkeypatch) == []


def test_a_different_icon_tells_kinds_apart(run_cli, tmp_path, monkeypatch):
    game = _game("deutan-kinds", tmp_path)
    board = game / "boards" / "map.yaml"
    board.write_text(board.read_text().replace('"#d81860", icon: star', '"#d81860", icon: coin'))
    assert _codes(run_cli, game, monkeypatch) == []


def test_a_suppression_with_its_reason(run_cli, tmp_path, monkeypatch):
    game = _game("grey-kinds", tmp_path)
    board = game / "boards" / "map.yaml"
    board.write_text(
        board.read_text().replace(
            "icon: star}\n", "icon: star}  # playset: ignore[A003] the legend names them\n", 1
        )
    )
    assert [d["code"] for d in _codes(run_cli, game, monkeypatch)] == ["A003"]  # other line
    board.write_text(
        board.read_text().replace(
            '"#d04020", icon: star}', '"#d04020", icon: star}  # playset: ignore[A003] legend'
        )
    )
    assert _codes(run_cli, game, monkeypatch) == []


ALTERNATIVES = """\
# yaml-language-server: $schema=../../../../../schemas/layout.schema.json
id: standard
elements:
  - {kind: box, when: "card.id == 'sprint'", box: {x: 2, y: 2, w: -2, h: 10}, fill: "#18a860"}
  - {kind: box, when: "card.id == 'rest'", box: {x: 2, y: 2, w: -2, h: 10}, fill: "#d81860"}
  - kind: text
    box: {x: 4, y: 20, w: -4, h: 30}
    text: "{{ card.text }}"
    size: {max: 10, min: 7}
LABEL
"""


def test_layout_alternatives_need_a_label(run_cli, tmp_path, monkeypatch):
    """Bands picked per card by a field, in colours only: a finding at the second band; a
    text printing that field tells them apart."""
    game = _game("low-contrast", tmp_path)
    layout = game / "layouts" / "standard.yaml"
    layout.write_text(ALTERNATIVES.replace("LABEL\n", ""))
    found = _codes(run_cli, game, monkeypatch)
    assert [(d["code"], d["file"], d["line"]) for d in found] == [
        ("A002", "layouts/standard.yaml", 5)
    ]
    label = (
        '  - {kind: text, box: {x: 4, y: 12, w: -4, h: 7}, text: "{{ card.id }}", '
        "size: {max: 9, min: 7}}\n"
    )
    layout.write_text(ALTERNATIVES.replace("LABEL\n", label))
    assert [d["code"] for d in _codes(run_cli, game, monkeypatch)] == []


def test_text_over_a_picture_uses_its_average(run_cli, tmp_path, monkeypatch):
    game = _game("low-contrast", tmp_path)
    Image.new("RGB", (1200, 1200), "#202020").save(game / "dark.png")
    layout = game / "layouts" / "standard.yaml"
    layout.write_text(
        "# yaml-language-server: $schema=../../../../../schemas/layout.schema.json\n"
        "id: standard\n"
        "elements:\n"
        "  - {kind: image, box: {x: 0, y: 0, w: -0.01, h: -0.01}, path: dark.png}\n"
        "  - kind: text\n"
        "    box: {x: 4, y: 20, w: -4, h: 30}\n"
        '    text: "{{ card.name }} {{ card.text }}"\n'
        "    size: {max: 10, min: 7}\n"
        '    colour: "#303030"\n'
    )
    found = _codes(run_cli, game, monkeypatch)
    assert [(d["code"], d["line"]) for d in found] == [("A001", 9)]
    assert "#202020" in found[0]["message"]
