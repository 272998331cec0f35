"""A game's fonts/ folder is read as icons/ and layouts/ are: linked outside the game it is
one finding at the folder (its files' names, a folder of the user's, were findings), and
past MAX_FILES font files one finding says the rest are not read (each file past it was a
finding of its own, and the folder was listed and sorted whole at every check)."""

from __future__ import annotations

from tests.font_maker import make_font
from toolkit.render import game_fonts
from toolkit.scaffold.new import new_game


def test_a_fonts_folder_linked_outside_is_one_finding_naming_nothing_in_it(run_cli, tmp_path):
    outside = tmp_path / "private"
    outside.mkdir()
    make_font(outside / "Secret.ttf", "Secret", "regular", "abc")
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    (game / "fonts").symlink_to(outside)
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "Secret" not in result.output, result.output
    assert "g/fonts:1:1: P009" in result.output and "links outside the game folder" in result.output


def test_font_files_past_the_bound_are_one_finding(tmp_path, monkeypatch):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    for n in range(6):
        make_font(fonts / f"f{n}.ttf", f"Family{n}", "regular", "abc")
    (fonts / "notes.txt").write_text("not a font")
    monkeypatch.setattr(game_fonts, "MAX_FILES", 2)
    found = game_fonts.font_set(tmp_path)
    assert [p.file.rsplit("/", 1)[-1] for p in found.problems] == ["f2.ttf"]
    assert {family for family, _ in found.faces} == {"family0", "family1"}
