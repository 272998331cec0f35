"""Fourth probe of issue 33, the command flows end to end: output over the game's own files,
hostile file names in findings, engines that exit, loop or return the wrong types."""

from __future__ import annotations

import shutil
from pathlib import Path

from toolkit.scaffold.new import new_game

INJECTED = "tok\n::error::INJ\x1b[31m"


def _new_game(tmp_path: Path, engine: bool = False) -> Path:
    new_game(tmp_path / "demo", "demo", ["en"], engine=engine)
    return tmp_path / "demo"


def test_a_hostile_file_name_stays_one_escaped_line_in_text_and_github_output(tmp_path, run_cli):
    # an icon named "tok\n::error::INJ\x1b[31m.svg" printed its finding's place raw: a line
    # starting `::error::` (a GitHub workflow command) and an ESC sequence for the terminal
    game = _new_game(tmp_path)
    shutil.move(game / "icons" / "token.svg", game / "icons" / f"{INJECTED}.svg")
    for fmt in ("text", "github"):
        result = run_cli("validate", str(game), "-f", fmt)
        lines = result.stdout.splitlines()
        assert lines and all(not line.startswith("::error::INJ") for line in lines), fmt
        assert "\x1b" not in result.stdout, fmt
        assert any("INJ" in line for line in lines), fmt
    assert "tok\\n::error::INJ\\x1b[31m" in run_cli("validate", str(game)).stdout
