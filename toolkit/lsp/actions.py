"""Code actions: the safe typography fixes of a file, a diagnostic's "did you mean", and a
`# playset: ignore[CODE]` for the line."""

from __future__ import annotations

import bisect
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from lsprotocol import types as lsp

DID_YOU_MEAN = re.compile(r"did you mean \{?'?([^'?}]+)'?\}?\?")
"""What `suggested` finds, written as a pattern (searched, it ran from each `did you mean `
to the next quote, mark or brace: quadratic in a message that repeats the phrase)."""
_LEAD = "did you mean "
_STOPS = re.compile(r"['?}]")
WORD = re.compile(r"[\w.-]+")
IGNORE = re.compile(r"#\s*playset:\s*ignore\[([A-Z0-9,\s]+)\]")


def suggested(message: str) -> str | None:
    """Group 1 of `DID_YOU_MEAN.search(message)`, in one pass: after each `did you mean `
    (and an optional `{` and `'`), the name runs to the next quote, mark or brace, found by
    bisecting their places, where the match ends or fails whatever the start."""
    stops = [found.start() for found in _STOPS.finditer(message)]
    at = message.find(_LEAD)
    while at >= 0:
        lead = at + len(_LEAD)
        braced = [lead + 1, lead] if message.startswith("{", lead) else [lead]
        for start in braced:  # `\{?` given back: the brace may be the name's first letter
            start += message.startswith("'", start)
            index = bisect.bisect_left(stops, start)
            end = stops[index] if index < len(stops) else len(message)
            if end > start:
                after = end + message.startswith("'", end)
                after += message.startswith("}", after)
                if message.startswith("?", after):
                    return message[start:end]
        at = message.find(_LEAD, at + 1)
    return None


def actions(
    state: Any,
    uri: str,
    text: str,
    diagnostics: Sequence[lsp.Diagnostic],
    lines: list[str] | None = None,
) -> list[lsp.CodeAction]:
    """The quick fixes of the diagnostics asked about, and the file's typography fix
    (`lines`: `text`'s, when the caller has them)."""
    lines = text.splitlines() if lines is None else lines
    out: list[lsp.CodeAction | None] = []
    ignored: set[tuple[str, int]] = set()  # an ignore action for each code and line, once
    for diag in _distinct(diagnostics)[:MAX_ASKED]:
        code = str(diag.code or "")
        suggestion = suggested(diag.message)
        if suggestion is not None:
            out.append(_replace(uri, lines, diag, suggestion))
        place = (code, diag.range.start.line)
        if code and place[1] < len(lines) and place not in ignored:
            ignored.add(place)
            out.append(_ignore(uri, lines, diag, code))
    fixed = _typography_of(state, uri, text)
    if fixed is not None:
        out.append(fixed)
    return [a for a in out if a is not None]


MAX_REPLACED = 200
"""Characters of a word a "did you mean" action replaces, and of the word it writes: the
names it corrects (ids, keys, codes) are at most 64. The diagnostics a client sends with a
request are its own: a range over a 500,000-character line put the line in each of a
request's 64 actions (probe 65-2)."""


def _replace(uri: str, lines: list[str], diag: lsp.Diagnostic, new: str) -> lsp.CodeAction | None:
    """Replace the word the diagnostic points at with the suggested one."""
    line = diag.range.start.line
    if line >= len(lines) or len(new) > MAX_REPLACED:
        return None
    text = lines[line]
    start = diag.range.start.character
    end = diag.range.end.character if diag.range.end.line == line else len(text)
    if end <= start:  # a point: the word there
        match = WORD.match(text[: start + MAX_REPLACED + 1], start)
        end = match.end() if match else start
    if end - start > MAX_REPLACED:
        return None
    old = text[start:end].strip("'\"{}")
    if not old or old == new:
        return None
    at = text.find(old, start)
    edit = lsp.TextEdit(
        range=lsp.Range(lsp.Position(line, at), lsp.Position(line, at + len(old))), new_text=new
    )
    return lsp.CodeAction(
        title=f"Replace {old!r} with {new!r}",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diag],
        edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
        is_preferred=True,
    )


def ignore_comment(text: str) -> re.Match[str] | None:
    """`IGNORE.search(text)`, tried only at the `#` before each `playset:` (spaces between):
    searched, the pattern was tried at each `#` of the line, and a line of 500,000 of them
    took 240 ms a request (probe 65-9)."""
    at = text.find("playset:")
    while at >= 0:
        mark = at - 1
        while mark >= 0 and text[mark].isspace():
            mark -= 1
        if mark >= 0 and text[mark] == "#":
            found = IGNORE.match(text, mark)
            if found is not None:
                return found
        at = text.find("playset:", at + 1)
    return None


_COMMENTS: OrderedDict[int, tuple[str, re.Match[str] | None]] = OrderedDict()
"""The suppression comment of the lines last asked about (by the line's text, kept: a
document's lines are split once for each text sent): 64 codes a request on a 500,000-character
line looked through it 64 times at each request (probe 67-9)."""


def _ignore_comment_of(text: str) -> re.Match[str] | None:
    kept = _COMMENTS.get(id(text))
    if kept is not None and kept[0] is text:
        _COMMENTS.move_to_end(id(text))
        return kept[1]
    found = ignore_comment(text)
    _COMMENTS[id(text)] = (text, found)
    while len(_COMMENTS) > 64:
        _COMMENTS.popitem(last=False)
    return found


def _ignore(uri: str, lines: list[str], diag: lsp.Diagnostic, code: str) -> lsp.CodeAction:
    """Add the code to the line's suppression comment (or write one): an edit of the codes
    alone, or an insertion at the line's end, never the whole line again (a 900 kB line
    was in each of a request's actions: 1.6 GB of answers; probe 64-1)."""
    line = diag.range.start.line
    text = lines[line]
    found = _ignore_comment_of(text)
    if found is not None:
        codes = [c.strip() for c in found.group(1).split(",") if c.strip()]
        start, end, new = found.start(1), found.end(1), ",".join([*codes, code])
    else:
        start = end = len(text)
        new = f"  # playset: ignore[{code}] (why)"
        if "#" in text:  # a comment already there: a second one would be part of it
            new = f" — playset: ignore[{code}] (why)"
    edit = lsp.TextEdit(
        range=lsp.Range(lsp.Position(line, start), lsp.Position(line, end)), new_text=new
    )
    return lsp.CodeAction(
        title=f"Ignore {code} on this line (write why)",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diag],
        edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
    )


MAX_ASKED = 64
"""Diagnostics of one code-action request answered, the same one once: the editor sends
those under the cursor (a few); a client that sends thousands over one long line had
an answer for each (probe 64-1)."""


def _distinct(diagnostics: Sequence[lsp.Diagnostic]) -> list[lsp.Diagnostic]:
    """The diagnostics, each code, line and message once, in their order."""
    seen: set[tuple[str, int, str]] = set()
    out = []
    for diag in diagnostics:
        key = (str(diag.code or ""), diag.range.start.line, diag.message)
        if key not in seen:
            seen.add(key)
            out.append(diag)
    return out


_TYPOGRAPHY: OrderedDict[str, tuple[str, object, lsp.CodeAction | None]] = OrderedDict()
"""Each document's typography fix, for its text and its game's last check (the text and the
game kept, compared by identity): an editor asks for code actions at each move of the
cursor, and each worked the fixes of the whole file out again (1,000 requests on a 70,000-line
document, 2.7 s; probe 63-3)."""
_KEPT_TYPOGRAPHY = 32


def _typography_of(state: Any, uri: str, text: str) -> lsp.CodeAction | None:
    """`_typography`, worked out once for a document's text and its game's check."""
    kept = _TYPOGRAPHY.get(uri)
    if kept is not None and kept[0] is text and kept[1] is state.game:
        _TYPOGRAPHY.move_to_end(uri)
        return kept[2]
    fixed = _typography(state, uri, text)
    _TYPOGRAPHY[uri] = (text, state.game, fixed)
    _TYPOGRAPHY.move_to_end(uri)
    while len(_TYPOGRAPHY) > _KEPT_TYPOGRAPHY:
        _TYPOGRAPHY.popitem(last=False)
    return fixed


def _typography(state: Any, uri: str, text: str) -> lsp.CodeAction | None:
    """The file's safe typography fixes (spaces only), as `playset i18n fix` applies them: a
    YAML file's new text, or a CSV sheet's new text when the fix changes only its cells (a
    workbook, or a fix in the sheet's keys file too: no quick fix, `playset i18n fix` does it)."""
    from toolkit.i18n.fix import plan_fixes
    from toolkit.lsp.names import per_check
    from toolkit.lsp.workspace import path_of

    path = path_of(uri)
    if state.game is None or path is None:
        return None
    wanted = state.mirror.rel(path)
    if wanted is None:
        return None

    def planned() -> list[Any]:
        try:
            return plan_fixes(
                state.game,
                only=lambda path: state.mirror.rel_of_mirrored(path) == wanted,
                facts=getattr(state, "facts", None),
            )
        except ValueError:  # a sheet's cell edit refused
            return []

    # once a check for each file: 33 documents asked in turn missed the fixes kept for 32,
    # and each worked the whole game's out again (probe 65-11)
    for patch in per_check(state, f"typography {wanted}", planned):
        if state.mirror.rel_of_mirrored(patch.path) != wanted:
            continue
        new_text = patch.new_text if patch.outputs is None else _sheet_text(patch, text)
        if new_text is None or new_text == text:
            return None
        end = text.count("\n") + 1
        edit = lsp.TextEdit(
            range=lsp.Range(lsp.Position(0, 0), lsp.Position(end, 0)), new_text=new_text
        )
        return lsp.CodeAction(
            title=f"Fix typography ({len(patch.edits)} spaces)",
            kind=lsp.CodeActionKind.QuickFix,
            edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
        )
    return None


def _sheet_text(patch: Any, text: str) -> str | None:
    """A CSV sheet's whole new text, when the patch writes that file alone (None otherwise:
    a workbook is no text, and a second file would need its own edit)."""
    outputs = patch.outputs or {}
    data = outputs.get(patch.path)
    if set(outputs) != {patch.path} or not isinstance(data, bytes):
        return None
    if patch.path.suffix.lower() != ".csv":
        return None
    try:
        new = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if new.startswith("\ufeff") and not text.startswith("\ufeff"):
        new = new[1:]  # the editor shows the text without its byte order mark
    return new or None
