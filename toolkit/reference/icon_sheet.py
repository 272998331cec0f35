"""An icon sheet: every built-in icon drawn large with its name, in a grid, for designers
choosing one (and for us, checking how each one looks)."""

from __future__ import annotations

from reportlab.lib.units import mm

from toolkit.render.fonts import font_name, text_width
from toolkit.render.icons import ICONS, draw_icon
from toolkit.render.pdf import pdf_canvas

CELL_W, CELL_H = 36 * mm, 34 * mm
ICON = 16 * mm
MARGIN = 14 * mm
INK = "#222222"


def icon_sheet(pagesize: tuple[float, float]) -> bytes:
    """A PDF of every icon in `ICONS`, sorted by name, as many pages as they need."""
    width, height = pagesize
    columns = max(1, int((width - 2 * MARGIN) // CELL_W))
    rows = max(1, int((height - 2 * MARGIN - 12 * mm) // CELL_H))
    names = sorted(ICONS)
    per_page = columns * rows
    left = (width - columns * CELL_W) / 2
    with pdf_canvas(pagesize, "Playset icons") as (canvas, buffer):
        for start in range(0, len(names), per_page):
            canvas.setFont(font_name("bold"), 14)
            canvas.setFillColor(INK)
            canvas.drawString(left, height - MARGIN - 5 * mm, f"Playset icons ({len(names)})")
            top = height - MARGIN - 12 * mm
            for index, name in enumerate(names[start : start + per_page]):
                row, column = divmod(index, columns)
                x = left + column * CELL_W
                y = top - (row + 1) * CELL_H
                canvas.setStrokeColor("#cccccc")
                canvas.setLineWidth(0.4)
                canvas.rect(x, y, CELL_W, CELL_H, stroke=1, fill=0)
                draw_icon(canvas, name, x + (CELL_W - ICON) / 2, y + 12 * mm, ICON, INK)
                label = f":{name}:"
                size = 9.0
                while size > 5 and text_width(label, size) > CELL_W - 3 * mm:
                    size -= 0.5
                canvas.setFont(font_name("regular"), size)
                canvas.setFillColor(INK)
                canvas.drawCentredString(x + CELL_W / 2, y + 5 * mm, label)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()
