"""How large a PO file `i18n import` reads, checked before polib parses it.

A PO file comes from a translator, maybe a stranger. polib appends each continuation line
of an entry to the text so far (a new string each time), so an entry of many lines costs
the square of its length: a 5 MB file of one 5,000-line msgstr took 41 s to parse, 50 MB
ran for minutes. And each entry costs about a millisecond to report: 30,000 in a 1.4 MB
file took 25 s. A bundled game's PO file is 250 kB, 1,204 entries, none over 12 lines,
so the limits below leave a game many times larger than that room.
"""

from __future__ import annotations

import codecs
import os
import re
from pathlib import Path

from toolkit.fileio import InputError, read_bounded

MAX_BYTES = 8 * 1024 * 1024
MAX_ENTRIES = 20_000
MAX_ENTRY_LINES = 2_000
"""Continuation lines of one msgid, msgstr or msgctxt (a 50,000-character rulebook
paragraph, the most a rulebook may hold, wraps to about 650)."""
MAX_ENTRY_BYTES = 1_000_000

SLOW_CODECS = frozenset(("punycode", "idna"))
"""Text encodings Python decodes in Python, each character inserted into a list as long as
the text so far: a 6.3 MB PO file saying `charset=punycode` ran past 120 s (probe 51). Every
other text encoding of the standard library decodes in C (the single-byte ones through one
charmap table), in time linear in the file."""

_KEYWORDS = frozenset(("msgctxt", "msgid", "msgid_plural", "msgstr"))
"""The keywords that start a text (and `msgstr[N]`, `#| msgid`…): a text's first line counts
with it (an 8.3 MB msgstr written on one line, for a rulebook heading, was counted as no
text's, and `i18n import` took 1.45 GB to refuse it: probe 50 P50-12)."""
_PREVIOUS = frozenset(("msgctxt", "msgid", "msgid_plural"))
_SKIPPED_BARE = frozenset(("#:", "#,", "#."))
"""Comment markers polib skips when nothing follows them: the text before goes on after."""


_CONTENT_TYPE = re.compile(rb'"?Content-Type:')
_CHARSET = re.compile(rb" charset=([\w_\-:\.]+)")


def _charset(data: bytes) -> re.Match[bytes] | None:
    r"""The charset polib's pattern (`"?Content-Type:.+? charset=([\w_\-:\.]+)`) finds,
    found in one pass: on a line, only its first `Content-Type:` can start the match (any
    charset after a later one is after the first too), where the pattern tried each (a line
    of `Content-Type:` repeated took the square of its length: 100 kB, 3.4 s)."""
    at = 0
    while (opened := _CONTENT_TYPE.search(data, at)) is not None:
        line_end = data.find(b"\n", opened.end())
        line_end = len(data) if line_end < 0 else line_end
        found = _CHARSET.search(data, opened.end() + 1, line_end)  # `.+?`: one character first
        if found is not None:
            return found
        at = line_end
    return None


def read_po_file(path: Path) -> str:
    """The text of the PO file at `path`, read once and bounded (raises InputError, with the
    line, for one too large to parse in bounded time or not in its charset). The caller
    parses this text (`polib.pofile(text)`), never the file again by name: a file swapped
    after this read (a FIFO, a huge one) is not read."""
    try:
        data = read_bounded(path, MAX_BYTES)
    except OSError as exc:
        raise InputError(f"cannot read it: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"it is larger than the limit of {MAX_BYTES:,} bytes for a PO file")
    charset = "utf-8"
    found = _charset(data)
    if found:
        named = found.group(1).strip().decode("ascii", errors="replace")
        try:
            codec = codecs.lookup(named)
        except LookupError:
            codec = codecs.lookup("utf-8")  # polib's default for a charset it does not know
        if not getattr(codec, "_is_text_encoding", True):  # base64, hex, rot13, zlib_codec
            line = data[: found.start(1)].count(b"\n") + 1
            raise InputError(
                f"the header's charset {named!r} is no text encoding (write charset=UTF-8)", line
            )
        if codec.name in SLOW_CODECS:
            line = data[: found.start(1)].count(b"\n") + 1
            raise InputError(
                f"the header's charset {named!r} is decoded one character at a time, at a cost"
                " that grows with the square of the file (write charset=UTF-8)",
                line,
            )
        charset = codec.name
    try:
        text = data.decode(charset).removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"byte 0x{data[exc.start]:02x} is not valid {charset}", line) from None
    except ValueError:  # `undefined` raises a UnicodeError with no byte for any input
        line = data[: found.start(1)].count(b"\n") + 1 if found else 1
        raise InputError(
            f"the header's charset {charset!r} cannot decode anything (write charset=UTF-8)", line
        ) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as a file read as text is
    if not text.endswith("\n"):
        text += "\n"
    _check(text)
    if _names_a_file(text):  # polib would read that file instead of parsing the text
        raise InputError("it holds no PO entries")
    return PoText(text)


def refuse_unreadable(text: str, keys: list[str]) -> None:
    """Raise ValueError when `i18n import` would refuse the PO `text` that `i18n export`
    made (`keys`: its entries' msgctxts, to name the file most of them come from): export
    wrote a 59,772-entry file for a rulebook of large tables that import then refused at
    its 20,001st entry (probe 51 L7). The same count as the import's, on the same bytes."""
    data = text.encode("utf-8")
    try:
        if len(data) > MAX_BYTES:
            raise InputError(f"it is larger than the limit of {MAX_BYTES:,} bytes for a PO file")
        _check(text)
    except InputError as exc:
        files: dict[str, int] = {}
        for key in keys:
            name = key.split(":", 1)[0]
            files[name] = files.get(name, 0) + 1
        most = max(sorted(files), key=lambda name: files[name]) if files else None
        where = f"; {most} gives {files[most]:,} of its {len(keys):,} entries" if most else ""
        raise ValueError(
            f"the PO file would not be read back by `playset i18n import`: {exc}{where};"
            " nothing written (make that file's texts fewer or shorter, or split the game)"
        ) from None


class PoText(str):
    """A PO file's text that polib cuts into lines where the file has them: polib cuts the
    text it is given with `str.splitlines`, which also breaks at U+0085, U+2028 and the
    other separators a msgstr may hold (reading the file by name, it broke at newlines
    only, and `i18n import` refused such a character by its code point)."""

    __slots__ = ()

    def splitlines(self, keepends: bool = False) -> list[str]:
        lines = str(self).split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return [line + "\n" for line in lines] if keepends else lines


def _names_a_file(text: str) -> bool:
    try:
        return os.path.lexists(text)
    except (ValueError, UnicodeEncodeError):
        return False


def _check(text: str) -> None:
    """Raise InputError (with the line) for PO text too large to parse in bounded time. Its
    lines are read as polib reads them (`_line_kind`): stripped of any whitespace, and a blank
    line or one polib skips going on with the text before it. Read by regular expressions at
    the line's start, a blank line between two continuation lines ended the count while polib
    joined them into one 8 MB msgstr (14.9 s and 1.45 GB of `i18n import`), and an indented
    entry was no entry (150,000 of them parsed and reported): probe 53-11."""
    entries = 0
    run_start = run_lines = run_bytes = 0
    for number, line in enumerate(text.split("\n"), start=1):
        kind, line = _line_kind(line)
        if kind == SKIPPED:
            continue
        if kind == ENTRY:
            entries += 1
            if entries > MAX_ENTRIES:
                raise InputError(f"it holds more than {MAX_ENTRIES:,} entries", number)
        if kind in (ENTRY, TEXT):  # a text's first line: its bytes count (probe 50 P50-12)
            run_start, run_lines, run_bytes = number, 0, _bytes(line)
        elif kind == CONTINUED:
            if not run_lines and not run_bytes:
                run_start = number - 1  # the msgid/msgstr line the run continues
            run_lines += 1
            run_bytes += _bytes(line)
        else:
            run_lines = run_bytes = 0
            continue
        if run_lines > MAX_ENTRY_LINES or run_bytes > MAX_ENTRY_BYTES:
            raise InputError(
                f"one text runs over more than {MAX_ENTRY_LINES:,} lines or"
                f" {MAX_ENTRY_BYTES:,} bytes",
                max(run_start, 1),
            )


SKIPPED, ENTRY, TEXT, CONTINUED, OTHER = range(5)
"""What a line of a PO file is to polib (`_line_kind`): nothing (blank, or a marker it skips),
a msgid (an entry), another text's first line, a text's continuation, anything else."""


def _line_kind(line: str) -> tuple[int, str]:
    """What polib's parser (1.2) makes of `line`, and the line as it reads it: its tests, in
    its order, on the line stripped of whitespace (`str.strip`: Unicode spaces too)."""
    line = line.strip()
    if not line:
        return SKIPPED, line
    tokens = line.split(None, 2)
    if tokens[0] == "#~|":
        return SKIPPED, line
    if tokens[0] == "#~" and len(tokens) > 1:  # obsolete: read as the rest of the line
        line, tokens = line[3:].strip(), tokens[1:]
    first = tokens[0]
    if first in _KEYWORDS and len(tokens) > 1:
        return (ENTRY if first == "msgid" else TEXT), line
    if first in _SKIPPED_BARE and len(tokens) <= 1:
        return SKIPPED, line
    if line.startswith('"'):
        return CONTINUED, line
    if line.startswith("msgstr["):
        return TEXT, line
    if first == "#|" and len(tokens) > 1:
        if tokens[1].startswith('"'):
            return CONTINUED, line
        if tokens[1] in _PREVIOUS and len(tokens) > 2:
            return TEXT, line
    return OTHER, line


def _bytes(line: str) -> int:
    return len(line) if line.isascii() else len(line.encode("utf-8", "surrogatepass"))
