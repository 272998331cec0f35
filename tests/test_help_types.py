"""`--help` of every command names values as TEXT, INTEGER, PATH…, never `<str>`, and shows
nothing after a flag."""

from __future__ import annotations

import re

import pytest
import typer.main

from toolkit.cli import make_app

ANNOTATION_LABEL = re.compile(r"<(?:str|int|float|bool|path|list\[[^\]]*\])[^>]*>")


def _command_paths(command, path=()):
    found = [path]
    for name, sub in getattr(command, "commands", {}).items():
        found += _command_paths(sub, (*path, name))
    return found


PATHS = _command_paths(typer.main.get_command(make_app()))


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "playset" for p in PATHS])
def test_help_names_values_readably(run_cli, path):
    result = run_cli(*path, "--help")
    assert result.exit_code == 0, result.output
    assert ANNOTATION_LABEL.findall(result.output) == []
    help_line = next(line for line in result.output.splitlines() if "--help" in line)
    assert "BOOLEAN" not in help_line and "Show this message" in help_line


def _row(output: str, option: str) -> str:
    return next(line for line in output.splitlines() if f" {option} " in line)


def test_value_names_follow_the_type(run_cli):
    build = run_cli("build", "--help").output
    assert re.search(r"--out\s+PATH\s", _row(build, "--out"))
    assert re.search(r"--lang\s+TEXT\s", _row(build, "--lang"))
    assert re.search(r"--back-offset\s+X,Y\s", _row(build, "--back-offset"))
    assert re.search(r"--per-card\s+One page", _row(build, "--per-card"))
    simulate = run_cli("simulate", "--help").output
    assert re.search(r"--seed\s+INTEGER\s", _row(simulate, "--seed"))
    assert re.search(r"--option\s+TEXT\s", _row(simulate, "--option"))
    assert re.search(r"game\s+TEXT\s", _row(simulate, "game"))
    png = run_cli("export", "png", "--help").output
    assert re.search(r"--dpi\s+NUMBER\s", _row(png, "--dpi"))
