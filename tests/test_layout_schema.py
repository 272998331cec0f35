"""Card layouts have a JSON Schema, exported with the others: every bundled and scaffolded
layout names it in its editor modeline and validates against it with check-jsonschema (what
editors and CI run), and a typo in a layout field is named."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

SCHEMA = REPO / "schemas" / "layout.schema.json"
BUILTIN = sorted((REPO / "templates" / "cards").glob("*.yaml"))
BUNDLED = sorted((REPO / "content").glob("*/layouts/*.yaml"))


def check_jsonschema() -> str:
    """The check-jsonschema command beside this Python (the test extra installs it)."""
    found = Path(sys.executable).with_name("check-jsonschema")
    if found.is_file():
        return str(found)
    path = shutil.which("check-jsonschema")
    if path is None:
        pytest.skip("check-jsonschema is not installed (pip install -e '.[test]')")
    return path


def run(*files: Path) -> subprocess.CompletedProcess[str]:
    command = [check_jsonschema(), "--schemafile", str(SCHEMA), *map(str, files)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_every_bundled_layout_has_the_modeline_and_validates():
    assert len(BUILTIN) + len(BUNDLED) >= 25
    for path in BUILTIN + BUNDLED:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        target = first.removeprefix("# yaml-language-server: $schema=")
        assert target != first, f"{path} has no modeline"
        assert (path.parent / target).resolve() == SCHEMA.resolve()
    result = run(*BUILTIN, *BUNDLED)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_typo_in_a_layout_field_is_named(tmp_path, run_cli):
    from tests.test_game_fonts import LAYOUT, themed_game

    game = themed_game(tmp_path, LAYOUT.replace("    style: bold\n", "    sytle: bold\n"))
    layout = game / "layouts" / "themed.yaml"
    result = run(layout)
    assert result.returncode == 1
    assert "'sytle'" in result.stdout  # the schema forbids unknown fields, by name
    validated = run_cli("validate", str(game))
    assert "layouts/themed.yaml:7:5: S002" in validated.stdout.replace(f"{game}/", "")  # at the key
    assert "sytle" in validated.stdout


def test_the_schema_offers_every_element_kind_and_its_fields():
    import json

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    kinds = {
        d["properties"]["kind"]["const"]
        for d in schema["$defs"].values()
        if "kind" in d.get("properties", {})
    }
    assert {"box", "text", "icon", "image", "badge"} <= kinds
    text = schema["$defs"]["TextElement"]["properties"]
    assert {"text", "style", "font", "size", "align", "valign", "colour", "fit"} <= set(text)


def test_a_new_game_gets_the_standard_layout_with_its_modeline(tmp_path, run_cli):
    game = tmp_path / "mine"
    assert run_cli("new", "mine", "--into", str(tmp_path)).exit_code == 0
    layout = game / "layouts" / "standard.yaml"
    first = layout.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schemas/layout.schema.json"
    assert (game / "schemas" / "layout.schema.json").read_text() == SCHEMA.read_text()
    result = subprocess.run(
        [
            check_jsonschema(),
            "--schemafile",
            str(game / "schemas" / "layout.schema.json"),
            str(layout),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout
    assert run_cli("validate", str(game)).exit_code == 0
