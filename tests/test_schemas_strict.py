"""The exported schemas as strict validators read them: plain draft 2020-12 (no OpenAPI
`discriminator`, no property that also matches a pattern), compiled by ajv in strict mode when
it is installed (see .ci/run), and a field typo reported at the field, not at a union."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from jsonschema.validators import validator_for
from jsonschema_specifications import REGISTRY as SPECS

from tests.conftest import REPO
from tests.test_schemas import jsonable
from toolkit.content.plugin import plugins
from toolkit.content.schema_standard import standardize
from toolkit.content.source import load_document

SCHEMAS = REPO / "schemas"
PATHS = sorted(SCHEMAS.rglob("*.schema.json"))
IDS = [p.relative_to(SCHEMAS).as_posix() for p in PATHS]
AJV = os.environ.get("AJV") or shutil.which("ajv")

DRAFT = "https://json-schema.org/draft/2020-12/"


def _keywords() -> list[str]:
    """Every keyword draft 2020-12 defines: the properties of its own meta-schema and of its
    vocabularies' meta-schemas (as the jsonschema package ships them)."""
    found: set[str] = set()
    for uri in SPECS:
        if uri.startswith(f"{DRAFT}meta/") or uri.rstrip("#") == f"{DRAFT}schema":
            found |= set(SPECS[uri].contents.get("properties", {}))
    return sorted(found)


KEYWORDS = _keywords()

# Draft 2020-12's own meta-schema with unknown keywords refused: `$dynamicRef: "#meta"` in the
# vocabularies resolves to this outermost `$dynamicAnchor`, so every subschema is held to it.
# The spec's own way to say it is `unevaluatedProperties: false` (SPEC_STRICT below), which
# jsonschema evaluates again for every level of nesting: 10-13 s for one large deck schema,
# 80 s for the suite. `propertyNames` over the keywords above refuses the same keywords in
# 0.5 s; test_both_strict_checks_refuse_the_same_keywords holds the two to each other.
STRICT_META = {
    "$schema": f"{DRAFT}schema",
    "$id": "urn:playset:test:strict-draft-2020-12",
    "$dynamicAnchor": "meta",
    "$ref": f"{DRAFT}schema",
    "propertyNames": {"enum": KEYWORDS},
}
STRICT = Draft202012Validator(STRICT_META)
SPEC_STRICT = Draft202012Validator(
    {**{k: v for k, v in STRICT_META.items() if k != "propertyNames"}}
    | {"$id": "urn:playset:test:spec-strict", "unevaluatedProperties": False}
)


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _subschemas(node: Any) -> list[dict[str, Any]]:
    """Every schema object, skipping values that are data (examples, defaults, consts)."""
    if isinstance(node, list):
        return [sub for item in node for sub in _subschemas(item)]
    if not isinstance(node, dict):
        return []
    found = [node]
    for key, value in node.items():
        if key in ("properties", "$defs", "patternProperties"):
            found += [sub for item in value.values() for sub in _subschemas(item)]
        elif key not in ("examples", "default", "const", "enum"):
            found += _subschemas(value)
    return found


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_schema_is_draft_2020_12_with_only_standard_keywords(path):
    schema = _load(path)
    assert validator_for(schema) is Draft202012Validator
    Draft202012Validator.check_schema(schema)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in STRICT.iter_errors(schema)]
    assert errors == []


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_no_listed_property_also_matches_a_pattern(path):
    """ajv's strict mode refuses `properties` whose names a `patternProperties` also matches."""
    for sub in _subschemas(_load(path)):
        for pattern in sub.get("patternProperties", {}):
            clash = [name for name in sub.get("properties", {}) if re.search(pattern, name)]
            assert clash == [], (pattern, clash)


def test_the_strict_check_refuses_what_pydantic_writes():
    """Pydantic's own output carries `discriminator`: the check above would catch it."""
    raw = plugins()["whisky-game"].deck_adapter.json_schema()
    messages = [e.message for e in STRICT.iter_errors(raw)]
    assert any(m.startswith("'discriminator' is not one of") for m in messages), messages
    assert list(STRICT.iter_errors(standardize(raw))) == []


def test_both_strict_checks_refuse_the_same_keywords():
    """The fast check (`propertyNames`) and the spec's (`unevaluatedProperties: false`) agree:
    on a clean schema, and on unknown keywords at the top, in `$defs`, under `properties`,
    in `items`, inside `anyOf`, and on the OpenAPI `discriminator` pydantic writes."""
    clean = {
        "$schema": f"{DRAFT}schema",
        "$defs": {"a": {"type": "object", "properties": {"x": {"type": "string"}}}},
        "anyOf": [{"$ref": "#/$defs/a"}, {"type": "array", "items": {"minimum": 1}}],
    }
    assert list(STRICT.iter_errors(clean)) == list(SPEC_STRICT.iter_errors(clean)) == []
    assert set(KEYWORDS) >= {"$defs", "unevaluatedProperties", "contentSchema", "definitions"}
    dirty = [
        {**clean, "nullable": True},
        {**clean, "$defs": {"a": {"type": "object", "discriminator": {"propertyName": "k"}}}},
        {"properties": {"x": {"type": "string", "example": "y"}}},
        {"type": "array", "items": {"minimum": 1, "exclusiveMinimum": 0, "x-order": 2}},
        {"anyOf": [{"type": "string"}, {"type": "integer", "format": "int", "x-nullable": True}]},
    ]
    for schema in dirty:
        fast = {tuple(e.absolute_path) for e in STRICT.iter_errors(schema)}
        spec = {tuple(e.absolute_path) for e in SPEC_STRICT.iter_errors(schema)}
        # The spec's check also refuses every parent of a refused subschema (`$defs` is then
        # "unevaluated" too): the places compared are the deepest ones.
        deepest = {p for p in spec if not any(q[: len(p)] == p and q != p for q in spec)}
        assert fast and fast == deepest, (schema, fast, spec)


def _deck(game: str, name: str) -> Any:
    path = REPO / "content" / game / "decks" / name
    doc, diags = load_document(path, f"decks/{name}")
    assert doc is not None, diags
    return jsonable(doc.data)


def _best(schema_rel: str, data: Any) -> Any:
    error = best_match(Draft202012Validator(_load(SCHEMAS / schema_rel)).iter_errors(data))
    assert error is not None, "the schema accepted it"
    return error


def test_a_field_typo_in_a_card_is_reported_at_the_card():
    """check-jsonschema prints jsonschema's best match: it named `kind` of another deck."""
    deck = _deck("drinking-heroes", "monsters.yaml")
    card = deck["cards"][0]
    card["kill_targte"] = card.pop("kill_target")
    error = _best("drinking-heroes/deck.schema.json", deck)
    assert list(error.absolute_path) == ["cards", 0]
    assert "'kill_targte' was unexpected" in error.message


def test_a_field_typo_in_an_effect_is_reported_at_the_effect():
    deck = _deck("whisky-game", "specials.yaml")
    index, card = next((i, c) for i, c in enumerate(deck["cards"]) if "points" in c["effect"])
    card["effect"]["pionts"] = card["effect"].pop("points")
    error = _best("whisky-game/deck.schema.json", deck)
    assert list(error.absolute_path) == ["cards", index, "effect"]
    assert "'pionts' was unexpected" in error.message


def test_an_unknown_kind_is_reported_at_kind():
    deck = _deck("whisky-game", "specials.yaml")
    deck["kind"] = "specails"
    error = _best("whisky-game/deck.schema.json", deck)
    assert list(error.absolute_path) == ["kind"]


def test_a_language_key_outside_the_pattern_is_refused_as_the_model_does():
    """`patternProperties` alone let `name: {EN: ...}` through; the model refuses it."""
    deck = _deck("whisky-game", "specials.yaml")
    deck["name"]["EN"] = "Specials"
    error = _best("whisky-game/deck.schema.json", deck)
    assert list(error.absolute_path)[:1] == ["name"]


def test_a_listed_language_keeps_the_value_rules():
    deck = _deck("whisky-game", "specials.yaml")
    deck["name"]["en"] = "x" * 4001
    error = _best("whisky-game/deck.schema.json", deck)
    assert list(error.absolute_path) == ["name", "en"]


@pytest.mark.skipif(AJV is None, reason="ajv-cli not installed (see .ci/run)")
def test_ajv_compiles_every_schema_in_strict_mode():
    # One ajv for all the schemas (`-s` once each; it names each one valid or not): Node's
    # start-up once, not once per schema (18 s of CPU for 14 starts).
    sources = [arg for path in PATHS for arg in ("-s", str(path))]
    done = subprocess.run(
        [AJV, "compile", "--spec=draft2020", "--strict=true", *sources],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(" is valid") == len(PATHS), done.stdout + done.stderr
