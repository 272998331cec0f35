"""Hardening lows of session 53: an `--out` that names a file (or a name too long) is said
as such, not as a folder "not yours alone" (probe 30 L1)."""

from __future__ import annotations

import pytest

from tests.conftest import FIXTURES


@pytest.mark.parametrize("command", [["build"], ["export", "png"]])
def test_an_out_that_names_a_file_is_said_to_be_a_file(run_cli, tmp_path, command):
    # probe 30 L1: "the output folder lies in a folder that is not yours alone (ofile
    # cannot be looked at (Not a directory)), where another user could exchange it …"
    blocker = tmp_path / "ofile"
    blocker.write_text("mine")
    for out, said in [
        (blocker, "it is a file, not a folder: --out names the folder the output goes in"),
        (blocker / "sub", f"{blocker} is a file, not a folder"),
        (tmp_path / ("d" * 300), "its name is too long for the system (a name of 300 bytes)"),
    ]:
        args = [*command, str(FIXTURES / "base"), "--lang", "en", "--out", str(out)]
        result = run_cli(*args)
        assert result.exit_code == 1, result.output
        assert said in result.output and "not yours alone" not in result.output
    assert blocker.read_text() == "mine"


def test_an_output_folder_that_is_a_file_by_default_is_said_to_be_a_file(tmp_path):
    from toolkit.fileio import OutputError, make_output_root

    (tmp_path / "output").write_text("")
    with pytest.raises(OutputError, match=r"it is a file, not a folder: name a folder \(--out\)"):
        make_output_root(tmp_path / "output", named=False)
    assert make_output_root(tmp_path / "out" / "new") == tmp_path / "out" / "new"
    assert (tmp_path / "out" / "new").is_dir()


def test_a_letter_a_character_reference_prints_is_said_at_the_reference(run_cli, game):
    # the P017 and P002 of a letter printed from `&#1513;` were placed at line 1 ("printed
    # from the game's data"), not where the reference is written
    from tests.conftest import diagnostics_json

    body = "# Rules\n\nPlay.\n\nEntity: &#1513;&#1500;&#x5D5;&#1501;.\n\nA star: &#9733; &starf;\n"
    (game / "rules.md").write_text(body, encoding="utf-8")
    manifest = game / "game.yaml"
    yaml = manifest.read_text(encoding="utf-8")
    manifest.write_text(yaml.replace("files:\n", "files:\n  rulebook:\n    en: rules.md\n", 1))
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = sorted(
        (d["code"], d["line"], d["col"], "game's data" in d["message"])
        for d in diagnostics_json(result.output)
        if d["code"] in ("P002", "P017")
    )
    assert found == [("P002", 5, 9, False), ("P002", 7, 9, False), ("P017", 5, 9, False)]
