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
