"""An icon of the game glued to a letter or digit (`pay 2:coin:`) prints as written: the one
inline-icon pattern keeps `10:30:45` and `a:b:c` words. A content text writing one is P007
at the text, saying to set it apart (probe 20 M7); an unknown name glued stays words."""

from __future__ import annotations

from toolkit.scaffold.new import new_game


def _game(tmp_path, text: str):
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    deck = game / "decks" / "cards.yaml"
    source = deck.read_text(encoding="utf-8")
    assert "en: Move {steps} spaces." in source
    deck.write_text(source.replace("en: Move {steps} spaces.", f"en: '{text}'", 1), "utf-8")
    return game


def test_an_icon_glued_to_a_digit_is_p007_at_the_text(run_cli, tmp_path):
    game = _game(tmp_path, "Move {steps} spaces, pay 2:token: now.")
    result = run_cli("validate", str(game), "--no-cache", "--select", "P007")
    assert result.exit_code == 1, result.output
    assert "':token:' touches '2'" in result.output


def test_times_and_unknown_glued_names_stay_words(run_cli, tmp_path):
    game = _game(tmp_path, "Move {steps} spaces at 10:30:45, a:b:c, pay 2 :token: now.")
    result = run_cli("validate", str(game), "--no-cache", "--select", "P007")
    assert result.exit_code == 0, result.output
