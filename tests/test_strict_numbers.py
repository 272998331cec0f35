"""Numbers in content are YAML numbers: a quoted or padded digit string, a non-ASCII digit,
a boolean or (for a count) a float is refused where it stands, not read as a number."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, REPO, copy_game
from toolkit.content.plugin import adapter, plugin_for, plugins

DECK = "decks/cards.yaml"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "game"
    copy_game(FIXTURES / "base", root)
    return root


def _replace(path: Path, old: str, new: str) -> tuple[int, int]:
    """Put `new` for the first `old`; the (line, column) where `new`'s value starts."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    before = text[: text.index(old)]
    line = before.count("\n") + 1
    key, _, value = new.partition(": ")
    col = len(before) - (before.rfind("\n") + 1) + len(key) + 3
    return line, col


@pytest.mark.parametrize(
    ("file", "old", "new"),
    [
        (DECK, "    copies: 3", '    copies: " 2"'),
        (DECK, "    copies: 3", '    copies: "2"'),
        (DECK, "    copies: 3", "    copies: \u0663"),  # ARABIC-INDIC DIGIT THREE
        (DECK, "    copies: 3", "    copies: \uff13"),  # FULLWIDTH DIGIT THREE
        (DECK, "    copies: 3", "    copies: true"),
        (DECK, "    copies: 3", "    copies: !!bool true"),
        (DECK, "    copies: 3", "    copies: 3.0"),
        ("game.yaml", "  max: 4", '  max: " 4"'),
        ("game.yaml", "  max: 4", "  max: !!bool true"),
    ],
)
def test_a_number_field_takes_only_a_yaml_number(game, run_cli, file, old, new):
    line, col = _replace(game / file, old, new)
    result = run_cli("validate", str(game), "--format", "json")
    assert result.exit_code == 1, result.output
    found = [d for d in json.loads(result.stdout) if d["file"].endswith(file)]
    assert [(d["code"], d["line"], d["col"]) for d in found] == [("S001", line, col)], found
    assert "should be a whole number" in found[0]["message"]


def test_a_plain_yaml_int_still_passes(game, run_cli):
    _replace(game / DECK, "    copies: 3", "    copies: 0x3")  # YAML 1.2 hexadecimal int
    result = run_cli("validate", str(game), "--format", "json")
    assert result.exit_code == 0, result.output


def _lax_numbers(schema: Any, path: str = "") -> list[str]:
    """Every int or float core schema that still converts strings or booleans."""
    if isinstance(schema, list):
        return [lax for i, item in enumerate(schema) for lax in _lax_numbers(item, f"{path}.{i}")]
    if not isinstance(schema, dict):
        return []
    found = []
    if schema.get("type") in ("int", "float") and not schema.get("strict"):
        found.append(path)
    for key, value in schema.items():
        if key not in ("metadata", "serialization", "default", "expected"):
            found += _lax_numbers(value, f"{path}.{key}")
    return found


def _adapters() -> dict[str, Any]:
    found = {kind: adapter(kind) for kind in ("board", "questions", "glossary")}
    for game_id, plugin in {"generic": plugin_for(None), **plugins()}.items():
        found[f"{game_id} deck"] = plugin.deck_adapter
        found[f"{game_id} game"] = plugin.manifest_adapter
    return found


@pytest.mark.parametrize("name", sorted(_adapters()))
def test_every_number_of_every_content_model_is_strict(name):
    """A new model or plugin field written as plain `int` is strict too (StrictModel)."""
    built = _adapters()[name]
    built.rebuild(force=True)  # content adapters defer building until first use
    assert isinstance(built.core_schema, dict)
    assert _lax_numbers(built.core_schema) == []


def test_a_nested_float_of_a_board_takes_only_a_yaml_number(game, run_cli):
    path = game / "boards" / "map.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    b: market\n", '    b: market\n    km: "3.5"\n', 1))
    line = text[: text.index("    b: market\n")].count("\n") + 2
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["file"].endswith("map.yaml")]
    assert result.exit_code == 1 and [(d["code"], d["line"], d["col"]) for d in found] == [
        ("S001", line, 9)
    ]


def test_a_plugin_card_number_and_a_number_key_are_strict(tmp_path, run_cli):
    heroes = tmp_path / "dh"
    copy_game(REPO / "content" / "drinking-heroes", heroes)
    path = heroes / "decks" / "monsters.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("    max_tries: 3\n", "    max_tries: true\n", 1)
    path.write_text(text.replace("sips: {1: 3,", 'sips: {"1": 3,', 1), encoding="utf-8")
    result = run_cli("validate", str(heroes), "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["file"].endswith("monsters.yaml")]
    lines = text.splitlines()
    tries = next(i for i, t in enumerate(lines, 1) if t == "    max_tries: true")
    sips = next(i for i, t in enumerate(lines, 1) if t.startswith("    sips: {1: 3,"))
    assert result.exit_code == 1
    assert {(d["code"], d["line"]) for d in found} == {("S001", tries), ("S001", sips)}
