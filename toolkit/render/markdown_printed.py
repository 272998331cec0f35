"""What a rulebook's Markdown prints, line by line and face by face: the text the checks of
printed letters (P002 glyphs, P017 direction) must search. The Markdown source holds text
that never prints (link targets and titles, reference definitions, the `#` of a heading, the
first level-1 heading when game.yaml titles the book) and text that prints otherwise
(`&#1513;` prints a Hebrew letter, U+202F a narrowed U+00A0): searched as written, the first
was refused and the second passed. This mirrors what `markdown_flow` draws: the same parser,
each inline token's content in the face it prints in (bold and italic spans, headings, table
heads), an image's alt text, code and HTML blocks as they are."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from toolkit.render.rulebook_words import BULLETS

NARROW = "\u202f"
"""Drawn as a narrowed U+00A0 (markdown_flow.markup's NARROW_NBSP): its glyph is U+00A0's."""

STYLES = ("regular", "bold", "italic", "bolditalic", "heading")
"""The faces a rulebook's Markdown prints in (`rulebook_style.Faces`' fields)."""


def drawn(text: str) -> str:
    """`text` with each character as `markup` draws it: U+202F as U+00A0, an arrow Noto Sans
    lacks as its stand-in ('–›', fonts.FALLBACKS)."""
    from toolkit.render.fonts import stand_ins

    for ch, sub in stand_ins().items():
        if ch in text:
            text = text.replace(ch, sub)
    return text.replace(NARROW, "\u00a0") if NARROW in text else text


_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});")
MAX_REFERENCES = 1_000
"""Character references `reference_to` decodes in one look (a line of 100,000 of them, each
for another character, would be read in Python for every character searched)."""


def reference_to(line: str, ch: str) -> int:
    """Where in `line` (of a rulebook's Markdown source) the first character reference
    that prints `ch` stands (`&#1513;`, `&#x5D5;`, `&rarr;`: Markdown prints the character
    it names), or -1. A finding for such a character was placed at line 1."""
    import html

    for count, found in enumerate(_REFERENCE.finditer(line)):
        if count >= MAX_REFERENCES:
            break
        if html.unescape(found.group()) == ch:
            return found.start()
    return -1


@cache
def _parser() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")  # as markdown_flow.markdown_flowables


@dataclass
class Printed:
    """A rendered rulebook as it prints: for each face (`STYLES`), line N of `faces[style]`
    is what line N of the Markdown prints in that face; `title` the first level-1 heading,
    which the renderer takes as the book's title (None without one)."""

    faces: dict[str, list[str]] = field(default_factory=dict)
    plain: list[str] = field(default_factory=list)
    """Line N: what line N prints, each run once, as written (U+202F kept)."""
    title: str | None = None
    title_line: int = 0
    marks: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, style, mark) for each list's bullet or number the renderer draws itself."""
    runs: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, text, where) for each run of text an inline icon (`:die:`) may be in: where
    is "" for one that prints icons (paragraphs, lists, tables), "heading" for a heading's
    or the title's (they print words: `:die:` as written), "image" for an image's text
    (printed as written). Code and HTML print as written and are none."""

    def face(self, style: str) -> str:
        return "\n".join(self.faces[style])

    def lines(self) -> str:
        """What each line prints, whatever its face (line N: what line N prints)."""
        return "\n".join(self.plain)


def printed(text: str, titled: bool) -> Printed:
    """What `text` (rendered Markdown) prints. With `titled` (game.yaml has a title in the
    book's language), the first level-1 heading prints nowhere (markdown_flow takes it as
    the title and the cover prints game.yaml's): it is left out; else it prints as the title
    (the cover's, in the heading face, and the footer's, in italic)."""
    count = text.count("\n") + 1
    out = Printed({style: [""] * count for style in STYLES}, [""] * count)
    base = "regular"
    title_next = False
    lists: list[list[int]] = []  # the open lists: [] a bullet list, [n] an ordered one at n
    for token in _parser().parse(text):
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open") and token.map:
            if kind == "bullet_list_open":
                bullet = BULLETS[min(len(lists), len(BULLETS) - 1)]  # by depth: markdown_flow
                out.marks.append((token.map[0], "regular", bullet))
            lists.append(
                [] if kind == "bullet_list_open" else [int(token.attrs.get("start", 1) or 1)]
            )
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open" and lists and lists[-1] and token.map:
            out.marks.append((token.map[0], "bold", f"{lists[-1][0]}."))  # `1.` in bold
            lists[-1][0] += 1
        elif kind == "heading_open":
            level = int(token.tag[1])
            base = "h1" if level <= 2 else f"h{min(level, 4)}"
            if level == 1 and out.title is None:
                out.title, title_next = "", True
        elif kind in ("heading_close", "th_close"):
            base = "regular"
        elif kind == "th_open":
            base = "th"
        elif kind == "inline" and token.map:
            if title_next:
                title_next = False
                out.title, out.title_line = _plain(token), token.map[0]
                if titled:
                    continue
                base = "title"
            _inline(out, token, base)
        elif kind in ("fence", "code_block", "html_block") and token.map:
            first = token.map[0] + (1 if kind == "fence" else 0)
            for offset, part in enumerate(token.content.rstrip("\n").split("\n")):
                at = min(first + offset, count - 1)
                out.faces["regular"][at] += drawn(part)
                out.plain[at] += part
    return out


def _plain(token: Any) -> str:
    """A heading's text as markdown_flow.plain_text gives it (the title)."""
    parts = []
    for child in token.children or ():
        if child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type in ("text", "code_inline", "html_inline", "image"):
            parts.append(child.content)
    return "".join(parts).strip()


def _inline(out: Printed, token: Any, base: str) -> None:
    """Each run of an inline token added to the line and face it prints in: a heading's
    whole in its faces (headings print their plain text); elsewhere bold and italic spans in
    the bold, italic or bold italic face (an image's alt text in italic)."""
    line = token.map[0]
    last = len(out.faces["regular"]) - 1
    head = base == "th"  # a table head cell prints in bold
    bold, italic = head, False
    for child in token.children or ():
        kind = child.type
        if kind in ("softbreak", "hardbreak"):
            line = min(line + 1, last)
        elif kind == "strong_open":
            bold = True
        elif kind == "strong_close":
            bold = head
        elif kind == "em_open":
            italic = True
        elif kind == "em_close":
            italic = False
        elif child.content:
            out.plain[line] += child.content
            if kind in ("text", "image"):
                where = "heading" if base == "title" or base in _WHOLE else ""
                out.runs.append((line, child.content, "image" if kind == "image" else where))
            if base == "title":  # the cover's title (heading face) and the footer's (italic)
                out.faces["heading"][line] += drawn(child.content)
                out.faces["italic"][line] += child.content  # drawn as written (drawString)
                continue
            if base in _WHOLE:
                for style in _WHOLE[base]:
                    out.faces[style][line] += drawn(child.content)
                continue
            image = kind == "image"  # its alt text prints in italic
            out.faces[_STYLE[bold, italic or image]][line] += drawn(child.content)


_WHOLE = {"h1": ("heading", "bold"), "h3": ("heading", "regular"), "h4": ("bold",)}
"""Headings print their plain text whole: levels 1-3 in the heading face and in the contents
(levels 1-2 in bold, 3 in regular: rulebook.contents), levels 4-6 in bold."""
_STYLE = {
    (False, False): "regular",
    (True, False): "bold",
    (False, True): "italic",
    (True, True): "bolditalic",
}


def printed_lines(text: str, titled: bool = False) -> str:
    """`text` (rendered Markdown) with each source line replaced by what it prints in any
    face, the line breaks kept (line N of the result is what line N of `text` prints)."""
    return printed(text, titled).lines()
