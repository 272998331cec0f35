"""An icon's `<text>` is drawn by svglib in a standard PDF font (Helvetica, Times, Courier:
toolkit.render.svg_fonts), in its Windows-1252 encoding: a character outside it printed as a
black box with validate clean. Such an icon is P008 at its text; one whose text those fonts
print is drawn."""

from __future__ import annotations

from pathlib import Path

from toolkit.scaffold.new import new_game

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n'
    '<circle cx="50" cy="50" r="40"/>\n'
    '<text x="10" y="60" font-size="30" fill="#ffffff">{}</text>\n'
    "</svg>\n"
)


def _game(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "g"
    new_game(folder, "g", ["en"])
    (folder / "icons" / "token.svg").write_text(SVG.format(text), encoding="utf-8")
    deck = folder / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace(
            "en: Move {steps} spaces.", "en: 'Move :token: {steps} spaces.'"
        ),
        encoding="utf-8",
    )
    return folder


def test_an_icon_text_the_standard_fonts_lack_is_p008_at_the_text(run_cli, tmp_path):
    game = _game(tmp_path, "東京<tspan>✓</tspan>Ωé")
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "icons/token.svg:3:1: P008" in result.output, result.output
    assert "U+6771 '東', U+4EAC '京', U+2713 '✓', U+03A9 'Ω'" in result.output
    assert "'é'" not in result.output  # Windows-1252 holds it: it prints


def test_an_icon_text_the_standard_fonts_print_is_drawn(run_cli, tmp_path):
    game = _game(tmp_path, "12 é €")
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 0, result.output


DOCTYPE_SVG = (
    '<?xml version="1.0"?>\n'
    '<!DOCTYPE svg [<!ENTITY x "€漢"><!ENTITY paint "#ffffff">]>\n'
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n'
    '<circle cx="50" cy="50" r="40"/>\n'
    '<text x="10" y="60" font-size="30" fill="&paint;">A<tspan>&x;</tspan>B</text>\n'
    "</svg>\n"
)


def test_an_entity_in_an_icon_text_is_p008_at_the_text(run_cli, tmp_path):
    # neither svglib nor the check expands an entity in an element's text (one in an
    # attribute is expanded by both): the check read `&x;`, printable, and svglib left out
    # `€漢` and what follows it in the text, with validate clean
    game = _game(tmp_path, "")
    (game / "icons" / "token.svg").write_text(DOCTYPE_SVG, encoding="utf-8")
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "icons/token.svg:5:1: P008" in result.output, result.output
    assert "the entity &x; (declared in its DOCTYPE)" in result.output
    build = run_cli("build", str(game), "--only", "cards", "--out", str(tmp_path / "out"))
    assert "icons/token.svg:5:1: P008" in build.output, build.output


def test_an_entity_in_an_icon_attribute_is_expanded_and_drawn(run_cli, tmp_path):
    game = _game(tmp_path, "")
    (game / "icons" / "token.svg").write_text(
        DOCTYPE_SVG.replace("A<tspan>&x;</tspan>B", "AB"), encoding="utf-8"
    )
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 0, result.output
