"""docs/engines.md cannot rot: its code blocks run, in order, in a fresh folder — `console`
lines (`$ playset …` through the CLI, `$ cd …`) must exit 0, `python` blocks run in the game
folder (so `import engine` finds engine.py), and a `yaml append=FILE` block is added to FILE."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

DOC = REPO / "docs" / "engines.md"
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.S | re.M)


def blocks() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in FENCE.finditer(DOC.read_text())]


def test_the_page_has_console_python_and_yaml_blocks():
    kinds = [kind for kind, _, _ in blocks()]
    assert kinds.count("console") >= 6 and kinds.count("python") >= 2 and "yaml" in kinds
    assert {kind for kind in kinds} <= {"console", "python", "yaml", "sh"}


# Slow (about 10-20 s): the tutorial's own commands play a few thousand games; fewer would
# no longer be the commands a reader types, which is what this test proves.
@pytest.mark.slow
def test_every_code_block_runs(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for kind, info, code in blocks():
        if kind in ("console", "sh"):
            for line in code.splitlines():
                command = line.removeprefix("$ ").strip()
                if not command or command.startswith("#"):
                    continue
                words = shlex.split(command)
                if words[0] == "cd":
                    monkeypatch.chdir(Path.cwd() / words[1])
                    continue
                assert words[0] == "playset", command
                result = run_cli(*words[1:])
                assert result.exit_code == 0, f"{command}\n{result.output}"
        elif kind == "python":
            ran = subprocess.run(
                [sys.executable, "-c", code],
                cwd=Path.cwd(),
                env=env,
                capture_output=True,
                text=True,
            )
            assert ran.returncode == 0, f"{code}\n{ran.stderr}"
        elif kind == "yaml":
            target = Path.cwd() / info.removeprefix("append=")
            assert info.startswith("append=") and target.is_file(), info
            target.write_text(target.read_text() + code)
