"""Shared test helpers: run the CLI in-process, copy fixture games."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolkit.cli import app

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent


@pytest.fixture
def run_cli():
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, list(args), catch_exceptions=False)

    return run


def build_case(case_dir: Path, target: Path) -> Path:
    """Copy the base fixture game to `target` and overlay a broken case's files."""
    shutil.copytree(FIXTURES / "base", target)
    for path in case_dir.rglob("*"):
        if path.is_file() and path.name != "expect.json":
            dest = target / path.relative_to(case_dir)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    return target


def diagnostics_json(output: str) -> list[dict]:
    return json.loads(output) if output.strip() else []
