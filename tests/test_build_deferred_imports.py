"""`playset build` loads PIL's Image module (imported by reportlab at its top) only when a
picture is drawn: a build of text cards never runs it, a build with a picture prints the same
bytes as one that imported it at start-up."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES

RUN_AS_COMMAND = """
import runpy, sys
sys.argv = ["__main__.py", *sys.argv[1:]]
try:
    runpy.run_module("toolkit", run_name="__main__")
finally:
    from toolkit.deferred_imports import is_loaded
    print("PIL.Image loaded:", is_loaded("PIL.Image"), file=sys.stderr)
"""


def _build_as_command(game: Path, out: Path) -> str:
    """`playset build GAME --lang en` as its own process (the command, not a library call):
    its stderr."""
    env = {**os.environ, "PLAYSET_NO_CACHE": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            RUN_AS_COMMAND,
            "build",
            str(game),
            "--lang",
            "en",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_build_of_text_cards_never_runs_pil_image(tmp_path):
    said = _build_as_command(FIXTURES / "base", tmp_path / "out")
    assert "PIL.Image loaded: False" in said
    assert list((tmp_path / "out").rglob("*.pdf"))


def test_a_build_with_a_picture_loads_pil_and_prints_the_same_bytes(run_cli, tmp_path):
    from PIL import Image

    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    Image.new("RGB", (40, 30), (200, 30, 60)).save(game / "decks" / "pic.png")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("    copies: 2", "    copies: 2\n    image: decks/pic.png", 1)
    )
    said = _build_as_command(game, tmp_path / "command")
    assert "PIL.Image loaded: True" in said
    # the same build in this process, PIL imported as ever
    result = run_cli("build", str(game), "--lang", "en", "--out", str(tmp_path / "library"))
    assert result.exit_code == 0, result.output
    made = sorted(
        p.relative_to(tmp_path / "command") for p in (tmp_path / "command").rglob("*.pdf")
    )
    assert made
    for path in made:
        assert (tmp_path / "command" / path).read_bytes() == (
            tmp_path / "library" / path
        ).read_bytes()


def test_deferring_leaves_an_imported_module_alone():
    from toolkit.deferred_imports import defer, is_loaded

    assert "json" in sys.modules or __import__("json")
    assert defer("json") is False
    assert defer("toolkit.no_such_module") is False
    assert is_loaded("json")
