"""What a rulebook's Markdown prints, line by line: the text the checks of printed letters
(P002 glyphs, P017 direction) must search. The Markdown source holds text that never prints
(link targets and titles, reference definitions) and text that prints otherwise (`&#1513;`
prints a Hebrew letter): searched as written, the first was refused and the second passed.
This mirrors what `markdown_flow` draws: the same parser, each inline token's content,
an image's alt text, code and HTML blocks as they are."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def _parser() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")  # as markdown_flow.markdown_flowables


def printed_lines(text: str) -> str:
    """`text` (rendered Markdown) with each source line replaced by what it prints, the
    line breaks kept (line N of the result is what line N of `text` prints); a heading's
    line starts with `#` (the heading face is checked on those)."""
    lines = [""] * (text.count("\n") + 1)
    heading = False
    for token in _parser().parse(text):
        if token.type == "heading_open":
            heading = True
        elif token.type == "inline" and token.map:
            line = token.map[0]
            if heading:
                lines[line] = "# " + lines[line]
                heading = False
            for child in token.children or ():
                if child.type in ("softbreak", "hardbreak"):
                    line = min(line + 1, len(lines) - 1)
                else:
                    lines[line] += child.content  # an image's is its alt text
        elif token.type in ("fence", "code_block", "html_block") and token.map:
            first = token.map[0] + (1 if token.type == "fence" else 0)
            for offset, part in enumerate(token.content.rstrip("\n").split("\n")):
                at = min(first + offset, len(lines) - 1)
                lines[at] += part
    return "\n".join(lines)
