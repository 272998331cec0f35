"""Embedded font subsets carry distinct tags (ISO 32000 9.6.4), the same for the same content."""

from __future__ import annotations

import io
import re

from reportlab.pdfgen.canvas import Canvas

from toolkit.render.fonts import font_name


def _page(words: str) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1)
    for row, style in enumerate(("regular", "bold", "italic")):
        canvas.setFont(font_name(style), 12)
        canvas.drawString(72, 700 - 20 * row, words)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_each_font_subset_has_its_own_tag_and_the_same_one_each_time():
    pdf = _page("Harbour Market")
    tags = re.findall(rb"/BaseFont /([A-Z]{6})\+NotoSans", pdf)
    assert len(tags) == 3 and len(set(tags)) == 3, tags
    assert _page("Harbour Market") == pdf  # deterministic
