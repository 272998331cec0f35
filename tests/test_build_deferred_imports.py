"""`playset build` loads PIL's Image module (imported by reportlab at its top) only when a
picture is drawn: a build of text cards never runs it, a build with a picture prints the same
bytes as one that imported it at start-up. So does `playset validate` (after a card edit
too), with the same findings."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES

RUN_AS_COMMAND = """
import atexit, runpy, sys
if sys.argv[1] == "--import-pil-first":  # as before: PIL.Image run at start-up
    import PIL.Image
    del sys.argv[1]
sys.argv = ["__main__.py", *sys.argv[1:]]

def said():  # at exit: a done build or validate ends the process itself, atexit run
    from toolkit.deferred_imports import is_loaded
    print("PIL.Image loaded:", is_loaded("PIL.Image"), file=sys.stderr)

atexit.register(said)
runpy.run_module("toolkit", run_name="__main__")
"""


def _build_as_command(game: Path, out: Path, *first: str) -> str:
    """`playset build GAME --lang en --out OUT` as its own process (the command, not a
    library call; `first`: options of the script above): its stderr."""
    env = {**os.environ, "PLAYSET_NO_CACHE": "1"}
    args = ["build", str(game), "--lang", "en", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", RUN_AS_COMMAND, *first, *args],
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


def test_a_build_with_a_picture_loads_pil_and_prints_the_same_bytes(tmp_path):
    from PIL import Image

    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    Image.new("RGB", (40, 30), (200, 30, 60)).save(game / "decks" / "pic.png")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("    copies: 2", "    copies: 2\n    image: decks/pic.png", 1)
    )
    said = _build_as_command(game, tmp_path / "deferred")
    assert "PIL.Image loaded: True" in said
    _build_as_command(game, tmp_path / "imported", "--import-pil-first")
    made = sorted(
        p.relative_to(tmp_path / "deferred") for p in (tmp_path / "deferred").rglob("*.pdf")
    )
    assert made
    for path in made:
        assert (tmp_path / "deferred" / path).read_bytes() == (
            tmp_path / "imported" / path
        ).read_bytes()


def test_deferring_leaves_an_imported_module_alone():
    from toolkit.deferred_imports import defer, is_loaded

    assert "json" in sys.modules or __import__("json")
    assert defer("json") is False
    assert defer("toolkit.no_such_module") is False
    assert is_loaded("json")


def _validate_as_command(game: Path, cache: Path, *first: str) -> tuple[str, str]:
    """`playset validate GAME` as its own process with its cache in `cache`: stdout, stderr."""
    env = {**os.environ, "PLAYSET_CACHE": str(cache)}
    env.pop("PLAYSET_NO_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", RUN_AS_COMMAND, *first, "validate", str(game)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout, done.stderr


def test_validate_after_an_edit_never_runs_pil_image(tmp_path):
    # the cache's record of the modules the checks loaded read a deferred module's
    # `__file__`, which ran it
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    _validate_as_command(game, tmp_path / "cache")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text() + "\n# edited\n")
    _, said = _validate_as_command(game, tmp_path / "cache")
    assert "PIL.Image loaded: False" in said


def test_validate_of_a_game_with_a_picture_finds_the_same_deferred_or_not(tmp_path):
    from PIL import Image

    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    Image.new("RGB", (40, 30), (200, 30, 60)).save(game / "decks" / "pic.png")  # P005: 19 dpi
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("    copies: 2", "    copies: 2\n    image: decks/pic.png", 1)
    )
    found, said = _validate_as_command(game, tmp_path / "deferred")
    assert "P005" in found
    assert "PIL.Image loaded: True" in said
    assert found == _validate_as_command(game, tmp_path / "imported", "--import-pil-first")[0]


def test_the_check_families_do_not_import_reportlabs_canvas():
    """A canvas is the build's: `validate` names and lists icons (built-in and SVG) but draws
    none unless it reads an SVG icon, so importing every check family (as `validate` does)
    leaves reportlab's canvas, its PDF document, text and path objects unimported (~5 ms of
    every validate run, after a card edit too)."""
    code = (
        "import sys\n"
        "from toolkit.checks import FAMILIES\n"
        "FAMILIES.load()\n"
        "import toolkit.render.icons, toolkit.render.svg_icons\n"
        "print(sorted(m for m in sys.modules if m.startswith('reportlab.pdfgen')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "reportlab.pdfgen.canvas" not in done.stdout
