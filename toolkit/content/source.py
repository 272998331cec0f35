"""Read one YAML file into plain Python values while keeping every node's position.

ruamel.yaml composes the node graph (YAML 1.2, so Spanish "No" stays a string); we then walk
it ourselves, so we can refuse what a content file never needs: duplicate keys, alias bombs,
deep nesting, huge files, non-UTF-8 bytes. Every refusal is a Y diagnostic at the right place.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver

from toolkit.diagnostics import Diagnostic, Severity, Span, rule
from toolkit.diagnostics.diagnostic import span_at
from toolkit.fileio import not_regular, read_bounded

Y_SYNTAX = rule("Y001", "yaml-syntax", "The file is not well-formed YAML.")
Y_ENCODING = rule("Y002", "encoding", "The file is not valid UTF-8.")
Y_DUPLICATE_KEY = rule("Y003", "duplicate-key", "A mapping repeats a key.")
Y_ALIAS_BOMB = rule(
    "Y004",
    "alias-expansion",
    "Aliases expand to too many nodes or characters of text (alias bomb).",
)
Y_TOO_DEEP = rule("Y005", "nesting-depth", "Nesting is deeper than content ever needs.")
Y_TOO_LARGE = rule("Y006", "file-size", "The file is larger than the content size limit.")
Y_EMPTY = rule("Y007", "empty-document", "The file holds no YAML document.")
Y_BAD_SCALAR = rule("Y008", "bad-scalar", "A scalar cannot be read (number too long, bad key).")
Y_TABS = rule("Y009", "tab-indent", "A tab character is used where YAML needs spaces.")
Y_UNREADABLE = rule(
    "Y010", "unreadable-file", "A file cannot be opened or read (permissions, I/O): exit 2."
)

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = 64
MAX_REPEATED = 4_000_000
"""Characters of text a content file may build by repetition: a YAML alias's texts at its
second and later uses, a sheet's shared string or repeated cell past its first copy. Each
copy is a text every check reads, fits and reports on: one 4,000-character text named
60,000 times by a 36 kB XLSX file made `validate` run 62 s and print 190,000 findings. A
file's own characters are bounded by its size; the copies, by this. In a game, the bound is
on the sum over all the content files it loads (`GameRepeats`): ten decks each just under it
took 6.7 s of CPU, thirty 19 s."""
MAX_ALIASED = 200_000
"""Values a game's content files may build through aliases: an alias's nodes (and a merge
key's, `<<: *name`) at their second and later uses, each a value and a span kept for the
run. `MAX_NODES` bounds a file; aliases of mappings of numbers repeat no text
(`MAX_REPEATED`), so without this twenty-five 700-byte decks each aliasing just under
`MAX_NODES` values made `validate` take 20 s of CPU and 1.8 GB. Summed over the game's
files as `MAX_REPEATED` is (`GameRepeats.aliased`); a file's own values are bounded by its
size."""


_LOAD_NUMBERS = itertools.count(1)


@dataclass
class GameRepeats:
    """The characters of text a game's content files have built by repetition so far, in the
    order the game loads them (its manifest, then each file as the manifest lists it): each
    file may repeat what the files before it left of `MAX_REPEATED` (a sheet's cells as a
    YAML file's aliases). A YAML file's parse kept between runs (toolkit.content.parse_units)
    keeps what it repeated and is charged it when read back, so the bound is passed at the
    same place with the cache as without. The file that passes it is refused at that place;
    a file after it that repeats any text is refused too, silently (its finding would only
    say again that the game's files repeat too much): the texts it would copy are not built.

    Outside a game (a file converted or edited alone) each file has a `GameRepeats` of its
    own: the bound is the file's."""

    spent: int = 0
    aliased: int = 0
    """Values the files have built through aliases so far (`MAX_ALIASED`)."""
    passed: bool = False
    """Whether a file has passed either bound (then no later file may repeat anything)."""
    sheet_bytes: int = 0
    """Bytes of sheet XML the game's spreadsheets have had scanned so far, in the same order
    (toolkit.content.sheets.archive.MAX_GAME_SCANNED)."""
    sheet_area: int = 0
    """Cells the game's spreadsheets have had built so far, each sheet from A1 to its last
    row and column (toolkit.content.sheets.prescan.MAX_GAME_AREA)."""
    charged: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    """What each YAML file read so far (by its path and digest) repeated and built through
    aliases: a file read again in the same load (a layout dropped from memory and read
    back) is charged once."""
    load: int = field(default_factory=lambda: next(_LOAD_NUMBERS))
    """This count's number, one per load: what was read under another is read again."""

    def before(self, limit: int) -> int:
        """What the files read before repeated, as a file's bound counts it: all of `limit`
        once a file has passed it."""
        return limit if self.passed else min(self.spent, limit)

    def aliased_before(self) -> int:
        """The values the files read before built through aliases, as `before` counts."""
        return MAX_ALIASED if self.passed else min(self.aliased, MAX_ALIASED)


_GAME_REPEATS: ContextVar[GameRepeats | None] = ContextVar("game_repeats", default=None)
_LOADS: dict[str, GameRepeats] = {}
"""The count of each game folder's latest load, by its absolute path: its layouts are read
after the load, as the checks and renders need them (`repeats_of`)."""
MAX_LOADS = 16
"""Game folders whose latest count is kept (a process that loads many drops the oldest)."""


@contextmanager
def game_repeats(root: Path | None = None) -> Iterator[GameRepeats]:
    """Count what the content files read inside the block repeat against one bound: a
    game's (see `GameRepeats`; toolkit.content.game.load_game). With `root`, the count
    stays the game's latest, for the YAML files read for it after the block
    (`repeats_of`)."""
    repeats = GameRepeats()
    if root is not None:
        key = os.path.abspath(root)
        _LOADS.pop(key, None)
        while len(_LOADS) >= MAX_LOADS:
            _LOADS.pop(next(iter(_LOADS)))
        _LOADS[key] = repeats
    token = _GAME_REPEATS.set(repeats)
    try:
        yield repeats
    finally:
        _GAME_REPEATS.reset(token)


def latest_load(root: Path | None) -> GameRepeats | None:
    """The count of the latest load of the game at `root`, if any (`game_repeats`)."""
    return None if root is None else _LOADS.get(os.path.abspath(root))


@contextmanager
def repeats_of(root: Path | None) -> Iterator[None]:
    """Count the YAML files read inside the block (a game's layouts, read after its load)
    against the latest load of the game at `root`: every file a game reads shares the one
    bound of its load. Without a load of it (a file of the toolkit's, or read alone), each
    file has its own."""
    token = _GAME_REPEATS.set(latest_load(root))
    try:
        yield
    finally:
        _GAME_REPEATS.reset(token)


def current_repeats() -> GameRepeats:
    """The game's count of repeated text when a game is being loaded, else a file's own."""
    return _GAME_REPEATS.get() or GameRepeats()


def alias_bound_message(before: int) -> str:
    """Y004's words for aliases that pass `MAX_REPEATED`, the game's files before this one
    having repeated `before` characters."""
    why = (
        "each use of an alias after the first is a text every check reads again; is this an"
        " alias bomb?"
    )
    if not before:
        return (
            f"aliases repeat more than {MAX_REPEATED:,} characters of text, the content"
            f" limit ({why})"
        )
    return (
        f"aliases repeat more than {MAX_REPEATED:,} characters of text over the game's"
        f" content files, the content limit for a game ({before:,} in the files read before"
        f" this one; {why})"
    )


def aliased_bound_message(before: int) -> str:
    """Y004's words for aliases that pass `MAX_ALIASED`, the game's files before this one
    having built `before` values through aliases."""
    why = (
        "each use of an alias after the first builds values every check reads again; is this"
        " an alias bomb?"
    )
    if not before:
        return f"aliases build more than {MAX_ALIASED:,} values, the content limit ({why})"
    return (
        f"aliases build more than {MAX_ALIASED:,} values over the game's content files, the"
        f" content limit for a game ({before:,} in the files read before this one; {why})"
    )


Path_ = tuple[str | int, ...]


@dataclass
class Document:
    """A parsed YAML file: plain data plus the span of every value and every mapping key."""

    path: Path
    display: str
    data: Any
    spans: Mapping[Path_, Span] = field(default_factory=dict)
    key_spans: Mapping[Path_, Span] = field(default_factory=dict)
    shared: set[Path_] = field(default_factory=set)
    """Paths whose value is written elsewhere: a YAML alias (`*name`) or a key brought in by
    a merge key (`<<:`). An edit there would change another place, so editors refuse it."""
    text: str = ""
    styles: Mapping[Path_, str | None] = field(default_factory=dict)
    """Each string scalar's style: None (plain), `'`, `"`, `|` or `>`."""
    digest: str | None = None
    """The SHA-256 of the bytes `data` was parsed from (its parse is a pure function of
    them), or None: data made otherwise (a spreadsheet's, a variant's)."""

    def top_lists(self) -> list[tuple[Any, int]] | None:
        """The data's top-level lists as (key, length), in order; None when the data is no
        mapping (what the game's size budget counts of a file)."""
        from toolkit.content.parse_units import top_lists

        return top_lists(self.data)

    def position_in(self, path: Path_, offset: int) -> Span:
        """Where character `offset` of the string at `path` is written in the file: the
        column of a punctuation mark inside a text, not the text's start. Exact for plain,
        single-quoted and block scalars, over several lines too; a double-quoted scalar
        with escapes (and anything not found) falls back to the value's start."""
        span = self.span(path)
        value = self.data
        for seg in path:
            if isinstance(value, dict):
                value = value.get(seg)
            elif isinstance(value, list) and isinstance(seg, int) and 0 <= seg < len(value):
                value = value[seg]
            else:
                value = None
        if (
            not isinstance(value, str)
            or not 0 <= offset < len(value)
            or path not in self.styles
            or path in self.shared
            or span.end_line is None
        ):
            return span
        style = self.styles[path]
        lines = self.text.split("\n")[span.line - 1 : span.end_line]
        if not lines:
            return span
        lines[-1] = lines[-1][: (span.end_col or 1) - 1] if len(lines) > 1 else lines[-1]
        raw = "\n".join(lines)[span.col - 1 :]
        if len(lines) == 1:
            raw = raw[: (span.end_col or 1) - span.col]
        start = {None: 0, "'": 1, '"': 1}.get(style)
        if start is None:  # a block scalar: its text starts on the line after `|` or `>`
            start = raw.find("\n") + 1
            if start == 0:
                return span
        target = value[offset]
        if style == '"' and "\\" in raw or style == "'" and target == "'":
            return span
        if raw[start : start + len(value)] == value:  # written as read: one line, no folding
            at = start + offset
        elif target.isspace():
            return span
        else:  # folded or indented: the nth such mark of the value is the nth of the source
            at, nth = start - 1, value.count(target, 0, offset)
            for _ in range(nth + 1):
                at = raw.find(target, at + 1)
                if at < 0:
                    return span
        line = span.line + raw.count("\n", 0, at)
        before = raw.rfind("\n", 0, at)
        col = (span.col + at) if before < 0 else at - before
        return Span(line, col)

    def span(self, path: Path_) -> Span:
        return self.spans.get(path, Span())

    def key_span(self, path: Path_) -> Span:
        """Span of the key that holds `path` (or of the value itself for list items)."""
        return self.key_spans.get(path) or self.span(path)

    def locate(
        self, loc: tuple[Any, ...], *, missing_key: bool = False, unknown_key: bool = False
    ) -> Span:
        """Map a pydantic error location to a span.

        Segments that are not keys or indexes of the data (union tags, validator names) are
        skipped. For a missing key the error points at the key that owns the mapping; for an
        unknown key, at the key itself; otherwise at the value.
        """
        path = self.resolve(loc)
        if missing_key:
            return self.key_spans.get(path) or self._mapping_start(path)
        if unknown_key and path in self.key_spans:
            return self.key_spans[path]
        return self.span(path)

    def resolve(self, loc: tuple[Any, ...]) -> Path_:
        """The longest data path that a pydantic location walks through."""
        value = self.data
        path: list[str | int] = []
        for index, seg in enumerate(loc):
            if isinstance(value, dict):
                if seg == value.get("kind") and index + 1 < len(loc):
                    continue  # a union's tag, not a key: `kind: text` has a `text` field too
                key = _match_key(value, seg)
                if key is not _NO_KEY:
                    path.append(key)
                    value = value[key]
            elif isinstance(value, list) and isinstance(seg, int) and 0 <= seg < len(value):
                path.append(seg)
                value = value[seg]
        return tuple(path)

    def _mapping_start(self, path: Path_) -> Span:
        value = self.get(path)
        if isinstance(value, dict) and value:
            first = next(iter(value))
            return self.key_spans.get((*path, first), self.span(path))
        return self.span(path)

    def get(self, path: Path_) -> Any:
        value = self.data
        for seg in path:
            value = value[seg]
        return value


_NO_KEY = object()


class KeptDocument(Document):
    """A Document read back from a kept parse (toolkit.content.parse_units): its data is
    decoded the first time it is read, and the lengths of its top-level lists are known
    without it (`KeptData`)."""

    @property
    def data(self) -> Any:
        from toolkit.content.parse_units import KeptData

        held = self.__dict__["_data"]
        if type(held) is KeptData:
            held = self.__dict__["_data"] = held.decoded()
        return held

    @data.setter
    def data(self, value: Any) -> None:
        self.__dict__["_data"] = value

    def top_lists(self) -> list[tuple[Any, int]] | None:
        from toolkit.content.parse_units import KeptData

        held = self.__dict__["_data"]
        if type(held) is KeptData:
            return None if held.lists is None else list(held.lists)
        return super().top_lists()


def _match_key(mapping: dict[Any, Any], seg: Any) -> Any:
    if seg in mapping:
        return seg
    if isinstance(seg, str):  # pydantic reports int dict keys as strings in some paths
        for key in mapping:
            if str(key) == seg:
                return key
    return _NO_KEY


class _Refusal(Exception):
    def __init__(self, diag_rule: Any, span: Span, message: str, *, repeated: bool = False) -> None:
        super().__init__(message)
        self.rule = diag_rule
        self.span = span
        self.message = message
        self.repeated = repeated
        """Refused for the text its aliases repeat (`MAX_REPEATED`) or the values they build
        (`MAX_ALIASED`)."""


def _span(node: Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return span_at(start.line + 1, start.column + 1, end.line + 1, end.column + 1)


Place = tuple[int, int, int, int]
"""A span as the builder keeps it, (line, col, end_line, end_col): made a `Span` when one is
asked for (toolkit.content.parse_units.LazySpans), as a kept parse's are. A 100-card deck
has ~2,900 values and keys, and a clean run asks for the spans of a few."""


def _place(node: Node) -> Place:
    start, end = node.start_mark, node.end_mark
    return (start.line + 1, start.column + 1, end.line + 1, end.column + 1)


_STR = "tag:yaml.org,2002:str"
_NODES = (ScalarNode, MappingNode, SequenceNode)
_BOOL = "tag:yaml.org,2002:bool"
# Characters YAML 1.2 does not allow in a stream (c-printable), found before parsing so
# the diagnostic points at them (the parser reports some at 1:1).
_NOT_PRINTABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
)
# YAML 1.2 has no line break but LF and CR; the parser also breaks at NEL, U+2028 and
# U+2029, which would cut a comment in two. In a comment they are blanked (same length).
_COMMENT_START = re.compile("(?:^|(?<=[ \t]))#")
_LINE_BREAK = re.compile("[\x85\u2028\u2029]")
_BLANKED = str.maketrans("\x85\u2028\u2029", "   ")


def _blank_comment_breaks(text: str) -> str:
    """`text` with the NEL, U+2028 and U+2029 of its comments made spaces: from a line's first
    `#` that starts a comment (at the line's start or after a space or tab) to its end. The
    pattern `(?:^|(?<=[ \\t]))#[^\\n]*[…][^\\n]*` did the same, but scanned a line again
    from each such `#` when the line's break came before them: ` #` × 20,000, 4 s."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        comment = _COMMENT_START.search(line) if _LINE_BREAK.search(line) else None
        if comment is not None:
            lines[index] = line[: comment.start()] + line[comment.start() :].translate(_BLANKED)
    return "\n".join(lines)


class _Builder:
    """Turns a composed node graph into plain data, recording spans and refusing abuse."""

    def __init__(self, yaml: YAML, allowance: int, nodes: int = MAX_ALIASED) -> None:
        self.constructor = yaml.constructor
        self.allowance = allowance
        """Characters the aliases may repeat: what the game's files before this one left of
        `MAX_REPEATED`."""
        self.nodes = nodes
        """Values the aliases may build: what the game's files before this one left of
        `MAX_ALIASED`."""
        self.aliased = 0
        """Values built through aliases (`nodes`)."""
        self.merge_spans: dict[Path_, Place] = {}
        """The span of each merge key (`<<`), by the path its merged mapping is built at."""
        self.spans: dict[Path_, Place] = {}
        self.key_spans: dict[Path_, Place] = {}
        self.count = 0
        self.built: set[int] = set()
        self.keys: set[int] = set()
        self.repeated = 0
        """Characters of the scalars built again (`allowance`)."""
        self.shared: set[Path_] = set()
        self.styles: dict[Path_, str | None] = {}

    def build(self, node: Node, path: Path_, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            if not self.shared:  # no alias was expanded: the file is simply too big
                raise _Refusal(
                    Y_TOO_LARGE,
                    _span(node),
                    f"the document holds more than {MAX_NODES:,} values, the content limit",
                )
            raise _Refusal(
                Y_ALIAS_BOMB,
                _span(node),
                f"the document expands to more than {MAX_NODES:,} nodes; "
                "aliases are refused beyond this size (is this an alias bomb?)",
            )
        if depth > MAX_DEPTH:
            raise _Refusal(Y_TOO_DEEP, _span(node), f"nesting deeper than {MAX_DEPTH} levels")
        if path not in self.spans:  # the first span at a path is kept
            self.spans[path] = _place(node)
        if id(node) in self.built:  # a second visit of one node is an alias
            self.shared.add(path)
            self.aliased += 1  # its nodes were all built at the first visit: each is again
            if self.aliased > self.nodes:
                raise _Refusal(
                    Y_ALIAS_BOMB,
                    self.alias_place(path, node),
                    aliased_bound_message(MAX_ALIASED - self.nodes),
                    repeated=True,
                )
            if isinstance(node, ScalarNode):
                self.again(node, path)
        elif isinstance(node, _NODES):
            self.built.add(id(node))
        if isinstance(node, ScalarNode):
            tag = node.tag  # worked out by ruamel at each reading: read once
            if tag == _STR:
                self.styles.setdefault(path, node.style or None)
            return self.scalar(node, tag)
        if isinstance(node, SequenceNode):
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            return self.mapping(node, path, depth)
        raise _Refusal(Y_SYNTAX, _span(node), "unsupported YAML node")

    def again(self, node: ScalarNode, path: Path_) -> None:
        """Count a scalar built once more (through an alias, at `path`) against the
        allowance; refused at the key whose value is the outermost alias there (the
        node itself is the anchored one, written elsewhere)."""
        self.repeated += len(node.value)
        if self.repeated > self.allowance:
            before = MAX_REPEATED - self.allowance
            raise _Refusal(
                Y_ALIAS_BOMB,
                self.alias_place(path, node),
                alias_bound_message(before),
                repeated=True,
            )

    def alias_place(self, path: Path_, node: Node) -> Span:
        """Where the outermost alias at `path` is written: the key it is the value of, the
        merge key (`<<`) it is merged by, else (a list item) what holds it (the node itself
        is the anchored one, written elsewhere)."""
        outer = next((path[:i] for i in range(len(path) + 1) if path[:i] in self.shared), ())
        found = (
            self.key_spans.get(outer) or self.merge_spans.get(outer) or self.spans.get(outer[:-1])
        )
        return span_at(*found) if found is not None else _span(node)

    def scalar(self, node: ScalarNode, tag: str | None) -> Any:
        """The value of a scalar node whose tag (`node.tag`) is `tag`."""
        if tag == _STR:  # most values; the constructor would return node.value too
            return node.value
        if tag == _BOOL and node.value.lower() not in ("true", "false"):
            # YAML 1.2 booleans are true and false only; `!!bool 'yes'` is no boolean
            raise _Refusal(Y_BAD_SCALAR, _span(node), f"{node.value!r} is not true or false")
        try:
            return self.constructor.construct_object(node, deep=True)
        except (ValueError, OverflowError) as exc:
            message = str(exc).split(";")[0].split(":")[0]
            raise _Refusal(Y_BAD_SCALAR, _span(node), f"cannot read this value: {message}") from exc
        except YAMLError as exc:
            raise _Refusal(Y_BAD_SCALAR, _span(node), f"cannot read this value: {exc}") from exc

    def mapping(self, node: MappingNode, path: Path_, depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        merges: list[tuple[Node, Node]] = []
        for key_node, value_node in node.value:
            key_tag = key_node.tag
            if key_tag == "tag:yaml.org,2002:merge":
                merges.append((key_node, value_node))
                continue
            if not isinstance(key_node, ScalarNode):
                raise _Refusal(Y_BAD_SCALAR, _span(key_node), "a mapping key must be a scalar")
            if id(key_node) in self.keys:  # a key of an aliased mapping, or an aliased key
                self.again(key_node, path)
            else:
                self.keys.add(id(key_node))
            if key_tag == _STR:  # most keys: the text itself, as `scalar` gives it
                key = key_node.value
            else:
                key = self.scalar(key_node, key_tag)
                if isinstance(key, float | bool) or key is None or not isinstance(key, str | int):
                    key = key_node.value
            where = (*path, key)
            if key in result:
                first = self.key_spans.get(where)
                raise _Refusal(
                    Y_DUPLICATE_KEY,
                    _span(key_node),
                    f"duplicate key {key!r} (first defined at line"
                    f" {first[0] if first is not None else Span().line})",
                )
            self.key_spans[where] = _place(key_node)
            result[key] = self.build(value_node, where, depth + 1)
        for merge_key, merge in merges:
            sources = merge.value if isinstance(merge, SequenceNode) else [merge]
            at = _place(merge_key)
            self.merge_spans[(*path, "<<")] = at
            for source in sources:
                # built at `…, "<<"` with spans of its own: those under the keys it adds are
                # then moved to where the data holds them (no lookup names `<<`)
                spans, key_spans = self.spans, self.key_spans
                self.spans, self.key_spans = {}, {}
                aliased = id(source) in self.built
                try:
                    merged = self.build(source, path + ("<<",), depth + 1)
                finally:
                    inner, inner_keys = self.spans, self.key_spans
                    self.spans, self.key_spans = spans, key_spans
                if not isinstance(merged, dict):
                    raise _Refusal(Y_SYNTAX, _span(source), "a merge key needs a mapping")
                added = set()
                for key, value in merged.items():
                    if key not in result:
                        added.add(key)
                        self.shared.add((*path, key))
                        # an aliased mapping's key is written at its merge key (`<<`)
                        inside = (*path, "<<", key)
                        key_at = at if aliased else inner_keys.get(inside, at)
                        key_spans.setdefault((*path, key), key_at)
                        spans.setdefault((*path, key), at if aliased else inner.get(inside, at))
                    result.setdefault(key, value)
                self.merged_spans(path, added, inner, spans)
                self.merged_spans(path, added, inner_keys, key_spans)
        return result

    @staticmethod
    def merged_spans(
        path: Path_, added: set[Any], inner: dict[Path_, Place], into: dict[Path_, Place]
    ) -> None:
        """The spans of the values under the keys a merge added (`inner`, by their paths at
        `path + ("<<",)`), kept at their paths in the data: where the merged mapping's text
        is written, as an alias's values are."""
        at = len(path) + 1
        for where, span in inner.items():
            if len(where) > at + 1 and where[at] in added:
                into.setdefault((*path, *where[at:]), span)


def _decode(raw: bytes) -> str | tuple[Span, str]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        return Span(line, col), f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save as UTF-8"
    return text.removeprefix("\ufeff")


_DEEP_INDENT = re.compile(rf"^ {{{4 * MAX_DEPTH}}}( )", re.MULTILINE)
_INDENT_RUN = " " * (4 * MAX_DEPTH + 1)
"""What every match of `_DEEP_INDENT` holds: a text without it is searched no further."""
_FLOW_MARK = re.compile(r"[\[\]{}'\"#]")


def _position(text: str, index: int) -> Span:
    line_start = text.rfind("\n", 0, index) + 1
    return Span(text.count("\n", 0, index) + 1, index - line_start + 1)


def _too_deep(text: str) -> Span | None:
    """Where flow nesting or indentation first goes deeper than content ever needs.

    Checked before parsing: the C parser recurses per level and a file of a few hundred
    thousand brackets would crash the process instead of raising an error. The scan is
    approximate (quotes and comments are skipped) and errs towards letting YAML decide. It
    visits only brackets, quotes and '#' outside quotes and comments: a quote's text is
    skipped to its closing quote, a comment's to its line's end (a deck's texts hold
    thousands of quotes and `{placeholders}`, each a step of a Python loop otherwise).
    """
    indent = _DEEP_INDENT.search(text) if _INDENT_RUN in text else None
    found = indent.start(1) if indent else len(text)
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = 0
        search = _FLOW_MARK.search
        at = 0
        while (match := search(text, at, found)) is not None:
            ch = match.group()
            at = match.start()
            previous = text[at - 1] if at and text[at - 1] != "\n" else " "
            if ch == "#":
                if previous in " \t":  # a comment: nothing counts up to its line's end
                    at = text.find("\n", at + 1, found)
                    if at < 0:
                        break
                at += 1
            elif ch in "'\"":
                if previous in " \t[{,:":  # a quoted text: nothing counts up to its end
                    at = text.find(ch, at + 1, found)
                    if at < 0:
                        break
                at += 1
            elif ch in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    found = at
                    break
                at += 1
            else:
                if depth:
                    depth -= 1
                at += 1
    return _position(text, found) if found < len(text) else None


class _Resolver12(VersionedResolver):
    """YAML 1.2 tag resolution with its table looked up once per document: ruamel finds the
    version again for every scalar, through two caught AttributeErrors under the C parser
    (which always reads 1.2 here, as `_yaml` sets it)."""

    @property
    def versioned_resolver(self) -> Any:
        table = self.__dict__.get("_table_12")
        if table is None:
            table = self.__dict__["_table_12"] = super().versioned_resolver
        return table

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        """A plain scalar's tag, worked out once per distinct text: it depends on the text
        alone (YAML 1.2's table, no path resolvers), and content repeats its words."""
        if kind is not ScalarNode or not implicit[0] or self.yaml_path_resolvers:
            return super().resolve(kind, value, implicit)
        tag = _SCALAR_TAGS.get(value)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(value) <= 200 and len(_SCALAR_TAGS) < MAX_SCALAR_TAGS:  # bounded memory
                _SCALAR_TAGS[value] = tag
        return tag


_SCALAR_TAGS: dict[str, Any] = {}
MAX_SCALAR_TAGS = 20_000


def _yaml(pure: bool) -> YAML:
    """A YAML 1.2 composer; the C parser (ruamel.yaml.clib) when available is ~6x faster."""
    yaml = YAML(typ="safe", pure=pure)
    yaml.version = (1, 2)
    if not pure:
        yaml.Resolver = _Resolver12
    return yaml


def _compose(text: str) -> tuple[YAML, Node | None]:
    """Compose fast; on any error compose again in pure Python for its precise message."""
    fast = _yaml(pure=False)
    try:
        return fast, fast.compose(text)
    except (YAMLError, RecursionError):
        slow = _yaml(pure=True)
        return slow, slow.compose(text)


def load_document(
    path: Path, display: str, *, inside: Path | None = None
) -> tuple[Document | None, list[Diagnostic]]:
    """Parse one YAML file; on refusal return None and exactly one Y diagnostic. With
    `inside` (the game folder), the file opened must lie inside it (see read_bounded)."""

    def fail(r: Any, span: Span, message: str) -> tuple[None, list[Diagnostic]]:
        return None, [r.at(display, span, message)]

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # a FIFO would block, /dev/zero never end
            return fail(Y_UNREADABLE, Span(), f"cannot read file: {not_regular(info.st_mode)}")
        if info.st_size > MAX_FILE_BYTES:
            return fail(
                Y_TOO_LARGE,
                Span(),
                f"file is {info.st_size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
            )
        raw = read_bounded(path, MAX_FILE_BYTES, inside=inside)
    except OSError as exc:
        return fail(Y_UNREADABLE, Span(), f"cannot read file: {exc.strerror or exc}")
    if len(raw) > MAX_FILE_BYTES:  # it grew after the stat
        return fail(Y_TOO_LARGE, Span(), f"file is over the limit of {MAX_FILE_BYTES:,} bytes")
    return parse_document(path, display, raw)


def parse_document(
    path: Path, display: str, raw: bytes
) -> tuple[Document | None, list[Diagnostic]]:
    """Parse YAML bytes as the content of `path` (nothing is read or written on disk: an
    edit is verified in memory, so no probe file can be planted or followed)."""

    def fail(r: Any, span: Span, message: str) -> tuple[None, list[Diagnostic]]:
        return None, [r.at(display, span, message)]

    if len(raw) > MAX_FILE_BYTES:
        return fail(
            Y_TOO_LARGE, Span(), f"file is {len(raw):,} bytes; the limit is {MAX_FILE_BYTES:,}"
        )
    decoded = _decode(raw)
    if isinstance(decoded, tuple):
        return fail(Y_ENCODING, *decoded)
    text = written = decoded
    if "\u2028" in text or "\u2029" in text or "\x85" in text:
        text = _blank_comment_breaks(text)
    from toolkit.content.parse_units import KeptData, parsed

    # the scans before composing are part of the unit (a pure function of the bytes; a
    # refusal is never kept): bytes read back passed them when they were kept. What its
    # aliases repeat is charged to the game's count (`GameRepeats`), read back or not: a
    # parse kept that repeats more than the files before it left is built again, refused
    # at the alias that passes
    digest = hashlib.sha256(raw).hexdigest()
    repeats = current_repeats()
    read = (str(path), digest)
    prior = repeats.charged.pop(read, None)
    if prior is not None:  # read before in this load: charged once
        repeats.spent -= prior[0]
        repeats.aliased -= prior[1]
    before = repeats.before(MAX_REPEATED)
    allowance = MAX_REPEATED - before
    nodes = MAX_ALIASED - repeats.aliased_before()
    built = parsed(
        raw,
        lambda: _scanned(written, text) or _build(text, allowance, nodes),
        digest,
        lambda kept: kept[5] <= allowance and kept[6] <= nodes,
    )
    if isinstance(built, _Refusal):
        if built.repeated:
            if repeats.passed:  # said at the file that passed the bound
                return None, []
            repeats.passed = True
        return fail(built.rule, built.span, built.message)
    data, spans, key_spans, shared, styles, repeated, aliased = built
    repeats.spent += repeated
    repeats.aliased += aliased
    repeats.charged[read] = (repeated, aliased)
    made = KeptDocument if type(data) is KeptData else Document
    return made(path, display, data, spans, key_spans, shared, text, styles, digest), []


def _scanned(written: str, text: str) -> _Refusal | None:
    """The refusal of a file's text before composing it (`written`: as decoded; `text`: its
    comments' line breaks blanked), or None: a character YAML does not allow, or nesting
    deeper than content ever needs."""
    bad = _NOT_PRINTABLE.search(written)
    if bad:
        return _Refusal(
            Y_SYNTAX,
            _position(written, bad.start()),
            f"control character U+{ord(bad.group()):04X} is not allowed in YAML",
        )
    deep = _too_deep(text)
    if deep is not None:
        return _Refusal(Y_TOO_DEEP, deep, f"nesting deeper than {MAX_DEPTH} levels")
    return None


Built = tuple[
    Any,
    Mapping[Path_, Span],
    Mapping[Path_, Span],
    set[Path_],
    Mapping[Path_, str | None],
    int,
    int,
]
"""A document's data, the spans of its values and keys, its shared paths, its styles, the
characters of text its aliases repeat and the values they build."""


def _build(text: str, allowance: int | None = None, nodes: int = MAX_ALIASED) -> Built | _Refusal:
    """Compose `text` and build its data: what a parse unit keeps (a refusal is not kept).
    `allowance`: the characters its aliases may repeat (by default `MAX_REPEATED`); `nodes`:
    the values they may build (`MAX_ALIASED`); a file built whole repeats as much under any
    allowance it is not refused by."""
    try:
        yaml, node = _compose(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(mark.line + 1, mark.column + 1) if mark else Span()
        problem = exc.problem or exc.context or "syntax error"
        if "\\t" in problem or "\t" in problem or _tab_at(text, span):
            return _Refusal(Y_TABS, span, "tab character in indentation; YAML indents with spaces")
        plain = _plain_words(text, span, problem)
        if plain:
            return _Refusal(Y_SYNTAX, *plain)
        context = f" ({exc.context})" if exc.context and exc.problem else ""
        return _Refusal(Y_SYNTAX, span, f"{problem}{context}")
    except RecursionError:
        return _Refusal(Y_TOO_DEEP, Span(), f"nesting deeper than {MAX_DEPTH} levels")
    except YAMLError as exc:
        return _Refusal(Y_SYNTAX, Span(), str(exc).splitlines()[0])
    if node is None:
        return _Refusal(Y_EMPTY, Span(), "the file is empty; it must hold one YAML mapping")
    from toolkit.content.parse_units import LazySpans

    builder = _Builder(yaml, MAX_REPEATED if allowance is None else allowance, nodes)
    try:
        data = builder.build(node, (), 0)
    except _Refusal as refusal:
        return refusal
    except RecursionError:
        return _Refusal(Y_TOO_DEEP, Span(), f"nesting deeper than {MAX_DEPTH} levels")
    return (
        data,
        LazySpans(builder.spans),
        LazySpans(builder.key_spans),
        builder.shared,
        builder.styles,
        builder.repeated,
        builder.aliased,
    )


def _plain_words(text: str, span: Span, problem: str) -> tuple[Span, str] | None:
    """The parser's words for the two slips designers make most, said in theirs: a line
    whose indentation fits no mapping or list above it, and a `key: value` where a value
    already stands (a line indented too far, or a text holding ': ')."""
    lines = text.splitlines()
    line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    start = Span(span.line, len(line) - len(line.lstrip(" ")) + 1)
    if problem.startswith("expected <block end>, but found"):
        return start, (
            f"this line, indented to column {start.col}, does not fit the nesting above it:"
            " is it mis-indented? The keys of one mapping, and the items (- ) of one list,"
            " start in the same column"
        )
    if problem == "mapping values are not allowed here":
        if ": " in line[: max(span.col - 1, 0)]:
            return span, (
                "a second ': ' on this line: a text holding ': ' needs quotes"
                " (en: 'Note: draw a card.')"
            )
        return start, (
            "a `key: value` cannot stand here: the line above already has a value, so this"
            " line cannot be indented under it; is it indented too far?"
        )
    return None


def _tab_at(text: str, span: Span) -> bool:
    lines = text.splitlines()
    if not 0 < span.line <= len(lines):
        return False
    line = lines[span.line - 1]
    return "\t" in line[: max(span.col, 1) + 1] and line[: span.col - 1].strip(" \t") == ""


__all__ = ["Document", "Severity", "load_document", "parse_document"]
