"""probe 53's Low findings L1, L3 and L4, each test red before its fix."""

from __future__ import annotations

import io
import re
from pathlib import Path

from pypdf import PdfReader

from toolkit.content.game import load_game
from toolkit.render.code_lines import broken_lines
from toolkit.render.markdown_flow import Note, make_sheet, markdown_flowables
from toolkit.render.rulebook import render_rulebook
from toolkit.scaffold.new import new_game


def _starter(tmp_path: Path, langs: tuple[str, ...] = ("en",)) -> Path:
    folder = tmp_path / "g"
    new_game(folder, "g", list(langs))
    return folder


def _pdf_words(data: bytes) -> list[str]:
    pdf = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in pdf.pages).split()


def test_a_code_line_wider_than_the_page_is_broken_not_cut(tmp_path):
    # probe 53-L3: a code or <pre> line longer than the page ran past its box and was cut at
    # the page's edge (pdftotext found 42 of these 240 words on the page)
    words = " ".join(f"w{i:03d}" for i in range(120))
    letters = "".join(chr(97 + i % 26) for i in range(300))  # one word wider than the page
    text = f"# T\n\n```\n{words}\n{letters}\n```\n\n> <pre>\n> {words}\n> </pre>\n"
    sheet = make_sheet("en")
    notes = markdown_flowables(text, sheet).flowables
    assert len(notes) == 2
    for note, inside in zip(notes, (430.0, 410.0), strict=True):  # a quote's box in a box
        note.wrap(450.0, 700.0)
        (block,) = [f for f in _flowables(note) if not isinstance(f, Note)]
        assert block.width <= inside, block.width  # was 2,981 points
    game = _starter(tmp_path)
    rulebook = game / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + text[4:], encoding="utf-8")
    printed = _pdf_words(render_rulebook(load_game(game), "en"))
    for i in range(120):
        assert printed.count(f"w{i:03d}") == 2, i
    assert "".join(w for w in printed if re.fullmatch(r"[a-z]{2,}", w)).count(letters) == 1


def _flowables(note) -> list:
    """What a Note's box holds, a quote's Note and what that holds too."""
    found = []
    for f in note.table._cellvalues[0][0]:
        found.append(f)
        if isinstance(f, Note):
            found += _flowables(f)
    return found


def test_broken_lines_fit_and_keep_every_character():
    from toolkit.render.fonts import register

    register()
    text = "short\n" + "ab cd " * 200 + "\n" + "x" * 500 + "\n\nend"
    lines = broken_lines(text, 100.0, "Helvetica", 9)
    assert "".join(lines) == text.replace("\n", "")
    assert lines[0] == "short" and lines[-2:] == ["", "end"]
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert all(stringWidth(line, "Helvetica", 9) <= 100.0 for line in lines)
    assert broken_lines("abc", 0.1, "Helvetica", 9) == ["a", "b", "c"]  # one at least
