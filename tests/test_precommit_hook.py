"""The repository's pre-commit hook, run by pre-commit itself on a scratch repository: a
commit that breaks a game is refused with the finding; a commit of a clean game or of a file
outside any game passes.

pre-commit would install Playset into an environment of its own from the hook's repository
(a minute of pip); the test runs the very hook definition of .pre-commit-hooks.yaml (entry,
files, pass_filenames) as a local hook with this environment's `playset` instead."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import FIXTURES, REPO, relink_modelines

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _hook() -> dict:
    (hook,) = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text())
    return hook


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
    }
    env["GIT_COMMITTER_EMAIL"] = "t@t"
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)


def _scratch(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    game = repo / "games" / "fixture"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    (repo / "notes.txt").write_text("not a game\n")
    hook = _hook()
    playset = Path(sys.executable).with_name("playset")
    entry = hook["entry"].replace("playset", f"{playset if playset.exists() else 'playset'}", 1)
    if not playset.exists():  # an uninstalled checkout: the module, with this interpreter
        entry = hook["entry"].replace("playset", f"{sys.executable} -m toolkit", 1)
    config = {
        "repos": [
            {
                "repo": "local",
                "hooks": [
                    {
                        "id": hook["id"],
                        "name": hook["name"],
                        "entry": entry,
                        "language": "system",
                        "pass_filenames": hook["pass_filenames"],
                        "files": hook["files"],
                    }
                ],
            }
        ]
    }
    with (repo / ".pre-commit-config.yaml").open("w") as handle:
        YAML().dump(config, handle)
    return repo


def _pre_commit(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PRE_COMMIT_HOME": str(repo.parent / "pc")}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_hook_refuses_a_broken_game_and_passes_a_clean_one(tmp_path):
    repo = _scratch(tmp_path)
    _git(repo, "add", "-A")
    clean = _pre_commit(repo)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "playset validate" in clean.stdout and "Passed" in clean.stdout
    _git(repo, "commit", "-qm", "clean game", "--no-verify")

    deck = repo / "games" / "fixture" / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("en: Move {steps} spaces.", "en: Move {stpes} spaces.")
    )
    _git(repo, "add", "-A")
    broken = _pre_commit(repo)
    assert broken.returncode == 1
    assert "decks/cards.yaml:18" in broken.stdout and "R" in broken.stdout
    assert "Failed" in broken.stdout

    _git(repo, "reset", "-q", "--hard")
    (repo / "notes.txt").write_text("still not a game\n")
    _git(repo, "add", "-A")
    outside = _pre_commit(repo)
    assert outside.returncode == 0 and "Skipped" in outside.stdout  # no game file staged
