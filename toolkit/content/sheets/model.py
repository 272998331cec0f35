"""The header row checked against the deck's model: a header naming no field the cards can
have (a typo, `pirce` for `price`) is one S002 at the header cell, found from the model's
JSON Schema, instead of one finding per card."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from toolkit.content.sheets.header import Column
from toolkit.content.suggest import tipped

_SCHEMAS: dict[int, tuple[TypeAdapter[Any], dict[str, Any]]] = {}
_FREE = {
    "type",
    "properties",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "const",
    "enum",
}


def _schema(adapter: TypeAdapter[Any]) -> dict[str, Any]:
    cached = _SCHEMAS.get(id(adapter))
    if cached is None or cached[0] is not adapter:
        cached = _SCHEMAS[id(adapter)] = (adapter, adapter.json_schema())
    return cached[1]


def _members(node: Any, defs: dict[str, Any]) -> list[dict[str, Any]]:
    """The object schemas a node may be: references followed, unions opened."""
    if not isinstance(node, dict):
        return [{}]
    seen = 0
    while "$ref" in node and seen < 50:
        node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
        seen += 1
    for key in ("anyOf", "oneOf", "allOf"):
        if key in node:
            return [m for sub in node[key] for m in _members(sub, defs)]
    return [node]


def _const(node: dict[str, Any]) -> Any:
    if "const" in node:
        return node["const"]
    enum = node.get("enum")
    return enum[0] if isinstance(enum, list) and len(enum) == 1 else None


class HeaderCheck:
    """Judges the headers of one sheet: the rows' model comes from the deck's own keys (its
    `kind` picks one deck model of a game's union)."""

    def __init__(self, adapter: TypeAdapter[Any], deck: dict[str, Any], rows_key: str) -> None:
        schema = _schema(adapter)
        self.defs: dict[str, Any] = schema.get("$defs", {})
        decks = _members(schema, self.defs)
        kind = deck.get("kind")
        chosen = [
            m
            for m in decks
            if _const(_members(m.get("properties", {}).get("kind"), self.defs)[0]) == kind
        ]
        self.near: set[str] = set()
        """Fields an unknown header seems a typo of: their S003 (missing) findings, one per
        card, only repeat the header's own finding."""
        self.rows: list[dict[str, Any]] = []
        for deck_schema in chosen or decks:
            rows = deck_schema.get("properties", {}).get(rows_key)
            for member in _members(rows, self.defs):
                self.rows += _members(member.get("items"), self.defs)

    def __call__(self, column: Column) -> str | None:
        if not self.rows or self._known(self.rows, column.path):
            return None
        names = sorted({n for m in self.rows for n in m.get("properties", {})})
        first = column.path[0]
        # searched through the run's tips (toolkit.content.suggest): 40 sheets of 990 unknown
        # headers were 39,600 searches; past the run's first few names, no 'did you mean'
        close = tipped(first, names) if isinstance(first, str) else None
        near = [close] if close is not None else []
        hint = f"; did you mean {close!r}?" if close is not None and close != first else ""
        self.near.update(near)
        return f"{column.text!r} names no field of these cards{hint}"

    def _known(self, members: list[dict[str, Any]], path: tuple[Any, ...]) -> bool:
        if not path:
            return True
        seg, rest = path[0], path[1:]
        following: list[dict[str, Any]] = []
        for member in members:
            if not _FREE & member.keys() and member.get("additionalProperties") is not False:
                return True  # any value: nothing to check below
            if isinstance(seg, tuple):
                items = member.get("prefixItems")
                if isinstance(items, list):
                    if seg[0] < len(items):
                        following += _members(items[seg[0]], self.defs)
                    elif member.get("items"):
                        following += _members(member["items"], self.defs)
                elif "items" in member:
                    following += _members(member["items"], self.defs)
                continue
            props = member.get("properties", {})
            if str(seg) in props:
                following += _members(props[str(seg)], self.defs)
                continue
            extra = member.get("additionalProperties")
            if isinstance(extra, dict):
                following += _members(extra, self.defs)
            elif extra is True or (member.get("type") == "object" and extra is None and not props):
                return True
            patterns = member.get("patternProperties")
            if isinstance(patterns, dict):
                for sub in patterns.values():
                    following += _members(sub, self.defs)
        return bool(following) and self._known(following, rest)
