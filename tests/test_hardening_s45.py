"""Issue #33, Lows the thirteenth probe kept, fixed in session 45 (each test red before)."""

from __future__ import annotations

import os

import pytest


@pytest.mark.parametrize("command", ["simulate", "sweep"])
@pytest.mark.parametrize("hard_link", [False, True])
def test_json_and_pdf_may_not_name_one_file(run_cli, tmp_path, monkeypatch, command, hard_link):
    # `--json r --pdf r` wrote the JSON, then the PDF over it: the report the user asked
    # for first was gone, and nothing said so
    monkeypatch.chdir(tmp_path)
    second = "report"
    if hard_link:
        (tmp_path / "report").write_text("kept\n")
        os.link(tmp_path / "report", tmp_path / "same")
        second = "same"
    extra = ["--vary", "rounds=1,2"] if command == "sweep" else []
    result = run_cli(
        command, "muckle-stoater", "-n", "2", *extra, "--json", "report", "--pdf", second
    )
    assert result.exit_code == 2
    assert "--json and --pdf both name" in " ".join(result.stderr.split())
    if hard_link:
        assert (tmp_path / "report").read_text() == "kept\n"
    else:
        assert not (tmp_path / "report").exists()
