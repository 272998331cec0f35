"""Unknown inline icon names a layout prints are bounded findings: a layout printing 1,300
made-up names a card gave 456,971 P007 findings on 600 cards (67 MB, 4 minutes; probe 20
M8). A field of a card face says at most ICONS_A_FIELD names, and a file lists P007 50 times
at most, the 51st saying how many more."""

from __future__ import annotations

from toolkit.scaffold.new import new_game

LOOP = "{% for a in 'abcdefgh' %}{% for b in 'abcde' %}:{{ card.id }}{{ a }}{{ b }}: "
ELEMENT = f"""  - kind: text
    box: {{x: 5, y: 40, w: 50, h: 8}}
    size: {{max: 9, min: 6}}
    text: "{LOOP}{{% endfor %}}{{% endfor %}}"
"""


def test_unknown_icon_names_of_a_layout_are_bounded(run_cli, tmp_path):
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    layout = game / "layouts" / "standard.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") + ELEMENT, encoding="utf-8")
    result = run_cli("validate", str(game), "--no-cache", "--select", "P007")
    assert result.exit_code == 1, result.output
    found = [ln for ln in result.output.splitlines() if "P007" in ln]
    assert 3 * 10 <= len(found) <= 3 * 10 + 1, len(found)  # 3 cards, 10 names a card
    assert "and 30 more names the game has no icon for" in result.output
