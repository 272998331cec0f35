"""JSON Schema to Markdown tables: one table per model, a row per field.

The content models already carry names, types, defaults, descriptions and examples, and
their JSON Schemas (`toolkit.content.schemas`) are what editors see; rendering those schemas
keeps the reference and the validators saying the same thing.
"""

from __future__ import annotations

import json
import re
from contextvars import ContextVar
from typing import Any

from toolkit.content.schema_standard import tagged_branches

Schema = dict[str, Any]

WITH_PLUGINS: ContextVar[bool] = ContextVar("reference_with_plugins", default=False)
"""Whether the reference being rendered documents the installed plugins' entries too
(`playset reference --plugins`); by default it documents Playset's own (a developer's plugins
written into the checkout's docs/reference.md made `reference --check` fail elsewhere)."""


def entries(registry: Any) -> dict[str, Any]:
    """A registry's entries as the reference documents them (see WITH_PLUGINS)."""
    return dict(registry.load() if WITH_PLUGINS.get() else registry.builtins())


def anchor(text: str) -> str:
    """A stable HTML anchor for a heading or model name."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell (one line, no bare pipes)."""
    return " ".join(str(text).split()).replace("|", "\\|")


def literal(value: Any) -> str:
    return "`" + json.dumps(value, ensure_ascii=False, sort_keys=True) + "`"


class TypeNamer:
    """Writes a schema's type as `int`, `list[Card]`, `"a" | "b"`, linking models by anchor."""

    def __init__(self, links: dict[str, str]) -> None:
        self.links = links  # $defs name → anchor of the table that documents it

    def __call__(self, schema: Schema) -> str:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            target = self.links.get(name)
            return f"[{name}](#{target})" if target else name
        if "const" in schema:
            return literal(schema["const"])
        if "enum" in schema:
            return " | ".join(literal(v) for v in schema["enum"])
        tagged = tagged_branches(schema)
        if tagged:
            return " | ".join(self(branch) for _, _, branch in tagged)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return " | ".join(self(part) for part in schema[key])
        kind = schema.get("type")
        if kind == "array":
            if "prefixItems" in schema:
                return "[" + ", ".join(self(p) for p in schema["prefixItems"]) + "]"
            items = schema.get("items")
            return f"list[{self(items)}]" if items else "list"
        if kind == "object":
            return self._object(schema)
        names: dict[str, str] = {"integer": "int", "number": "number", "string": "str"}
        names["boolean"] = "bool"
        if kind == "null":
            return "null"
        if isinstance(kind, list):
            return " | ".join(names.get(str(k), str(k)) for k in kind)
        return names.get(str(kind), "any") if kind else "any"

    def _object(self, schema: Schema) -> str:
        names = schema.get("propertyNames")
        if isinstance(names, dict) and names.get("pattern") == "^[a-z]{2,3}$":
            return "localized text (language → str)"
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            key = "str"
            if isinstance(names, dict) and "pattern" in names:
                key = "id"
            return f"map[{key}, {self(extra)}]"
        if "patternProperties" in schema:
            values = " | ".join(self(v) for v in schema["patternProperties"].values())
            return f"map[str, {values}]"
        return "mapping"


CONSTRAINTS = (
    ("minimum", "≥ {}"),
    ("exclusiveMinimum", "> {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMaximum", "< {}"),
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
    ("minItems", "at least {} items"),
    ("maxItems", "at most {} items"),
    ("pattern", "matches `{}`"),
)


def constraints(schema: Schema) -> list[str]:
    """The limits a value must respect, read from the schema and its nullable branch."""
    found: list[str] = []
    parts = [schema, *[p for p in schema.get("anyOf", []) if p.get("type") != "null"]]
    for part in parts:
        for key, text in CONSTRAINTS:
            if key in part:
                value = part[key]
                found.append(text.format(cell(value) if key != "pattern" else value))
    return found


def field_table(model: Schema, type_name: TypeNamer) -> list[str]:
    """A model's fields as a Markdown table."""
    props: dict[str, Schema] = model.get("properties", {})
    if not props:
        return ["*(no fields)*", ""]
    required = set(model.get("required", []))
    lines = [
        "| field | type | default | description |",
        "| --- | --- | --- | --- |",
    ]
    for name in props:  # the models' own order: how a designer meets them in a file
        prop = props[name]
        if name in required:
            default = "**required**"
        elif "default" in prop:
            default = literal(prop["default"])
        else:
            default = "—"
        notes = [prop.get("description", "")] if prop.get("description") else []
        limits = constraints(prop)
        if limits:
            notes.append("(" + "; ".join(limits) + ")")
        if "examples" in prop:
            notes.append("Example: " + ", ".join(literal(e) for e in prop["examples"]))
        lines.append(
            f"| `{name}` | {cell(type_name(prop))} | {cell(default)} | {cell(' '.join(notes))} |"
        )
    if model.get("additionalProperties") is False:
        lines.append("")
        lines.append("Any other key is an error (S002).")
    lines.append("")
    return lines
