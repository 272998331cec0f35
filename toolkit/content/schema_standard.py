"""Pydantic's JSON Schema made plain draft 2020-12, for validators in strict mode.

Pydantic writes two things strict validators (ajv's default strict mode) refuse:

- `discriminator` beside a `oneOf`: an OpenAPI keyword, unknown to JSON Schema. It also makes
  every branch report against a wrong card (check-jsonschema's best match for a field typo was
  "'specials' was expected"). Each such union becomes `kind` in an `enum` plus one `if kind is
  X then <X's schema>` per value: the same instances pass, an error comes from the one branch
  the instance chose, and editors still complete `kind` and then that branch's fields.
- a dict with constrained keys as `patternProperties` next to the `properties` an editor
  completes (`fr`, `es`, `en` of a localized text), which strict mode flags as ambiguous. The
  key rule moves to `propertyNames` and the value schema to `additionalProperties` and into
  each listed property, which is also what the model enforces (pydantic refuses other keys,
  where `patternProperties` alone let them through).
"""

from __future__ import annotations

from typing import Any

ANNOTATIONS = frozenset({"title", "description", "examples", "default", "deprecated"})


def standardize(schema: Any) -> Any:
    """A copy of `schema` with every discriminated union and pattern-keyed dict rewritten."""
    if isinstance(schema, list):
        return [standardize(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    node = {
        key: value if key in ("examples", "default", "const", "enum") else standardize(value)
        for key, value in schema.items()
    }
    if "discriminator" in node:
        node = _tagged_union(node)
    if "patternProperties" in node:
        node = _keyed_dict(node)
    return node


def _tagged_union(node: dict[str, Any]) -> dict[str, Any]:
    discriminator = node.pop("discriminator")
    tag = discriminator["propertyName"]
    mapping: dict[str, str] = discriminator["mapping"]
    branches = node.pop("oneOf")
    if {"type", "properties", "required", "allOf"} & node.keys():
        raise ValueError(f"a discriminated union with its own {sorted(node)}")
    refs = [branch["$ref"] for branch in branches]
    if sorted(set(mapping.values())) != sorted(refs):
        raise ValueError(f"discriminator mapping {mapping} does not cover {refs}")
    tags = {ref: [value for value, to in mapping.items() if to == ref] for ref in refs}
    node.update(
        {
            "type": "object",
            "required": [tag],
            "properties": {tag: {"enum": list(mapping)}},
            "allOf": [
                {
                    "if": {"required": [tag], "properties": {tag: _one_of(tags[ref])}},
                    "then": {"$ref": ref},
                }
                for ref in refs  # the models' own order, as editors list them
            ],
        }
    )
    return node


def _one_of(values: list[str]) -> dict[str, Any]:
    return {"const": values[0]} if len(values) == 1 else {"enum": values}


def tagged_branches(schema: Any) -> list[tuple[str, list[str], dict[str, Any]]] | None:
    """(tag, its values, branch schema) for each branch of a union `standardize` rewrote,
    in order; None for any other schema (the reference lists such a union's variants)."""
    parts = schema.get("allOf") if isinstance(schema, dict) else None
    if not parts or not all(isinstance(p, dict) and {"if", "then"} == p.keys() for p in parts):
        return None
    found = []
    for part in parts:
        ((tag, condition),) = part["if"]["properties"].items()
        values = [condition["const"]] if "const" in condition else condition["enum"]
        found.append((tag, values, part["then"]))
    return found


def _keyed_dict(node: dict[str, Any]) -> dict[str, Any]:
    patterns = node.pop("patternProperties")
    if len(patterns) != 1 or "additionalProperties" in node:
        raise ValueError(f"cannot rewrite patternProperties {sorted(patterns)}")
    ((pattern, value),) = patterns.items()
    names = dict(node.get("propertyNames", {}))
    if names.get("pattern", pattern) != pattern:
        raise ValueError(f"two key patterns: {names['pattern']!r} and {pattern!r}")
    names["pattern"] = pattern
    node["propertyNames"] = names
    node["additionalProperties"] = value
    if "properties" in node:
        node["properties"] = {key: _merged(value, prop) for key, prop in node["properties"].items()}
    return node


def _merged(value: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """A listed property's schema: the dict's value schema plus the property's own words."""
    merged = dict(value)
    for key, item in prop.items():
        if key not in ANNOTATIONS and merged.get(key, item) != item:
            return {"allOf": [value, prop]}
        merged[key] = item
    return merged
