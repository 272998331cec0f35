"""A badge prints one plain line: a line break in its text drew a box on the disc, and an
inline icon (even one the game has) printed as written, with validate clean (probe 20 M2,
M6). Each is a finding at the badge's text in the layout, once."""

from __future__ import annotations

from toolkit.scaffold.new import new_game

BADGES = """  - kind: badge
    box: {x: 20, y: -16, w: 16, h: 16}
    text: "{{ card.id[:1] }}\\n{{ card.id[1:2] }}"
    size: 14
  - kind: badge
    box: {x: 20, y: 40, w: 20, h: 20}
    text: ":token: {{ card.id[:1] }}"
    size: 9
"""


def test_a_badge_text_with_a_line_break_or_an_icon_is_a_finding(run_cli, tmp_path):
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    layout = game / "layouts" / "standard.yaml"
    before = layout.read_text(encoding="utf-8")
    layout.write_text(before + BADGES, encoding="utf-8")
    first = before.count("\n") + 3  # the first badge's text line
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert [ln for ln in lines if f"standard.yaml:{first}:11: P001" in ln and "U+000A" in ln]
    assert [ln for ln in lines if f"standard.yaml:{first + 4}:11: P007" in ln and ":token:" in ln]
    assert sum("badge text" in ln for ln in lines) == 2  # once each, not a card each
