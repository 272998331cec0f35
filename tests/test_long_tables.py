"""Long tables (a Markdown table, a card reference of a big deck) split across pages in time
that grows with their rows, not their square, and print the pages reportlab's own split of
the whole table prints, byte for byte: header on every page, shading counted across pages,
the accent line under the very last row only, every row once."""

from __future__ import annotations

import hashlib
import io
import re

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, letter
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

from toolkit.render import markdown_flow
from toolkit.render.markdown_flow import (
    Cell,
    FitTable,
    IconCanvas,
    keep_with_next,
    make_sheet,
    markdown_flowables,
)

WORDS = [
    "draw",
    "a",
    "card",
    "move",
    "two",
    "spaces",
    "score",
    "points",
    "discard",
    "your",
    "hand",
    "rest",
    "skip",
    "a",
    "turn",
]


def _markdown(rows: int, before: int = 3, long_every: int = 4) -> str:
    """A heading, `before` paragraphs, then a table of `rows` rows, some over two lines."""
    lines = ["# Title", "", "## Long table", ""]
    lines += ["Some text before the table so that it starts down the page. " * 5, ""] * before
    lines += ["| Roll | Effect | Points |", "|:-:|---|--:|"]
    for i in range(1, rows + 1):
        n = 22 if i % long_every == 0 else 1 + i % 5
        effect = " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(n))
        lines.append(f"| R{i:03d} | effect {i:03d}: {effect} | {i % 7} |")
    lines += ["", "After the table.", ""]
    return "\n".join(lines)


def _pdf(markdown: str, pagesize: tuple[float, float] = A4, extra: list | None = None) -> bytes:
    sheet = make_sheet("en")
    story = keep_with_next(markdown_flowables(markdown, sheet).flowables) + (extra or [])
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=pagesize, invariant=1)
    doc.build(story, canvasmaker=IconCanvas)
    return buffer.getvalue()


class _Work:
    """Counts what reportlab is handed: rows given to new tables, cell paragraphs wrapped."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows = self.wraps = 0
        init, wrap = Table.__init__, Paragraph.wrap

        def counted_init(table: Table, data: list, *args: object, **kwargs: object) -> None:
            self.rows += len(data)
            init(table, data, *args, **kwargs)  # type: ignore[arg-type]

        def counted_wrap(paragraph: Paragraph, *args: float) -> tuple[float, float]:
            self.wraps += 1
            return wrap(paragraph, *args)

        monkeypatch.setattr(Table, "__init__", counted_init)
        monkeypatch.setattr(Paragraph, "wrap", counted_wrap)

    def of(self, markdown: str) -> tuple[int, int]:
        self.rows = self.wraps = 0
        _pdf(markdown)
        return self.rows, self.wraps


def test_a_long_tables_work_grows_with_its_rows_not_their_square(monkeypatch) -> None:
    # reportlab's split made a new table of every row left at each page (3.4 times the rows
    # for twice the table at 250 → 500 rows, and its measuring and styling with them)
    work = _Work(monkeypatch)
    rows_1, wraps_1 = work.of(_markdown(120))
    rows_2, wraps_2 = work.of(_markdown(240))
    assert rows_2 / rows_1 < 2.3, (rows_1, rows_2)
    assert wraps_2 / wraps_1 < 2.3, (wraps_1, wraps_2)


def _whole_table_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """Back to what the FitTable did before: the whole table, split by reportlab itself
    (every page makes a new table of all the rows left)."""
    build = FitTable._build
    monkeypatch.setattr(FitTable, "_build", lambda self, w, h: build(self, w, 1e9))
    monkeypatch.setattr(markdown_flow._Rows, "rest", lambda self, parts, *_: _spaced(parts))


def _spaced(parts: list) -> list:
    """reportlab's split, but the table's space after it kept under its last rows (the
    split drops it: text after a split table stood on its last line)."""
    parts[-1].spaceAfter = 10
    return parts


@pytest.mark.parametrize(
    ("rows", "before", "pagesize"),
    [(7, 0, A4), (40, 3, A4), (140, 1, letter), (220, 6, A4), (90, 11, letter)],
)
def test_pages_are_reportlabs_split_of_the_whole_table_byte_for_byte(
    monkeypatch, rows: int, before: int, pagesize: tuple[float, float]
) -> None:
    markdown = _markdown(rows, before)
    sheet = make_sheet("en")
    bare = [[Cell(f"bare {i} " + "word " * (i % 9), f"bare {i}")] for i in range(60)]
    ours = _pdf(markdown, pagesize, [FitTable(bare, sheet, header=False)])
    with monkeypatch.context() as patched:
        _whole_table_split(patched)
        theirs = _pdf(markdown, pagesize, [FitTable(bare, sheet, header=False)])
    assert hashlib.md5(ours).digest() == hashlib.md5(theirs).digest()


def test_a_split_table_repeats_its_header_and_prints_every_row_once() -> None:
    reader = PdfReader(io.BytesIO(_pdf(_markdown(200))))
    pages = [page.extract_text() for page in reader.pages]
    with_rows = [text for text in pages if re.search(r"\bR\d{3}\b", text)]
    assert len(with_rows) >= 5
    assert all(text.count("Roll") == 1 for text in with_rows)  # the header, once a page
    found = re.findall(r"\bR(\d{3})\b", "\n".join(pages))
    assert found == [f"{i:03d}" for i in range(1, 201)]  # each row once, in order


def test_shading_and_the_accent_line_carry_across_pages(monkeypatch) -> None:
    drawn: list[tuple[list[str], list[int], int]] = []  # per page: rows, shaded rows, accents
    draw = Table.draw

    def record(table: Table) -> None:
        rows = []
        for row in table._cellvalues:  # type: ignore[attr-defined]
            cell = row[0][0] if isinstance(row[0], (list, tuple)) else row[0]
            rows.append(re.sub(r"<[^>]+>", "", getattr(cell, "text", "")))
        shaded = [c[1][1] for c in table._bkgrndcmds[1:]]  # type: ignore[attr-defined]
        accents = sum(1 for c in table._linecmds if c[3] == 0.8)  # type: ignore[attr-defined]
        drawn.append((rows, shaded, accents))
        draw(table)

    monkeypatch.setattr(Table, "draw", record)
    _pdf(_markdown(200))
    assert len(drawn) >= 5
    assert [accents for *_, accents in drawn] == [0] * (len(drawn) - 1) + [1]
    body = []
    for rows, shaded, _ in drawn:
        assert rows[0] == "Roll"
        for index, name in enumerate(rows[1:], start=1):
            number = int(name.lstrip("R"))
            body.append(number)
            assert (index in shaded) == (number % 2 == 0), (name, index, shaded)
    assert body == list(range(1, 201))
