"""Validate a parsed document against a model and map pydantic errors to exact positions."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import TypeAdapter, ValidationError

from toolkit.content.source import Document
from toolkit.diagnostics import Diagnostic, rule

S_TYPE = rule("S001", "wrong-type", "A value has the wrong type.")
S_UNKNOWN_FIELD = rule("S002", "unknown-field", "A key is not part of the schema (a typo?).")
S_MISSING_FIELD = rule("S003", "missing-field", "A required key is missing.")
S_BAD_VALUE = rule("S004", "invalid-value", "A value is out of range or not an allowed one.")
S_RULE = rule("S005", "failed-constraint", "Values disagree with each other (a model rule).")
S_UNKNOWN_KIND = rule("S006", "unknown-kind", "A `kind` tag names no known variant.")

_RANGE_TYPES = {
    "greater_than",
    "greater_than_equal",
    "less_than",
    "less_than_equal",
    "too_long",
    "too_short",
    "string_pattern_mismatch",
    "string_too_long",
    "string_too_short",
    "literal_error",
    "enum",
    "multiple_of",
    "finite_number",
}


def _field_names(adapter: TypeAdapter[Any]) -> list[str]:
    names: set[str] = set()

    def walk(schema: Any) -> None:
        if isinstance(schema, dict):
            props = schema.get("properties")
            if isinstance(props, dict):
                names.update(props)
            for value in schema.values():
                walk(value)
        elif isinstance(schema, list):
            for value in schema:
                walk(value)

    try:
        walk(adapter.json_schema())
    except Exception:  # a schema that cannot be exported still validates
        return []
    return sorted(names)


# What a designer is told a pattern asks for (the patterns of toolkit.content.models.base).
PATTERN_WORDS = {
    r"^[a-z]{2,3}$": "a language code such as fr, es or en",
    r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$": "an id (lowercase letters and digits, joined by - or _)",
}


def _wanted(err: dict[str, Any]) -> str:
    pattern = str(err.get("ctx", {}).get("pattern", ""))
    return PATTERN_WORDS.get(pattern, f"a text matching {pattern}")


def _key_message(err: dict[str, Any], doc: Document) -> str:
    """A mapping key that fails its pattern is most often a key indented one level too far
    (`copies:` under `name:` becomes a language of the name): say so, and where it goes."""
    key = doc.resolve(tuple(err["loc"][:-1]))
    name = key[-1] if key else err.get("input")
    holder = key[:-1]
    if not holder or not isinstance(holder[-1], str) or holder not in doc.key_spans:
        return f"key {name!r} is not {_wanted(err)}; is it mis-indented?"
    column = doc.key_spans[holder].col
    return (
        f"{name!r} is not {_wanted(err)}, so it cannot be a key of `{holder[-1]}`: is it"
        f" indented too far? A field of the same entry starts in the column of"
        f" `{holder[-1]}:` (column {column})"
    )


def _message(err: dict[str, Any], adapter: TypeAdapter[Any]) -> tuple[Any, str]:
    kind = err["type"]
    loc = err["loc"]
    msg = err["msg"]
    if kind == "string_pattern_mismatch" and str(err.get("ctx", {}).get("pattern")) in (
        PATTERN_WORDS
    ):
        return S_BAD_VALUE, f"{err.get('input')!r} is not {_wanted(err)}"
    if kind == "missing":
        return S_MISSING_FIELD, f"missing required field {loc[-1]!r}"
    if kind == "extra_forbidden":
        key = str(loc[-1])
        hint = difflib.get_close_matches(key, _field_names(adapter), n=1)
        tip = f"; did you mean {hint[0]!r}?" if hint else ""
        return S_UNKNOWN_FIELD, f"unknown field {key!r}{tip}"
    if kind == "union_tag_invalid":
        ctx = err.get("ctx", {})
        expected = str(ctx.get("expected_tags", "")).replace("'", "")
        return S_UNKNOWN_KIND, f"unknown kind {ctx.get('tag')!r}; expected one of: {expected}"
    if kind == "union_tag_not_found":
        ctx = err.get("ctx", {})
        name = str(ctx.get("discriminator")).strip("'")
        return S_MISSING_FIELD, f"missing required field {name!r}"
    if kind in _RANGE_TYPES:
        got = err.get("input")
        shown = repr(got) if not isinstance(got, dict | list) else type(got).__name__
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return S_BAD_VALUE, f"{msg} (got {shown})"
    if kind in ("value_error", "assertion_error"):
        return S_RULE, msg.removeprefix("Value error, ")
    return S_TYPE, msg


def validate_document(
    doc: Document, adapter: TypeAdapter[Any]
) -> tuple[Any | None, list[Diagnostic]]:
    """Validate `doc.data`; return the model or None and one diagnostic per faulty place."""
    try:
        return adapter.validate_python(doc.data), []
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    errors = _drop_renamed(errors)
    diags: list[Diagnostic] = []
    seen: set[tuple[Any, ...]] = set()
    for err in errors:
        diag_rule, message = _message(err, adapter)
        loc = tuple(err["loc"])
        is_key = bool(loc) and loc[-1] == "[key]"
        if is_key and err["type"] == "string_pattern_mismatch":
            message = _key_message(err, doc)
        if err["type"] == "union_tag_invalid":
            loc = (*loc, "kind")
        missing = err["type"] in ("missing", "union_tag_not_found")
        path = doc.resolve(loc)
        key = (path, missing, loc[-1] if missing and loc else None)
        if key in seen:
            continue
        seen.add(key)
        span = doc.locate(
            loc, missing_key=missing, unknown_key=is_key or err["type"] == "extra_forbidden"
        )
        diags.append(diag_rule.at(doc.display, span, message))
    return None, diags


def _drop_renamed(errors: list[Any]) -> list[Any]:
    """A misspelt key is one fault: keep 'unknown field', drop the 'missing' it causes."""
    unknown = {
        (tuple(e["loc"][:-1]), str(e["loc"][-1])) for e in errors if e["type"] == "extra_forbidden"
    }
    kept = []
    for err in errors:
        if err["type"] == "missing":
            parent, name = tuple(err["loc"][:-1]), str(err["loc"][-1])
            siblings = [key for p, key in unknown if p == parent]
            if difflib.get_close_matches(name, siblings, n=1, cutoff=0.75):
                continue
        kept.append(err)
    return kept
