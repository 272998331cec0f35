"""Findings of the seventh hostile probe of the file system (issue #33): what a game folder
could still make Playset run, read or write outside it, each with its test."""

from __future__ import annotations

import importlib.util
import py_compile
import sys
from pathlib import Path

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
