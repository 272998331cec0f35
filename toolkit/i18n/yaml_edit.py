"""Edit scalars in a YAML file in place, by their recorded spans.

Only the bytes of the changed scalars move: comments, order, quoting and line breaks
everywhere else stay byte-identical (a ruamel round trip would re-flow long lines and
re-quote strings). Every edit is verified by parsing the result again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.content.source import Document, parse_document
from toolkit.diagnostics import Span

PLAIN_SAFE = re.compile(r"^[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*$")
RISKY = re.compile(r":\s|\s#|:$")
SPECIAL_WORDS = {"true", "false", "null", "~", "yes", "no", "on", "off"}


def yaml_scalar(value: str) -> str:
    """The text of a YAML scalar for `value`: plain when that is unambiguous, else quoted."""
    if (
        value
        and PLAIN_SAFE.match(value)
        and not RISKY.search(value)
        and value == value.strip()
        and value.lower() not in SPECIAL_WORDS
        and not re.fullmatch(r"[-+]?[\d.][\d._eE+-]*", value)
    ):
        return value
    return json.dumps(value, ensure_ascii=False)


def _offsets(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


@dataclass(frozen=True)
class Edit:
    """Put `value` at data `path` (a localized text's language key) in one file."""

    path: tuple[Any, ...]
    value: str


def _offset(starts: list[int], line: int, col: int) -> int:
    return starts[line - 1] + col - 1


def _scalar_end(text: str, start: int, span: Span, starts: list[int]) -> int:
    end = _offset(starts, span.end_line or span.line, span.end_col or span.col)
    # block scalars end at the next line's start; keep the newline that ends the value
    while end > start and text[end - 1] in "\n ":
        end -= 1
    return end


def apply_edits(path: Path, doc: Document, edits: list[Edit]) -> str:
    """The file's new text with every edit applied (raises ValueError if one fails)."""
    text = path.read_text(encoding="utf-8")
    starts = _offsets(text)
    planned: list[tuple[int, int, str]] = []
    for edit in edits:
        if edit.path in doc.spans:
            span = doc.spans[edit.path]
            start = _offset(starts, span.line, span.col)
            end = _scalar_end(text, start, span, starts)
            planned.append((start, end, yaml_scalar(edit.value)))
        else:
            planned.append(_insertion(text, doc, starts, edit))
    for start, end, new in sorted(planned, key=lambda p: p[0], reverse=True):
        text = text[:start] + new + text[end:]
    _verify(path, text, edits)
    return text


def _insertion(text: str, doc: Document, starts: list[int], edit: Edit) -> tuple[int, int, str]:
    """Add a missing language key to its localized mapping (block or flow style)."""
    parent, key = edit.path[:-1], edit.path[-1]
    mapping = doc.get(parent)
    if not isinstance(mapping, dict) or not mapping:
        raise ValueError(f"cannot add {key!r}: {parent} is not a mapping")
    span = doc.span(parent)
    start = _offset(starts, span.line, span.col)
    if text[start] == "{":
        close = _offset(starts, span.end_line or span.line, span.end_col or span.col) - 1
        return close, close, f", {key}: {yaml_scalar(edit.value)}"
    last = list(mapping)[-1]
    key_span = doc.key_span((*parent, last))
    value_span = doc.span((*parent, last))
    line_end = text.find("\n", _offset(starts, value_span.end_line or value_span.line, 1))
    line_end = len(text) if line_end < 0 else line_end
    indent = " " * (key_span.col - 1)
    return line_end, line_end, f"\n{indent}{key}: {yaml_scalar(edit.value)}"


def _verify(path: Path, text: str, edits: list[Edit]) -> None:
    """Parse the edited text in memory: no probe file beside the content (a fixed name there
    could be a planted symlink that the write would follow)."""
    doc, diags = parse_document(path, path.name, text.encode("utf-8"))
    if doc is None:
        raise ValueError(f"edit would break {path}: {diags[0].message}")
    for edit in edits:
        if doc.get(edit.path) != edit.value:
            raise ValueError(f"edit of {'.'.join(map(str, edit.path))} did not round-trip")
