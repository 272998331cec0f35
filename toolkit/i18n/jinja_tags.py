"""Where a text's Jinja tags are as Jinja's lexer reads them, in linear time.

`jinja_cache.template_code` cuts a tag from its opener to the first closer of its kind;
Jinja's lexer does not end an expression or a statement at a closer inside a string
literal (`{{ "}}" }}`) or inside brackets (`{{ {"a": {"b": 1}} }}`), and reads the text
between `{% raw %}` and `{% endraw %}` as text. The i18n import decides which code a
translation carries by these spans, so they must be the lexer's: with the first closer, a
msgstr could write `{{ "}}" ~ ANY EXPRESSION ~ "" }}`, cut like the msgid's `{{ "}}" }}`
(probe66-4).

Where Jinja's lexer would stop with an error (a string, a bracket, a tag, a comment or a raw
block left open; a closing bracket that closes nothing), the rest of the text is cut as
`template_code` cuts it: a unit of a rulebook may hold half a tag whose other half is in
the next unit, and an opener with no closer stays prose as it did. The rebuilt file is
parsed whole before it is written, which is where such halves are judged, and where a
character the lexer refuses inside a tag (`@`, a `\\` outside a string), which this finder
reads past, is refused.
"""

from __future__ import annotations

import re

from toolkit.render.jinja_cache import template_code

# an opener, `{% raw %}` first as in jinja2.lexer's root rule (`root_raw_re`)
_OPENER = re.compile(r"(\{%[-+]?\s*+raw\s*+-?%\})|\{[{%#]")
_COMMENT_END = re.compile(r"#\}")
_RAW_END = re.compile(r"\{%[-+]?\s*+endraw\s*+[-+]?%\}")
# what can end a tag, open or close a bracket, or open a string: the rest is skipped
_STOP = re.compile(r"""[%}'"()\[\]{]""")
# jinja2.lexer.string_re, with possessive repeats: an unfinished string fails in one pass
_STRING = {q: re.compile(rf"{q}[^{q}\\]*+(?:\\.[^{q}\\]*+)*+{q}", re.DOTALL) for q in ("'", '"')}
_CLOSERS = {"{": "}}", "%": "%}"}
_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _tag_end(text: str, start: int, closer: str) -> int:
    """The end of the expression or statement opened at `start` (after its closer), or -1
    where Jinja's lexer would stop with an error before any closer ends it."""
    expected: list[str] = []  # the closing brackets still owed, innermost last
    position = start + 2
    while found := _STOP.search(text, position):
        at = found.start()
        char = text[at]
        if char in _STRING:
            string = _STRING[char].match(text, at)
            if string is None:
                return -1  # unfinished: Jinja reads no further
            position = string.end()
            continue
        if not expected and text.startswith(closer, at):
            return at + 2
        if char in _PAIRS:
            expected.append(_PAIRS[char])
        elif char in ")]}" and (not expected or expected.pop() != char):
            return -1  # "unexpected '}'"
        position = at + 1
    return -1


def jinja_tags(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each Jinja expression, statement, comment, and raw block
    delimiter of `text`, in order, as Jinja's lexer finds them (see the module)."""
    spans: list[tuple[int, int]] = []
    position = 0
    while opener := _OPENER.search(text, position):
        start, kind = opener.start(), text[opener.start() + 1]
        if kind == "#":
            comment = _COMMENT_END.search(text, start + 2)
            end = comment.end() if comment is not None else -1
        elif opener[1] is not None:
            close = _RAW_END.search(text, opener.end())
            if close is not None:
                spans += [opener.span(), close.span()]
                position = close.end()
                continue
            end = -1
        else:
            end = _tag_end(text, start, _CLOSERS[kind])
        if end < 0:
            return spans + [(start + a, start + b) for a, b in template_code(text[start:])]
        spans.append((start, end))
        position = end
    return spans
