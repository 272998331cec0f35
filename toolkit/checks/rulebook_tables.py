"""A rulebook's own Markdown table row taller than a page (R010): `build` never splits a
row, so it refused such a rulebook while `validate` said it clean (lows60). Measured as the
card reference's rows are (toolkit.checks.card_reference_rows), at a page's full width: a
table in a list or a quote is narrower still, so a row said here is too tall wherever it
stands. A rulebook whose tables' rows are plainly lower than a page (`_plainly_short`, as
every bundled one) is not parsed: the Markdown parser and platypus are ~55 ms of a validate."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import astuple
from typing import TYPE_CHECKING, Any

from toolkit.content.unit_cache import Clean, text_digest
from toolkit.diagnostics import Span

if TYPE_CHECKING:
    from toolkit.render.rulebook_style import Faces

_DELIMITER = re.compile(r"\|[ \t]*:?-|-:?[ \t]*\|")
"""A pipe beside a dash: every table's delimiter row has one (and a few other lines)."""
_DELIMITER_CELL = re.compile(r"[ \t]*:?-+:?[ \t]*")
"""One cell of a table's delimiter row: its dashes, a colon either side, spaces around."""


def _delimiter_row(line: str) -> bool:
    """Whether `line` is a table's delimiter row (`|---|:-:|`, `--- | ---`): split at its
    pipes, each cell dashes (the leading and trailing pipes' empty ends aside). One pass a
    cell: a single pattern of the whole row went back over a run of spaces for each of its
    splits (a dash and 49,000 spaces, 24 s; probe 63-2)."""
    if "|" not in line or "-" not in line:
        return False
    cells = line.split("|")
    if not cells[0]:  # a leading pipe (a space before it is no row's)
        cells = cells[1:]
    if cells and not cells[-1].strip(" \t"):
        cells = cells[:-1]
    return bool(cells) and all(_DELIMITER_CELL.fullmatch(cell) for cell in cells)


def table_look(text: str, faces: Faces, clean: Clean | None = None) -> list[tuple[int, int]] | None:
    """The tables of `text` that `tall_table_rows` measures (`_looked`): [] for a text
    without a delimiter row, None when every table is. [] is a pure function of the text and
    the faces: nothing is measured, nothing said, no `budget` spent. With `clean` (marks
    kept between `validate` runs), a table the look found plainly short in the last run, in
    the same faces, is not looked at again (`_looked`)."""
    if "|" not in text or not _DELIMITER.search(text):
        return []
    return _looked(text, faces, clean)


def tall_table_rows(
    text: str, lang: str, faces: Faces, icons: Any, budget: list[int] | None = None
) -> Iterator[tuple[Span, str]]:
    """The place (the row's first line in the rendered rulebook `text`) and message of each
    table row taller than a page under its header: the tables the look cannot settle
    (`_looked`) measured, each parsed on its own, while `budget` (their cells' characters,
    shared by a game's languages: `MAX_MEASURED_CHARACTERS`) lasts."""
    yield from looked_rows(text, table_look(text, faces), lang, faces, icons, budget)


def looked_rows(
    text: str,
    looked: list[tuple[int, int]] | None,
    lang: str,
    faces: Faces,
    icons: Any,
    budget: list[int] | None = None,
) -> Iterator[tuple[Span, str]]:
    """`tall_table_rows` of a text whose `table_look` is `looked`."""
    if looked is None:  # the look cannot read it: every table measured
        yield from measured_rows(text, lang, faces, icons, budget)
        return
    lines = text.split("\n")
    for start, end in looked:
        snippet = "\n".join(lines[start:end])
        for span, message in measured_rows(snippet, lang, faces, icons, budget):
            yield Span(span.line + start, span.col), message


MAX_MEASURED_CHARACTERS = 500_000
"""Characters of the cells of the tables the look cannot settle that validate lays out,
every language of a game together (~0.9 µs a character: 5,400 cells of 60 thirteen-letter
words took 3.8 s; probe 63-5); past them a row is left to `build`, which refuses a row
taller than a page where it meets it."""


def measured_rows(
    text: str, lang: str, faces: Faces, icons: Any, budget: list[int] | None = None
) -> Iterator[tuple[Span, str]]:
    """`tall_table_rows` from the parsed Markdown, each row measured (while `budget`, the
    characters left, lasts)."""
    from markdown_it import MarkdownIt
    from markdown_it.tree import SyntaxTreeNode

    from toolkit.checks.card_reference_rows import tall_cells
    from toolkit.render.markdown_flow import fit_table, make_sheet, plain_text

    root = SyntaxTreeNode(MarkdownIt("commonmark").enable("table").parse(text))
    sheet: Any = None
    for node in root.walk():
        if node.type != "table":
            continue
        rows = [tr for section in node.children for tr in section.children]
        plain = [[(plain_text(cell), cell.type == "th") for cell in tr.children] for tr in rows]
        if len(plain) < 2 or not any(plain[0]):
            continue
        if budget is not None:
            if budget[0] <= 0:
                return
            budget[0] -= sum(len(text) for row in plain for text, _ in row)
        if sheet is None:
            sheet = make_sheet(lang, faces=faces)
            sheet.icons = icons

        def laid(table: Any = node, sheet: Any = sheet) -> Any:
            return fit_table(table, sheet)

        for index, _, height, papers in tall_cells(plain, faces, icons, laid):
            line = (rows[index].map or (0, 0))[0] + 1
            pages = " or ".join("A4" if p == "a4" else p for p in papers)
            yield (
                Span(line, 1),
                (
                    f"this table row would print at least {height:,.0f} points high ({lang}):"
                    f" more than a page of {pages} holds under its table's header, and a row is"
                    " never split, so `build` would refuse the rulebook; shorten its cells, or"
                    " turn the table into paragraphs"
                ),
            )


def _plainly_short(text: str, faces: Faces) -> bool:
    """Whether every table of `text` stands at the left margin and each of its rows is
    plainly lower than a page under its header (`_looked`)."""
    return _looked(text, faces) == []


def _looked(text: str, faces: Faces, clean: Clean | None = None) -> list[tuple[int, int]] | None:
    """The tables of `text` (their first and past-last lines) whose rows may be taller than
    a page under their headers, from the Markdown as written; None when the look cannot
    read it (then every table is measured). A row is plainly lower when each column may be
    as wide as its widest word (measured with its markup, in the widest of
    the four faces, an icon's name as an em more), `build` gives every column that much,
    so each line of a cell holds a word or a hyphenated word's end: at most two lines a
    word. Anything this cannot read (an indented or quoted table, a delimiter row under no
    header) is left to the parse; a table holding an escaped pipe or markup (`<`), or whose
    widest words pass a page's width, is measured.

    Whether a table is plainly short is a pure function of its lines and the faces: with
    `clean` on, a table found so is kept as a mark (`table:` and the digest of the faces and
    its lines), and one marked in the last run is not measured again (after a card edit,
    the tables of the language whose text changed: ~0.1 ms a table)."""
    from toolkit.render import table_fit as fit
    from toolkit.render.rulebook_style import register_faces

    lines = text.split("\n")
    tables: list[tuple[int, list[str]]] = []  # each table's first line, and its lines
    index = 1
    while index < len(lines):
        line = lines[index]
        if _delimiter_row(line):
            if "|" not in lines[index - 1]:
                return None
            first, rows = index - 1, [lines[index - 1]]
            index += 1
            while index < len(lines) and lines[index].strip():  # to the table's end: a row
                rows.append(lines[index])  # under it is the table's, never a new table
                index += 1
            tables.append((first, rows))
            continue
        if "|" in line and _delimiter_row(line.lstrip(" \t>*+-0123456789.)")):
            return None  # a table inside a list or a quote: narrower than a page
        index += 1
    if not tables:
        return None  # a delimiter the scan did not see as one: the parse decides
    register_faces(faces)
    size = fit.BODY_SIZE * fit.CELL_SIZE
    fonts = [faces.font(style) for style in ("regular", "bold", "italic", "bolditalic")]
    leading = fit.BODY_SIZE * fit.CELL_LEADING
    narrowest = min(fit.page_room(paper)[0] for paper in fit.PAPERS)
    lowest = min(fit.page_room(paper)[1] for paper in fit.PAPERS)
    known: dict[str, float] = {}  # each word's widest, measured once
    tall: list[tuple[int, int]] = []
    for first, rows in tables:
        mark = ""
        if clean is not None and clean.on:
            mark = "table:" + text_digest(*astuple(faces), *rows)
            if clean.seen(mark):
                continue  # plainly short in the last run
        if not _short(rows, known, fonts, size, leading, narrowest, lowest):
            tall.append((first, first + len(rows) + 1))  # its delimiter row too
        elif clean is not None and mark:
            clean.found_clean(mark)
    return tall


def _short(
    rows: list[str],
    known: dict[str, float],
    fonts: list[str],
    size: float,
    leading: float,
    narrowest: float,
    lowest: float,
) -> bool:
    """Whether a table's rows (its header first) are plainly lower than a page (`_looked`),
    each word's width looked up in `known` (measured in the widest of `fonts` once)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from toolkit.render import table_fit as fit

    if any("\\" in row or "<" in row for row in rows):
        return False
    cells = [[cell.split() for cell in row.strip().strip("|").split("|")] for row in rows]
    widest: dict[int, float] = {}
    for row in cells:
        for column, cell in enumerate(row):
            for word in cell:
                wide = known.get(word)
                if wide is None:
                    wide = max(stringWidth(word, font, size) for font in fonts)
                    wide = known[word] = wide + (size if ":" in word else 0.0)
                widest[column] = max(widest.get(column, 0.0), wide)
    if sum(w + 2 * fit.PAD + 1 for w in widest.values()) > narrowest:
        return False
    header = 2 * max((len(words) for words in cells[0]), default=1) * leading
    for row in cells[1:]:
        high = 2 * max((len(words) for words in row), default=1) * leading
        if header + high + 2 * (fit.TOP + fit.BOTTOM) > lowest:
            return False
    return True
