"""Validate a parsed document against a model and map pydantic errors to exact positions."""

from __future__ import annotations

import re
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from toolkit.content.source import Document
from toolkit.content.suggest import Budget, Pool, tipped, tips_run
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


_FIELDS: weakref.WeakKeyDictionary[TypeAdapter[Any], tuple[str, ...]] = weakref.WeakKeyDictionary()
"""An adapter's field names (from its JSON schema): worked out once per adapter, not once
per error (a layout naming one element of 100 unknown keys 1,000 times by alias built the
model's JSON schema 100,000 times: 364 s of validate, probe 23). Weak: a game reloaded
leaves its plugin's models collectable."""


def _close_field(adapter: TypeAdapter[Any], key: str) -> str:
    """The model's field name closest to the unknown `key`, or '': searched through the run's
    tips (toolkit.content.suggest), each key once and a few keys a run (a card file of 5,000
    unknown fields was 5,000 searches)."""
    names = _FIELDS.get(adapter)
    if names is None:
        names = _FIELDS[adapter] = tuple(_field_names(adapter))
    return tipped(key, names) or ""


def _field_names(adapter: TypeAdapter[Any]) -> list[str]:
    """Every field name of the adapter's models, from its JSON schema."""
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


def _wanted(err: ErrorDetails) -> str:
    pattern = str(err.get("ctx", {}).get("pattern", ""))
    return PATTERN_WORDS.get(pattern, f"a text matching {pattern}")


def _key_message(err: ErrorDetails, doc: Document) -> str:
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


def _message(err: ErrorDetails, adapter: TypeAdapter[Any]) -> tuple[Any, str]:
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
        hint = _close_field(adapter, key)
        tip = f"; did you mean {hint!r}?" if hint else ""
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
    if kind in TYPE_WORDS:
        return S_TYPE, _type_message(err)
    return S_TYPE, msg


# What a designer is told a value should be, by pydantic's error type.
TYPE_WORDS = {
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "int_parsing": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a text",
    "list_type": "a list (one `- item` per line)",
    "dict_type": "a mapping (`key: value` lines)",
    "model_type": "a mapping (`key: value` lines)",
    "model_attributes_type": "a mapping (`key: value` lines)",
}


def _type_message(err: ErrorDetails) -> str:
    """`price should be a whole number: write 3 without quotes` rather than pydantic's
    `Input should be a valid integer`: the field, what it takes, and how to write it."""
    names: list[str] = []
    for seg in reversed(err["loc"]):  # the field's own path, after its entry's index
        if not isinstance(seg, str):
            break
        names.insert(0, seg)
    field = ".".join(names) or "this value"
    wanted = TYPE_WORDS[err["type"]]
    got = err.get("input")
    if isinstance(got, str) and wanted in ("a whole number", "a number", "true or false"):
        bare = got.strip()
        if _reads_as(bare, wanted):
            return f"{field} should be {wanted}, not a text: write {bare} without quotes"
    if isinstance(got, dict):
        shown = "a mapping"
    elif isinstance(got, list):
        shown = "a list"
    elif isinstance(got, bool) or got is None:
        shown = {True: "true", False: "false", None: "nothing"}[got]
    else:
        shown = repr(got) if len(repr(got)) <= 60 else repr(got)[:57] + "..."
    return f"{field} should be {wanted}, not {shown}"


def _reads_as(text: str, wanted: str) -> bool:
    """Whether `text`, unquoted, would be read as what the field wants (`3`, `2.5`, `true`)."""
    if wanted == "true or false":
        return text in ("true", "false")
    pattern = r"[+-]?[0-9]+" if wanted == "a whole number" else r"[+-]?[0-9]+(?:\.[0-9]+)?"
    return re.fullmatch(pattern, text) is not None


def validate_document(
    doc: Document, adapter: TypeAdapter[Any]
) -> tuple[Any | None, list[Diagnostic]]:
    """Validate `doc.data`; return the model or None and one diagnostic per faulty place."""
    try:
        return adapter.validate_python(doc.data), []
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    errors = _drop_renamed(errors)
    with tips_run():  # the game's load, or this document's own
        return None, _diagnostics(doc, adapter, errors)


def _diagnostics(doc: Document, adapter: TypeAdapter[Any], errors: list[Any]) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    seen: set[tuple[Any, ...]] = set()
    said: set[tuple[str, Any, str]] = set()
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
        if (diag_rule.code, span, message) in said:
            continue  # one text aliased into many languages: its anchor's one finding
        said.add((diag_rule.code, span, message))
        diags.append(diag_rule.at(doc.display, span, message))
    return diags


def _drop_renamed(errors: list[Any]) -> list[Any]:
    """A misspelt key is one fault: keep 'unknown field', drop the 'missing' it causes."""
    unknown: dict[tuple[Any, ...], set[str]] = defaultdict(set)  # by the mapping holding them
    for e in errors:
        if e["type"] == "extra_forbidden":
            unknown[tuple(e["loc"][:-1])].add(str(e["loc"][-1]))
    kept = []
    budget = Budget()  # the searches of one document's errors, in their order
    pools: dict[tuple[Any, ...], Pool] = {}  # (each missing key searched all: 90 s)
    for err in errors:
        if err["type"] == "missing":
            parent, name = tuple(err["loc"][:-1]), str(err["loc"][-1])
            if parent in unknown and parent not in pools:
                pools[parent] = Pool(sorted(unknown[parent]), budget)
            if parent in pools and pools[parent].close(name, cutoff=0.75) is not None:
                continue
        kept.append(err)
    return kept


@dataclass(frozen=True)
class Partial:
    """A file that failed validation, validated again without its faulty entries, so that
    reference and translation rules still check the entries that are fine.

    `kept[list_path]` gives, for each entry of that list in `model`, its index in the file;
    `withheld` holds the ids of the entries left out (a reference to one is not reported as
    unknown: its entry has its own schema error)."""

    model: Any
    kept: dict[tuple[Any, ...], tuple[int, ...]] = field(default_factory=dict)
    withheld: frozenset[str] = frozenset()

    def file_path(self, path: tuple[Any, ...]) -> tuple[Any, ...]:
        """The path in the file of a path in `model`."""
        for where, indexes in self.kept.items():
            n = len(where)
            if path[:n] == where and len(path) > n and isinstance(path[n], int):
                return (*where, indexes[path[n]], *path[n + 1 :])
        return path


def _faulty_entry(doc: Document, loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], int] | None:
    """The outermost list entry an error lies in: (the list's path, the entry's index)."""
    path = doc.resolve(loc)
    value = doc.data
    for depth, seg in enumerate(path):
        if isinstance(value, list) and isinstance(seg, int):
            return tuple(path[:depth]), seg
        value = value[seg]
    return None


def validate_entries(doc: Document, adapter: TypeAdapter[Any]) -> Partial | None:
    """The file's model without the list entries that have errors, or None when an error
    lies outside every list entry (the file's own fields) or the rest does not validate."""
    try:
        adapter.validate_python(doc.data)
        return None  # nothing to leave out
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    faulty: dict[tuple[Any, ...], set[int]] = {}
    for err in errors:
        found = _faulty_entry(doc, tuple(err["loc"]))
        if found is None:
            return None
        faulty.setdefault(found[0], set()).add(found[1])
    if len(faulty) > 1 and any(a != b and b[: len(a)] == a for a in faulty for b in faulty):
        return None  # lists inside lists: not worth the bookkeeping
    data = doc.data
    kept: dict[tuple[Any, ...], tuple[int, ...]] = {}
    withheld: set[str] = set()
    for where, bad in faulty.items():
        items = doc.get(where)
        kept[where] = tuple(i for i in range(len(items)) if i not in bad)
        for i in bad:
            ident = items[i].get("id") if isinstance(items[i], dict) else None
            if isinstance(ident, str):
                withheld.add(ident)
        data = _replaced(data, where, [items[i] for i in kept[where]])
    try:
        model = adapter.validate_python(data)
    except ValidationError:
        return None
    return Partial(model, kept, frozenset(withheld))


def _replaced(data: Any, where: tuple[Any, ...], value: Any) -> Any:
    """`data` with the value at `where` replaced (copies along the path only)."""
    if not where:
        return value
    head, rest = where[0], where[1:]
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[head] = _replaced(data[head], rest, value)
    return copy
