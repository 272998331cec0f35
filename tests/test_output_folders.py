"""Output folders are made when asked for: `--out` and the default `./output` with their
parents, a file's missing folders inside the current folder; nothing outside."""

from __future__ import annotations

import pytest

from toolkit.fileio import OutputError, make_output_root, make_parents


@pytest.fixture
def empty(tmp_path, monkeypatch):
    """An empty current folder, as a new user's."""
    folder = tmp_path / "empty"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def game(tmp_path, run_cli):
    result = run_cli("new", "my-game", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    return tmp_path / "my-game"


def test_calibrate_in_an_empty_folder_makes_output(run_cli, empty):
    result = run_cli("calibrate")
    assert result.exit_code == 0, result.output
    assert (empty / "output" / "calibration-a4.pdf").read_bytes().startswith(b"%PDF")


def test_calibrate_out_new_nested(run_cli, empty):
    result = run_cli("calibrate", "--out", "new/nested")
    assert result.exit_code == 0, result.output
    assert (empty / "new" / "nested" / "calibration-a4.pdf").is_file()


def test_build_and_exports_out_new_nested(run_cli, empty, game):
    result = run_cli("build", str(game), "--out", "new/nested", "--only", "cards")
    assert result.exit_code == 0, result.output
    assert (empty / "new/nested/my-game/en/cards.pdf").is_file()
    result = run_cli("export", "png", str(game), "--out", "png/nested", "--dpi", "40")
    assert result.exit_code == 0, result.output
    assert any((empty / "png/nested/my-game").rglob("*.png"))
    result = run_cli("export", "tts", str(game), "--out", "tts/nested", "--dpi", "40")
    assert result.exit_code == 0, result.output
    assert any((empty / "tts/nested/my-game").rglob("*.json"))


def test_build_by_default_makes_output_in_the_current_folder(run_cli, empty, game):
    result = run_cli("build", str(game), "--only", "rulebook")
    assert result.exit_code == 0, result.output
    assert (empty / "output/my-game/en/rulebook.pdf").is_file()


def test_file_targets_get_their_folders_inside_the_current_folder(run_cli, empty, game):
    result = run_cli("simulate", "drinking-heroes", "-n", "4", "--json", "new/nested/run.json")
    assert result.exit_code == 0, result.output
    assert (empty / "new/nested/run.json").is_file()
    result = run_cli("i18n", "export", str(game), "--template", "--out", "po/nested/my-game.pot")
    assert result.exit_code == 0, result.output
    assert (empty / "po/nested/my-game.pot").read_text(encoding="utf-8").startswith("#")


def test_no_folder_is_made_outside_the_current_folder(run_cli, empty, tmp_path):
    outside = tmp_path / "outside" / "deep" / "run.json"
    result = run_cli("simulate", "drinking-heroes", "-n", "4", "--json", str(outside))
    assert result.exit_code == 2 and "does not exist" in result.stderr
    assert not (tmp_path / "outside").exists()
    with pytest.raises(OutputError, match="does not exist"):
        make_parents(empty / "new" / ".." / ".." / "up" / "x.json", empty)
        from toolkit.fileio import atomic_write_bytes

        atomic_write_bytes(empty / "new" / ".." / ".." / "up" / "x.json", b"x")
    assert not (tmp_path / "up").exists() and not (empty / "new").exists()
    (empty / "link").symlink_to(tmp_path)
    make_parents(empty / "link" / "escaped" / "x.json", empty)
    assert not (tmp_path / "escaped").exists()


def test_a_named_output_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="it is a file, not a folder"):
        make_output_root(tmp_path / "file")
    with pytest.raises(OutputError, match="file is a file, not a folder"):
        make_output_root(tmp_path / "file" / "below")
