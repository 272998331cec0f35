"""A sheet's crop marks are the same on every page: worked out for the first page of a file,
written again as they are on the others, the same operators and the same canvas state."""

from __future__ import annotations

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from toolkit.render import sheets


def _marks(c: Canvas, geo: sheets.Geometry) -> list[str]:
    code: list[str] = c._code  # type: ignore[attr-defined]
    start = len(code)
    sheets.draw_crop_marks(c, geo)
    return code[start:]


def test_crop_marks_are_worked_out_once_a_file_and_written_alike(monkeypatch) -> None:
    poker, mini = sheets.geometry(A4, (63.0, 88.0)), sheets.geometry(LETTER, (41.0, 63.0))
    fresh = {geo: _marks(Canvas("unused.pdf", invariant=1), geo) for geo in (poker, mini)}
    worked: list[sheets.Geometry] = []
    real = sheets._crop_marks
    monkeypatch.setattr(sheets, "_crop_marks", lambda c, geo: worked.append(geo) or real(c, geo))
    c = Canvas("unused.pdf", invariant=1)
    c.setLineWidth(3)
    c.setStrokeColorRGB(1, 0, 0)
    pages = []
    for geo in (poker, poker, mini, poker, mini):
        pages.append(_marks(c, geo))
        assert (c._lineWidth, c._strokeColorObj) == (3, (1, 0, 0))  # type: ignore[attr-defined]
    assert pages == [fresh[poker], fresh[poker], fresh[mini], fresh[poker], fresh[mini]]
    assert pages[0][0] == "q" and pages[0][-1] == "Q" and len(pages[0]) > 4
    assert worked == [poker, mini]  # once a geometry on this canvas
    other = Canvas("unused.pdf", invariant=1)
    assert _marks(other, poker) == fresh[poker] and worked == [poker, mini, poker]
