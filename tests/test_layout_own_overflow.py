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


def test_a_card_text_read_through_a_let_too_long_is_p001_at_its_field(run_cli, tmp_path):
    # `{{ body }}` with `let: body: card.text` prints the card's text: its overflow was said
    # at the card's `id` line ("treasure id (en)"), not at the text that is too long
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    layout = game / "layouts" / "example-card.yaml"
    text = layout.read_text(encoding="utf-8")
    text = text.replace(
        'background: "#fbf6ea"\n',
        "background: \"#fbf6ea\"\nlet:\n  body: card.text or ''\n  shown: body\n",
    )
    layout.write_text(text.replace("text: \"{{ card.text or '' }}\"", 'text: "{{ shown }}"'))
    deck = game / "decks" / "cards.yaml"
    cards = deck.read_text(encoding="utf-8").replace(
        "size: poker\n", "size: poker\nlayout: example-card\n"
    )
    deck.write_text(cards.replace("Score {points} points.", "Score {points} points. " * 60))
    lines = deck.read_text(encoding="utf-8").splitlines()
    line = next(n for n, ln in enumerate(lines, 1) if "Score {points} points. Score" in ln)
    result = run_cli("validate", str(game), "--no-cache", "--select", "P001")
    assert result.exit_code == 1, result.output
    found = [ln for ln in result.output.splitlines() if "P001" in ln]
    assert len(found) == 1, result.output
    assert f"decks/cards.yaml:{line}:11: P001" in found[0], found
    assert "treasure text (en)" in found[0], found
