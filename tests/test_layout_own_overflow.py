"""A layout's own text (reading nothing of the card) that does not fit is P001 at its element
in the layout file, once a language: it was said at each card's `id`, as "advance id"."""

from __future__ import annotations

from toolkit.scaffold.new import new_game

ELEMENT = """  - kind: text
    box: {x: 5, y: 40, w: 50, h: 8}
    size: {max: 9, min: 6}
    text: "{{ 'Lorem ipsum dolor sit amet ' * 20 }}"
"""


def test_a_layouts_own_text_too_long_is_p001_at_the_layout(run_cli, tmp_path):
    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    layout = game / "layouts" / "standard.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text + ELEMENT, encoding="utf-8")
    line = text.count("\n") + 4  # the element's `text:` line
    result = run_cli("validate", str(game), "--no-cache", "--select", "P001")
    assert result.exit_code == 1, result.output
    found = [ln for ln in result.output.splitlines() if "P001" in ln]
    assert len(found) == 2, result.output  # one a language, not one a card
    assert all(f"layouts/standard.yaml:{line}:11: P001" in ln for ln in found), found
    assert "its own text" in found[0] and " id " not in found[0]
