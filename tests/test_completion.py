"""Shell completion completes values too: game ids, a game's languages and options, and the
fixed values of options such as --profile (as bash asks typer for them)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from toolkit.cli import app


def complete(words: str) -> list[str]:
    """What bash completion offers for the command line `words` (cursor at its end)."""
    parts = words.split()
    cword = len(parts) if words.endswith(" ") else len(parts) - 1
    env = {"_PLAYSET_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    result = CliRunner().invoke(app, [], env=env, prog_name="playset")
    return result.stdout.split()


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        ("playset build --profile ", ["home", "press"]),
        ("playset build --paper l", ["letter"]),
        ("playset validate whi", ["whisky-game"]),
        ("playset validate --format s", ["sarif"]),
        ("playset simulate drinking-heroes --bots greedy,r", ["greedy,random"]),
        ("playset build tokaido --lang ", ["fr", "es", "en"]),
        ("playset check --dask-idle st", ["stop", "stop:30"]),
    ],
)
def test_values_are_completed(words, offered):
    assert complete(words) == offered


def test_a_games_options_are_completed_from_its_manifest():
    offered = complete("playset simulate whisky-game --option ")
    assert offered and all("=" in value for value in offered)


def test_a_game_folder_here_is_offered(tmp_path, monkeypatch, run_cli):
    assert run_cli("new", "harbour", "--into", str(tmp_path)).exit_code == 0
    monkeypatch.chdir(tmp_path)
    assert complete("playset build har") == ["harbour/"]
