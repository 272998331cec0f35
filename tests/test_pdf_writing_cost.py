"""Writing a PDF and drawing its text spend no work whose result the file never holds: the
same bytes, less to compute (a 100-card build writes ~70,000 strings and ~700 lines)."""

from __future__ import annotations

import pytest
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from tests.conftest import FIXTURES
from toolkit.content.game import load_game
from toolkit.content.models.deck import size_mm
from toolkit.render import layout as layouts
from toolkit.render import pdf
from toolkit.render.elements import text as text_kind
from toolkit.render.printjob import PrintJob


def _codec(value: object) -> object:
    """reportlab's own pdfdocEnc."""
    return value.encode("extpdfdoc") if isinstance(value, str) else value


def test_strings_of_a_pdf_are_encoded_as_reportlab_encodes_them() -> None:
    """ASCII goes out as ASCII, without reportlab's per-character codec table; every other
    string (the codes PDFDocEncoding maps elsewhere, accents, anything past it) gives what
    the codec gives, its error included."""
    assert pdfdoc.pdfdocEnc is pdf._pdfdoc_encoded  # the writer's own functions use it
    samples = ["", "BT /F1+0 9 Tf 1 0 0 1 12.5 40 Tm (Carte 3) Tj ET", "é à", "\u20ac\u2022"]
    samples += [chr(code) for code in range(256)] + ["x" * 5000 + "\x7f", b"\x00bytes", 12]
    for sample in samples:
        try:
            expected = _codec(sample)
        except UnicodeEncodeError:
            with pytest.raises(UnicodeEncodeError):
                pdf._pdfdoc_encoded(sample)
            continue
        assert pdf._pdfdoc_encoded(sample) == expected, repr(sample)


def test_a_left_aligned_text_is_drawn_without_measuring_its_lines(monkeypatch) -> None:
    """A left-aligned line starts at its box's edge: neither its width nor the width
    reportlab's `textOut` works out for a cursor nobody reads is computed; the page holds
    the same text operators."""
    game = load_game(FIXTURES / "base")
    deck = next(d.model for d in game.decks if d.model is not None)
    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    job = PrintJob(game, deck, standard, None, "fr", size_mm(deck.size))
    items = [
        item
        for item in job.resolved(standard, deck.cards[0])
        if isinstance(item.element, text_kind.TextElement) and item.text
    ]
    left = [item for item in items if item.element.align == "left"]
    assert left

    def drawn(item: text_kind.Resolved) -> str:
        canvas = Canvas("unused.pdf", invariant=1)
        item.element.draw(canvas, item, 10.0, 20.0, job)
        return "\n".join(canvas._code)  # type: ignore[attr-defined]

    before = [drawn(item) for item in left]
    widths: list[str] = []
    monkeypatch.setattr(text_kind, "_line_width", lambda line, *a: widths.append(line) or 0.0)
    monkeypatch.setattr(text_kind, "stringWidth", lambda part, *a: widths.append(part) or 0.0)
    cursor: list[str] = []
    real_width = Canvas.stringWidth
    monkeypatch.setattr(
        Canvas, "stringWidth", lambda self, *a: cursor.append(a[0]) or real_width(self, *a)
    )
    assert [drawn(item) for item in left] == before
    assert widths == [] and cursor == []
