"""Findings of the seventh hostile probe of the file system (issue #33): what a game folder
could still make Playset run, read or write outside it, each with its test."""

from __future__ import annotations

import importlib.util
import py_compile
import sys
from pathlib import Path

import pytest

# --- G1, G2: an engine is imported from its source, never from __pycache__ -----------------


def _plant_pyc(source: Path, code: str, tmp_path: Path) -> None:
    """An "unchecked-hash" .pyc of `code` where Python looks for `source`'s bytecode."""
    other = tmp_path / "elsewhere" / source.name
    other.parent.mkdir(exist_ok=True)
    other.write_text(code)
    cfile = importlib.util.cache_from_source(str(source))
    Path(cfile).parent.mkdir(exist_ok=True)
    py_compile.compile(
        str(other), cfile=cfile, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
    )


def test_an_engine_file_runs_its_source_not_a_planted_pyc(tmp_path, monkeypatch):
    from toolkit.sim.engines import _import

    engine = tmp_path / "game" / "engine.py"
    engine.parent.mkdir()
    engine.write_text("WHO = 'source'\n")
    _plant_pyc(engine, "WHO = 'planted'\n", tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert _import(engine, None).WHO == "source"


def test_a_package_engine_runs_its_modules_sources_not_planted_pycs(tmp_path, monkeypatch):
    from toolkit.sim.engines import _import

    package = tmp_path / "game" / "rules"
    (package / "parts").mkdir(parents=True)
    (package / "__init__.py").write_text("from .helper import WHO\nfrom .parts import deep\n")
    (package / "helper.py").write_text("WHO = 'source'\n")
    (package / "parts" / "__init__.py").write_text("")
    (package / "parts" / "deep.py").write_text("WHAT = 'source'\n")
    _plant_pyc(package / "helper.py", "WHO = 'planted'\n", tmp_path)
    _plant_pyc(package / "parts" / "deep.py", "WHAT = 'planted'\n", tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    module = _import(package / "__init__.py", package)
    assert module.WHO == "source"
    assert module.deep.WHAT == "source"


def test_importing_an_engine_writes_no_bytecode_through_a_pycache_link(tmp_path, monkeypatch):
    from toolkit.sim.engines import _import

    outside = tmp_path / "outside"
    outside.mkdir()
    game = tmp_path / "game"
    game.mkdir()
    (game / "__pycache__").symlink_to(outside)
    (game / "engine.py").write_text("X = 1\n")
    package = game / "pkg"
    package.mkdir()
    (package / "__pycache__").symlink_to(outside)
    (package / "__init__.py").write_text("from . import sub\n")
    (package / "sub.py").write_text("Y = 2\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert _import(game / "engine.py", None).X == 1
    assert _import(package / "__init__.py", package).sub.Y == 2
    assert list(outside.iterdir()) == []


# --- G3, G4, G5: `reference` and `icons` in a game folder, the toolkit installed ----------


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The current folder is a game folder, and the toolkit runs as installed from a wheel
    (no checkout): `reference` and `icons` write below the current folder by default."""
    from toolkit import home, reference
    from toolkit.reference import icon_sheet

    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text("id: x\n")
    monkeypatch.chdir(game)
    monkeypatch.setattr(home, "_checkout", lambda: None)
    monkeypatch.delenv("PLAYSET_HOME", raising=False)
    # the files' contents do not matter here, only where they go (and the test stays fast)
    monkeypatch.setattr(reference, "render", lambda cli, plugins=False: "# reference\n")
    monkeypatch.setattr(icon_sheet, "icon_sheet", lambda paper: b"%PDF-1.4 sheet\n")
    return game


def test_reference_writes_through_no_link_a_game_folder_brought(installed, run_cli, tmp_path):
    mine = tmp_path / "bashrc"
    mine.write_text("mine\n")
    (installed / "docs").mkdir()
    (installed / "docs" / "reference.md").symlink_to(mine)
    result = run_cli("reference")
    assert result.exit_code == 1
    assert "symbolic link" in result.output
    assert mine.read_text() == "mine\n"


def test_reference_follows_no_docs_folder_link_a_game_folder_brought(installed, run_cli, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (installed / "docs").symlink_to(elsewhere)
    assert run_cli("reference").exit_code == 1
    assert list(elsewhere.iterdir()) == []


def test_reference_still_writes_its_default_file(installed, run_cli):
    (installed / "docs").mkdir()
    assert run_cli("reference").exit_code == 0
    assert (installed / "docs" / "reference.md").read_text() == "# reference\n"
    assert run_cli("reference", "--check").exit_code == 0


def test_icons_follow_no_output_link_a_game_folder_brought(installed, run_cli, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (installed / "output").symlink_to(elsewhere)
    result = run_cli("icons")
    assert result.exit_code == 1
    assert list(elsewhere.iterdir()) == []
    (installed / "output").unlink()
    assert run_cli("icons").exit_code == 0
    assert (installed / "output" / "icons.pdf").read_bytes() == b"%PDF-1.4 sheet\n"


def test_reference_check_reads_a_sparse_file_no_further_than_the_reference(
    installed, run_cli, monkeypatch
):
    # a 3 GB sparse docs/reference.md (a few bytes in a tar) cost `reference --check` 85 s
    # and 6.3 GB; it is compared by size first, then read no further than the reference
    (installed / "docs").mkdir()
    with open(installed / "docs" / "reference.md", "wb") as handle:
        handle.truncate(3 * 1024**3)
    read: list[int] = []
    real_read = Path.read_bytes

    def spy(self):
        read.append(self.stat().st_size)
        return real_read(self)

    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: spy(self).decode())
    monkeypatch.setattr(Path, "read_bytes", spy)
    assert run_cli("reference", "--check").exit_code == 1
    run_cli("reference")
    assert not [size for size in read if size > 1024**2]


# --- G8: two images of one export under one name ---------------------------------------------


def test_an_export_refuses_two_images_under_one_name(tmp_path, run_cli):
    # the deck `bank-backs` has its face sheet named as the question bank `bank`'s backs:
    # `bank-backs-1.png` was written twice, the bank's answers lost and the save naming the
    # deck's faces as their backs
    from tests.conftest import FIXTURES, copy_game

    game = copy_game(FIXTURES / "base", tmp_path / "game")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("\nid: cards\n", "\nid: bank-backs\n"))
    out = tmp_path / "out"
    result = run_cli("export", "tts", str(game), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1
    assert "two files of this export are named bank-backs-1.png" in result.output


# --- Lows from probe 6: `new --into` a linked empty folder, `--out ''` ------------------------


def test_new_writes_no_game_through_a_link_to_an_empty_folder(tmp_path, run_cli):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "parent").mkdir()
    (tmp_path / "parent" / "demo").symlink_to(elsewhere)
    result = run_cli("new", "demo", "--into", str(tmp_path / "parent"))
    assert result.exit_code != 0
    assert "symbolic link" in result.output
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [
        ["build"],
        ["export", "png"],
        ["calibrate"],
        ["schemas", "export"],
        ["i18n", "add-language", "de"],
    ],
)
def test_an_empty_out_folder_is_a_usage_error(tmp_path, run_cli, monkeypatch, command):
    # `build --out ''` wrote the game's PDFs into the current folder (Path('') is '.')
    monkeypatch.chdir(tmp_path)
    result = run_cli(*command, "--out", "")
    assert result.exit_code == 2
    assert "names no folder" in result.output
    assert list(tmp_path.iterdir()) == []


# --- R009 (Low from probe 6): no word of whether a path outside the game exists -------------


def test_a_modeline_outside_the_game_says_nothing_of_whether_its_path_exists(tmp_path, run_cli):
    import json

    from toolkit.scaffold.new import new_game

    game = tmp_path / "demo"
    new_game(game, "demo", ["en"])
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "there.json").write_text("{}")
    glossary = game / "glossary.yaml"
    text = glossary.read_text()
    outputs = []
    for target in (mine / "there.json", mine / "missing.json", "../mine/missing.json"):
        glossary.write_text(text.replace("schemas/glossary.schema.json", str(target), 1))
        result = run_cli("validate", str(game), "--format", "json")
        outputs.append([d["code"] for d in json.loads(result.stdout or "[]")])
    assert outputs == [[], [], []]
    # inside the game folder a missing schema is still a warning
    glossary.write_text(text.replace("schemas/glossary.schema.json", "schemas/nope.json", 1))
    result = run_cli("validate", str(game), "--format", "json")
    assert [d["code"] for d in json.loads(result.stdout)] == ["R009"]
