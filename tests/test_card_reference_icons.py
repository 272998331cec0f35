"""The rulebook's card reference prints a card's text with its values filled in, and draws
the inline icons it names: a parameter `:zork:` (no such icon) printed as written with
validate clean, when no card face prints that text (probe 20 M4). It is P007 at the value."""

from __future__ import annotations

from toolkit.scaffold.new import new_game

PLAIN = """id: plain
elements:
  - kind: text
    box: {x: 5, y: 5, w: -5, h: 10}
    text: "{{ card.name }}"
"""


def test_an_unknown_icon_the_card_reference_prints_is_p007_at_the_value(run_cli, tmp_path):
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    (game / "layouts" / "plain.yaml").write_text(PLAIN, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "size: poker\n" in text and "      steps: 2\n" in text
    text = text.replace("size: poker\n", "size: poker\nlayout: plain\n", 1)
    text = text.replace("      steps: 2\n", "      steps: ':zork:'\n", 1)
    deck.write_text(text, encoding="utf-8")
    line = text.splitlines().index("      steps: ':zork:'") + 1
    result = run_cli("validate", str(game), "--no-cache", "--select", "P007")
    assert result.exit_code == 1, result.output
    assert f"decks/cards.yaml:{line}:14: P007" in result.output, result.output
    assert "card reference prints ':zork:'" in result.output
