"""Committed schemas match the models, and every bundled content file passes them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import REPO
from toolkit.content.game import bundled_games
from toolkit.content.schemas import drift, schema_for
from toolkit.content.source import load_document

SCHEMAS = REPO / "schemas"


def content_files() -> list[tuple[str, Path]]:
    """Every YAML file of the bundled games, their card layouts (layouts/) included."""
    return [
        (g, path) for g, root in bundled_games().items() for path in sorted(root.rglob("*.yaml"))
    ]


def jsonable(value):
    """YAML allows int keys; JSON (and so JSON Schema) sees them as strings."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def test_schemas_do_not_drift():
    assert drift(SCHEMAS) == [], "run `playset schemas export` and commit schemas/"


def test_every_bundled_game_has_content():
    assert set(bundled_games()) == {"whisky-game", "drinking-heroes", "muckle-stoater", "tokaido"}


@pytest.mark.parametrize(
    "game_id,path", content_files(), ids=[f"{g}:{p.name}" for g, p in content_files()]
)
def test_content_file_matches_schema(game_id, path):
    rel = path.relative_to(bundled_games()[game_id]).as_posix()
    schema_rel = schema_for(rel, game_id)
    assert schema_rel is not None, f"no schema for {rel}"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    expected = Path("../" * rel.count("/") + "../../schemas") / schema_rel
    assert first == f"# yaml-language-server: $schema={expected.as_posix()}"
    assert (path.parent / expected).resolve() == (SCHEMAS / schema_rel).resolve()
    schema = json.loads((SCHEMAS / schema_rel).read_text(encoding="utf-8"))
    doc, diags = load_document(path, rel)
    assert doc is not None, diags
    jsonschema.validate(jsonable(doc.data), schema)


def test_export_makes_a_fresh_folder_with_a_folder_per_game(tmp_path, run_cli):
    out = tmp_path / "fresh"
    result = run_cli("schemas", "export", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert drift(out) == []
    assert (out / "whisky-game" / "deck.schema.json").is_file()


def test_export_into_a_missing_parent_is_refused_without_a_traceback(tmp_path, run_cli):
    result = run_cli("schemas", "export", "--out", str(tmp_path / "no" / "such"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert not (tmp_path / "no").exists()
