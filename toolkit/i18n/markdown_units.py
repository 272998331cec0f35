"""Cut a rulebook's Markdown into the units a translator translates, and put it back together.

The units are what markdown-it (the parser the renderer uses) sees as inline text: headings,
paragraphs (also inside list items and quotes) and table cells. Everything else (list
markers, quote marks, table rules, blank lines, a unit that is nothing but Jinja statements
such as the `{% set %}` preamble) is the skeleton, kept byte for byte from the source.

A unit's text is the inline source as written, line breaks included: Jinja statements may
depend on where a line ends. Jinja code inside a unit stays in the msgid and must come back
unchanged (see `toolkit.i18n.placeholders`).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt

from toolkit.render.jinja_cache import template_code

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Piece:
    """Where one line of a unit's text sits: line index (0-based), start and end column."""

    line: int
    start: int
    end: int


@dataclass(frozen=True)
class Segment:
    kind: str  # heading, paragraph, cell, or string (a literal inside a Jinja statement)
    text: str
    pieces: tuple[Piece, ...]
    translatable: bool
    quote: str = ""  # a string's quote character

    @property
    def line(self) -> int:
        """1-based line of the unit in its file."""
        return self.pieces[0].line + 1


class SegmentError(ValueError):
    """The Markdown cannot be cut into units (the message says where)."""


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def has_prose(text: str) -> bool:
    """Whether anything is left to translate once Jinja code is taken out."""
    return any(ch.isalpha() for ch in _without_code(text))


def _without_code(text: str) -> str:
    """`text` with its Jinja code taken out (found in linear time: `template_code`; the
    regular expression scanned from every unclosed opener to the end, 240 kB: 201 s)."""
    kept, position = [], 0
    for start, end in template_code(text):
        kept.append(text[position:start])
        position = end
    kept.append(text[position:])
    return "".join(kept)


def segment(text: str) -> list[Segment]:
    """The units of `text` (newlines already "\\n"), in document order."""
    masked, columns = mask(text)
    lines = masked.split("\n")
    originals = text.split("\n")
    segments: list[Segment] = []
    kinds: list[str] = []
    ends: dict[int, int] = {}  # line -> end of the last piece found on it (masked columns)
    for token in _parser().parse(masked):
        if token.type.endswith("_open"):
            kinds.append(token.type.removesuffix("_open"))
        elif token.type.endswith("_close") and kinds:
            kinds.pop()
        if token.type != "inline" or token.map is None:
            continue
        parent = kinds[-1] if kinds else "paragraph"
        kind = {"th": "cell", "td": "cell"}.get(parent, parent)
        if kind not in ("heading", "paragraph", "cell"):
            continue
        if kind == "cell":
            row = token.map[0]
            at: tuple[Piece, ...] = (_cell_piece(lines, row, token.content, ends.get(row, 0)),)
        else:
            at = _block_pieces(lines, token.map[0], token.content)
        for piece in at:
            ends[piece.line] = max(ends.get(piece.line, 0), piece.end)
        pieces = tuple(_original(p, columns[p.line]) for p in at)
        written = "\n".join(originals[p.line][p.start : p.end] for p in pieces)
        segments.append(Segment(kind, written, pieces, has_prose(written)))
    segments += _strings(text, segments)
    return sorted(segments, key=lambda s: (s.pieces[0].line, s.pieces[0].start))


_QUOTE = re.compile("['\"]")
_BODY = {
    "'": re.compile(r"(?:[^'\\\n]|\\.)*+"),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*+'),
}
"""What a literal opened by the key holds: its characters and escapes, up to its closing
quote, a line break or a `\\` before one."""
_ESCAPE = re.compile(r"\\(.)")


def _literals(code: str) -> Iterator[tuple[int, str, str]]:
    r"""Where each quoted literal of `code` starts, its quote and what it holds: what
    `re.finditer` found with `'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"`, in linear time.
    That pattern scanned an unclosed literal again from each quote inside it (`'\'\'…` up
    to a line break: quotes², 88 kB took `i18n status` 52 s). A quote inside a literal
    that is not closed is an escaped one (`\'`), and a literal opened there reads the same
    characters up to the same stop: a quote of that kind before the stop opens none and is
    skipped; the other kind's quotes in it are tried, as the pattern tried them."""
    opens_none = {"'": 0, '"': 0}  # a quote of the kind before this position opens no literal
    position = 0
    while found := _QUOTE.search(code, position):
        start, quote = found.start(), found.group()
        position = start + 1
        if start < opens_none[quote]:
            continue
        body = _BODY[quote].match(code, position)
        assert body is not None  # the pattern matches the empty string
        if code.startswith(quote, body.end()):
            yield start, quote, body.group()
            position = body.end() + 1
        else:
            opens_none[quote] = body.end()


def _strings(text: str, inline: list[Segment]) -> list[Segment]:
    """Prose in string literals of Jinja statements outside the inline units (`{% set
    measure = {'souvenirs': 'le plus de cartes Souvenir'} %}`): a literal with a space and
    letters, as identifiers such as 'equalto' have neither."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    covered = {(p.line, c) for s in inline for p in s.pieces for c in range(p.start, p.end)}
    found = []
    for code_start, code_end in template_code(text):
        code = text[code_start:code_end]
        if code.startswith("{{"):
            continue
        for at, quote, value in _literals(code):
            if not value.strip() or " " not in value or not has_prose(value):
                continue
            begin = code_start + at + 1
            line = bisect.bisect_right(starts, begin) - 1
            col = begin - starts[line]
            if (line, col) in covered:
                continue
            piece = Piece(line, col, col + len(value))
            found.append(Segment("string", _ESCAPE.sub(r"\1", value), (piece,), True, quote))
    return found


def mask(text: str) -> tuple[str, list[list[int]]]:
    """What the parser reads: Jinja statements and comments taken out (their line breaks
    kept) and each expression turned into as many neutral characters, so a `|` filter is
    not a table column and `{% for %}` before a table row does not hide the row; with, per
    line, the original column of every character (and of the line's end)."""
    out: list[str] = []
    origin: list[int] = []
    position = 0
    for start, end in template_code(text):
        for index in range(position, start):
            out.append(text[index])
            origin.append(index)
        statement = not text.startswith("{{", start)
        for index in range(start, end):
            if text[index] == "\n":
                out.append("\n")
            elif statement:
                continue
            else:
                out.append("\x01")
            origin.append(index)
        position = end
    for index in range(position, len(text)):
        out.append(text[index])
        origin.append(index)
    origin.append(len(text))
    columns: list[list[int]] = [[]]
    line_start = 0
    for ch, index in zip([*out, "\n"], origin, strict=True):
        columns[-1].append(index - line_start)
        if ch == "\n" and index < len(text):
            line_start = index + 1
            columns.append([])
    return "".join(out), columns


def _original(piece: Piece, columns: list[int]) -> Piece:
    """A piece in masked columns, in the source's: statements at its edges stay outside."""
    if piece.end == piece.start:
        return Piece(piece.line, columns[piece.start], columns[piece.start])
    return Piece(piece.line, columns[piece.start], columns[piece.end - 1] + 1)


def _block_pieces(lines: list[str], first: int, content: str) -> tuple[Piece, ...]:
    pieces = []
    for offset, part in enumerate(content.split("\n")):
        index = first + offset
        line = lines[index] if index < len(lines) else ""
        bare = line.rstrip()
        if line.endswith(part):
            start = len(line) - len(part)
        elif bare.endswith(part):
            start = len(bare) - len(part)
        else:
            start = line.find(part)
        if start < 0:
            raise SegmentError(f"line {index + 1}: cannot find {part[:40]!r} in the source")
        pieces.append(Piece(index, start, start + len(part)))
    return tuple(pieces)


def _cell_piece(lines: list[str], index: int, content: str, after: int) -> Piece:
    """Where a table cell's text sits on its row, searched from `after` (the end of the
    row's cell before it: kept per line by the caller, a scan of every piece found so far
    made a 129 kB rulebook's export take 51 s)."""
    line = lines[index]
    if not content:
        return Piece(index, after, after)
    for written in (content.replace("|", "\\|"), content):
        start = line.find(written, after)
        if start >= 0:
            return Piece(index, start, start + len(written))
    raise SegmentError(f"line {index + 1}: cannot find table cell {content[:40]!r}")


def skeleton(text: str, segments: list[Segment]) -> list[str]:
    """The document with every unit blanked: two documents with the same skeleton have
    their units in the same places (a translation that follows its source)."""
    blanked = rebuild(text, segments, ["\x00"] * len(segments))
    # spacing inside Jinja code may differ (a typography fix put U+202F before a `%}`)
    return [_SPACES.sub(" ", line) for line in blanked.split("\n")]


def rebuild(text: str, segments: list[Segment], replacements: list[str | None]) -> str:
    """`text` with each segment's text replaced (None keeps it). A replacement's extra lines
    take the unit's continuation indent (list items, quotes); a heading or table cell holds
    one line, so a replacement with a line break there raises SegmentError."""
    lines = text.split("\n")
    edits: list[tuple[Piece, list[Piece], str]] = []
    for seg, new in zip(segments, replacements, strict=True):
        if new is None:
            continue
        if "\n" in new and seg.kind != "paragraph":
            raise SegmentError(f"line {seg.line}: a {seg.kind} holds a single line")
        if seg.kind == "string":
            new = new.replace("\\", "\\\\").replace(seg.quote, "\\" + seg.quote)
        edits.append((seg.pieces[0], list(seg.pieces[1:]), new))
    dropped: set[int] = set()
    for first, rest, new in sorted(edits, key=lambda e: (e[0].line, e[0].start), reverse=True):
        line = lines[first.line]
        prefix = line[: first.start]
        last = rest[-1] if rest else first
        tail = lines[last.line][last.end :]
        # each new line takes the prefix its source line had (a lazy line has none); lines
        # beyond the source's take the unit's indent (list item, quote)
        prefixes = [lines[p.line][: p.start] for p in rest]
        indent = "".join(ch if ch == ">" else " " for ch in prefix)
        new_lines = new.split("\n")
        joined = prefix + new_lines[0]
        for number, part in enumerate(new_lines[1:]):
            joined += "\n" + (prefixes[number] if number < len(prefixes) else indent) + part
        lines[first.line] = joined + tail
        dropped.update(p.line for p in rest)
    return "\n".join(line for i, line in enumerate(lines) if i not in dropped)


def slug(text: str) -> str:
    """A heading as an ASCII key: 'Mise en place' → 'mise-en-place'."""
    plain = unicodedata.normalize("NFKD", _without_code(text))
    ascii_text = plain.encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
