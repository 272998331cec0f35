"""Text from a game folder (file names, paths) made safe to print on a terminal or in a CI log,
and characters named as a finding names them (`U+0051 'Q'`).

A file name may hold any character but `/` and NUL: a newline followed by `::error::…` is a
GitHub workflow command when it starts a line of the log, and ESC starts a terminal control
sequence (colours, titles, hyperlinks, clearing the screen). Messages quote values with repr
already; what a diagnostic says *where* (its file) and the names a command prints are shown
here with each control character escaped as repr would, so one finding stays one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidi
# overrides and isolates (they reorder what follows on the line as shown)
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, keep: str = "") -> str:
    """`text` with every control character but those in `keep` escaped (`\\n`, `\\x1b`,
    `\\u202e`); text without one comes back unchanged."""
    if keep:
        return _CONTROLS.sub(lambda m: m.group() if m.group() in keep else _escaped(m), text)
    return _CONTROLS.sub(_escaped, text)


def code_point(ch: str) -> str:
    """A character as a finding names it: `U+0051 'Q'`."""
    return f"U+{ord(ch):04X} {ch!r}"


def code_points(chars: Iterable[str]) -> str:
    """Characters as a finding lists them: `U+0051 'Q', U+00C9 'É'`."""
    return ", ".join(code_point(ch) for ch in chars)
