"""Edit scalars in a YAML file in place, by their recorded spans.

Only the bytes of the changed scalars move: comments, order, quoting and line breaks
everywhere else stay byte-identical (a ruamel round trip would re-flow long lines and
re-quote strings; CRLF files stay CRLF). Every edit is verified by parsing the result again.
An edit that YAML would carry to another place (an alias, a merge key) or a value with
control characters is refused with an `EditRefused` that says why.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from toolkit.content.source import MAX_FILE_BYTES, Document, parse_document
from toolkit.diagnostics import Span
from toolkit.i18n.sheet_refusal import sheet_refusal

PLAIN_SAFE = re.compile(r"^[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*$")
RISKY = re.compile(r":\s|\s#|:$")
SPECIAL_WORDS = {"true", "false", "null", "~", "yes", "no", "on", "off"}


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


class EditRefused(ValueError):
    """An edit that cannot be made honestly; the message is for the translator."""


def check_value(value: str) -> None:
    """Refuse characters a translation never needs and YAML cannot keep as they are (NUL,
    CR, DEL, C1 controls such as NEL and U+009B, line separators)."""
    bad = CONTROL.search(value)
    if bad:
        raise EditRefused(
            f"the text holds control character U+{ord(bad.group()):04X} at position "
            f"{bad.start() + 1}; remove it"
        )


FLOW_INDICATORS = re.compile(r"[,\[\]{}]")


def yaml_scalar(value: str, flow: bool = False) -> str:
    """The text of a YAML scalar for `value`: plain when that is unambiguous, else quoted.

    Inside a flow collection (`{fr: …, es: …}`) a `,`, `[`, `]`, `{` or `}` ends a plain
    scalar, and a tab in a plain scalar is refused by some YAML readers: both are quoted."""
    if (
        value
        and PLAIN_SAFE.match(value)
        and not RISKY.search(value)
        and "\t" not in value
        and not (flow and FLOW_INDICATORS.search(value))
        and value == value.strip()
        and value.lower() not in SPECIAL_WORDS
        and not re.fullmatch(r"[-+]?[\d.][\d._eE+-]*", value)
        and _reads_as_text(value)
    ):
        return value
    return json.dumps(value, ensure_ascii=False)


def _reads_as_text(value: str) -> bool:
    """Whether YAML 1.2 reads `value`, written plain, as that text: not a number in another
    base (`0x10`, `0o7`), an infinity, a date, null, a merge key (`<<`) or the value key
    (`=`); any of those refused the whole file's edits as 'did not round-trip'."""
    from ruamel.yaml.nodes import ScalarNode

    tag = _resolver().resolve(ScalarNode, value, (True, False))
    return bool(tag == "tag:yaml.org,2002:str")


@cache
def _resolver() -> Any:
    from ruamel.yaml.resolver import VersionedResolver

    return VersionedResolver(version=(1, 2))


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
    while end > start and text[end - 1] in "\r\n ":
        end -= 1
    return end


def refusal(doc: Document, edit: Edit) -> str | None:
    """Why `edit` cannot be made honestly, or None."""
    try:
        check_value(edit.value)
    except EditRefused as exc:
        return str(exc)
    in_sheet = sheet_refusal(doc, edit.path)
    if in_sheet is not None:
        return in_sheet
    shared = _shared_prefix(doc, edit.path)
    if shared is not None:
        line = doc.spans.get(shared, doc.span(shared[:-1])).line
        return (
            f"the text is written elsewhere (a YAML alias or merge key, line {line}); "
            "translate it where it is defined"
        )
    return None


def _shared_prefix(doc: Document, path: tuple[Any, ...]) -> tuple[Any, ...] | None:
    for end in range(len(path), 0, -1):
        if path[:end] in doc.shared:
            return path[:end]
    return None


def read_source(path: Path, inside: Path | None) -> str:
    """The text of the game file at `path` as written (no newline translation: CRLF stays
    CRLF), read no further than the content limit and only from inside the game folder
    `inside` (the file opened is checked; see fileio.read_bounded): it was read so when
    loaded, and is read again to be edited (raises EditRefused, or OSError)."""
    from toolkit.fileio import read_bounded

    raw = read_bounded(path, MAX_FILE_BYTES, inside=inside)
    if len(raw) > MAX_FILE_BYTES:
        raise EditRefused(f"{path.name} is now larger than the limit of {MAX_FILE_BYTES:,} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise EditRefused(f"{path.name} is no longer UTF-8 text") from None


def apply_edits(path: Path, doc: Document, edits: list[Edit], *, inside: Path | None) -> str:
    """The file's new text with every edit applied (raises EditRefused, or ValueError if
    the result would not parse back to the edited values); `inside` as for read_source."""
    raw = read_source(path, inside)
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    text = raw.removeprefix(bom)
    starts = _offsets(text)
    planned: list[tuple[int, int, str]] = []
    seen: set[tuple[Any, ...]] = set()
    for edit in edits:
        reason = refusal(doc, edit)
        if reason is None and edit.path in seen:
            reason = "it is edited twice"
        if reason is not None:
            raise EditRefused(f"{'.'.join(map(str, edit.path))}: {reason}")
        seen.add(edit.path)
    for edit in edits:
        if edit.path in doc.spans:
            span = doc.spans[edit.path]
            start = _offset(starts, span.line, span.col)
            end = _scalar_end(text, start, span, starts)
            flow = _in_flow(text, doc, starts, edit.path)
            planned.append((start, end, yaml_scalar(edit.value, flow)))
        else:
            planned.append(_insertion(text, doc, starts, edit))
    text = spliced(text, planned)
    _verify(path, text, edits)
    return bom + text


def spliced(text: str, planned: list[tuple[int, int, str]]) -> str:
    """`text` with each (start, end, new) of `planned` put in, in one pass: each was put in
    by copying the whole text again (19,500 edits of a 4 MB game.yaml: 7.6 s; probe 68-3).
    The same text as putting them in from the last start to the first, those at one start
    in their order (each later one before the earlier ones there)."""
    pieces: list[str] = []
    at = 0
    for index in sorted(range(len(planned)), key=lambda i: (planned[i][0], -i)):
        start, end, new = planned[index]
        pieces += [text[at:start], new]
        at = max(at, end)
    pieces.append(text[at:])
    return "".join(pieces)


def _in_flow(text: str, doc: Document, starts: list[int], path: tuple[Any, ...]) -> bool:
    """Whether the value at `path` sits inside a flow collection (`{…}` or `[…]`)."""
    for end in range(len(path) - 1, -1, -1):
        if path[:end] not in doc.spans:
            continue
        span = doc.spans[path[:end]]
        start = _offset(starts, span.line, span.col)
        if start < len(text) and text[start] in "{[":
            return True
    return False


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
        return close, close, f", {key}: {yaml_scalar(edit.value, flow=True)}"
    last = list(mapping)[-1]
    key_span = doc.key_span((*parent, last))
    value_span = doc.span((*parent, last))
    value_start = _offset(starts, value_span.line, value_span.col)
    value_end = _scalar_end(text, value_start, value_span, starts)  # a block ends early
    line_end = text.find("\n", value_end)
    line_end = len(text) if line_end < 0 else line_end
    newline = "\n"
    if line_end > 0 and text[line_end - 1] == "\r":
        line_end -= 1
        newline = "\r\n"
    indent = " " * (key_span.col - 1)
    return line_end, line_end, f"{newline}{indent}{key}: {yaml_scalar(edit.value)}"


def _verify(path: Path, text: str, edits: list[Edit]) -> None:
    """Parse the edited text in memory: no probe file beside the content (a fixed name there
    could be a planted symlink that the write would follow)."""
    doc, diags = parse_document(path, path.name, text.encode("utf-8"))
    if doc is None:
        raise ValueError(f"edit would break {path}: {diags[0].message}")
    for edit in edits:
        if doc.get(edit.path) != edit.value:
            raise ValueError(f"edit of {'.'.join(map(str, edit.path))} did not round-trip")


def append_item(
    path: Path, doc: Document, where: tuple[Any, ...], value: str, *, inside: Path | None
) -> str:
    """The file's new text with `value` added at the end of the sequence at `where`, in the
    sequence's own style (`[fr, es]` or one `- item` per line); verified like `apply_edits`."""
    items = doc.get(where)
    if not isinstance(items, list) or not items or where in doc.shared:
        raise EditRefused(f"{'.'.join(map(str, where))} is not a list written here")
    check_value(value)
    raw = read_source(path, inside)
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    text = raw.removeprefix(bom)
    starts = _offsets(text)
    span = doc.span(where)
    start = _offset(starts, span.line, span.col)
    scalar = yaml_scalar(value, flow=_in_flow(text, doc, starts, (*where, 0)))
    if text[start] == "[":
        close = _offset(starts, span.end_line or span.line, span.end_col or span.col) - 1
        text = text[:close] + f", {scalar}" + text[close:]
    else:
        last = doc.span((*where, len(items) - 1))
        item_start = _offset(starts, last.line, last.col)
        line_start = starts[last.line - 1]
        end = _scalar_end(text, item_start, last, starts)
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        newline = "\n"
        if line_end > 0 and text[line_end - 1] == "\r":
            line_end -= 1
            newline = "\r\n"
        text = text[:line_end] + newline + text[line_start:item_start] + scalar + text[line_end:]
    parsed, diags = parse_document(path, path.name, text.encode("utf-8"))
    if parsed is None or parsed.get(where) != [*items, value]:
        raise ValueError(f"adding {value!r} to {'.'.join(map(str, where))} did not round-trip")
    return bom + text
