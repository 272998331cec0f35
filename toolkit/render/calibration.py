"""The duplex calibration sheet: measure how far a printer shifts the back of a sheet.

The front carries two thin target lines; the back, behind each, a millimetre scale (ticks
every 0.5 mm, numbered every 1 mm). Printed double-sided (flip on the long edge) and held
against a light, each line shows through on its scale: the number it crosses is the offset
to give `playset build --back-offset X,Y`. The scale is numbered so the reading *is* the
correction: a back printed 2 mm too far left shows its front line at +2, and shifting the
backs 2 mm right puts the scale's zero under the line.

Edge letters tell how the sheet went through: each front edge has a letter, the same letter
sits behind it on the back when the printer flips on the long edge, and a box at each edge of
the back records which edge entered the printer first (an offset holds for one feed direction
and tray). A 100 mm bar checks that the sheet was printed at 100 %.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.render.fonts import font_name, text_width
from toolkit.render.pdf import PAPERS, pdf_canvas
from toolkit.render.textfit import wrap

SCALE_MM = 8.0  # each scale reads from -8 to +8 mm
STEP_MM = 0.5
TARGET_MM = 30.0  # length of a front target line: it sticks out past the ticks
GAP_MM = 40.0  # targets sit this far above (X) and below (Y) the middle of the page
INK = (0.1, 0.1, 0.1)
TARGET = (0.0, 0.0, 0.0)
GREY = (0.45, 0.45, 0.45)


@dataclass(frozen=True)
class Marks:
    """Where the targets and scales go (points; each page's own coordinates)."""

    page_w: float
    page_h: float

    @property
    def x_target(self) -> tuple[float, float]:
        """Front: the vertical line read on the X scale, as (x, y of its middle)."""
        return self.page_w / 2, self.page_h / 2 + GAP_MM * mm

    @property
    def y_target(self) -> tuple[float, float]:
        """Front: the horizontal line read on the Y scale, as (x of its middle, y)."""
        return self.page_w / 2, self.page_h / 2 - GAP_MM * mm

    def behind(self, x: float, y: float) -> tuple[float, float]:
        """The back-page point behind front point (x, y) after a long-edge flip."""
        return self.page_w - x, y

    @property
    def x_zero(self) -> tuple[float, float]:
        """Back: the X scale's zero, behind the X target."""
        return self.behind(*self.x_target)

    @property
    def y_zero(self) -> tuple[float, float]:
        """Back: the Y scale's zero, behind the Y target."""
        return self.behind(*self.y_target)


def ticks() -> list[float]:
    """Scale values in mm, -8.0 … +8.0 by 0.5."""
    n = round(SCALE_MM / STEP_MM)
    return [i * STEP_MM for i in range(-n, n + 1)]


def label(value: float) -> str:
    if value == 0:
        return "0"
    sign = "+" if value > 0 else "\u2212"
    return f"{sign}{abs(value):g}"


FRONT_TEXT = (
    "Print this page and the next one double-sided, flipping on the long edge, at 100 % "
    "(no “fit to page”), from the tray you will print cards from. Then turn to the back."
)
BACK_TEXT = (
    "Hold the sheet against a light, this side facing you. Each thin line printed on the front "
    "shows through across a scale: the number it crosses is the offset in mm (ticks every "
    "0.5 mm). X is the horizontal scale, Y the vertical one. Then print with "
    "`playset build --back-offset X,Y`, or save it once: `playset calibrate --save NAME X,Y` "
    "and `playset build --printer NAME`. Tick the box at the edge that went into the printer "
    "first: an offset holds for that feed direction and tray. If a letter seen through the "
    "paper differs from the one printed beside it, choose “flip on long edge”."
)


def calibration_pdf(paper: str = "a4", back_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The two-page calibration sheet; `back_offset` (mm) shifts the back as `build` does, to
    check a saved offset (the lines then cross both zeros)."""
    page = PAPERS[paper]
    marks = Marks(*page)
    with pdf_canvas(page, "Playset duplex calibration") as (c, buffer):
        _front(c, marks, paper)
        c.showPage()
        c.saveState()
        c.translate(back_offset[0] * mm, back_offset[1] * mm)
        _back(c, marks, back_offset)
        c.restoreState()
        c.showPage()
        c.save()
        return buffer.getvalue()


def _paragraph(c: Canvas, text: str, x: float, top: float, width: float, size: float) -> float:
    c.setFont(font_name("regular"), size)
    y = top
    for line in wrap(text, width, size, "regular", "en") or [text]:
        c.drawString(x, y, line)
        y -= size * 1.35
    return y


def _heading(c: Canvas, marks: Marks, text: str) -> float:
    c.setFillColorRGB(*INK)
    c.setFont(font_name("bold"), 14)
    c.drawString(20 * mm, marks.page_h - 25 * mm, text)
    return marks.page_h - 33 * mm


def _edges(c: Canvas, marks: Marks, letters: str, boxes: bool) -> None:
    """A letter at the top, right, bottom and left edges, in that order (and on the back a
    box to tick beside each)."""
    w, h = marks.page_w, marks.page_h
    inset = 12 * mm
    spots = [(w / 2, h - inset), (w - inset, h / 2), (w / 2, inset), (inset, h / 2)]
    c.setFillColorRGB(*INK)
    for letter, (x, y) in zip(letters, spots, strict=True):
        c.setFont(font_name("bold"), 16)
        c.drawCentredString(x, y - 5.5, letter)
        if boxes:
            c.setLineWidth(0.6)
            c.setStrokeColorRGB(*INK)
            side = 3.5 * mm
            c.rect(x - side / 2, y - 5.5 - side - 3 * mm, side, side, stroke=1, fill=0)
            c.setFont(font_name("regular"), 6)
            c.drawCentredString(x, y - 5.5 - side - 6 * mm, "fed first")


def _front(c: Canvas, marks: Marks, paper: str) -> None:
    y = _heading(c, marks, "Duplex calibration · front")
    c.setFillColorRGB(*INK)
    _paragraph(c, FRONT_TEXT, 20 * mm, y, marks.page_w - 40 * mm, 9)
    _edges(c, marks, "ABCD", boxes=False)
    half = TARGET_MM / 2 * mm
    c.setStrokeColorRGB(*TARGET)
    c.setLineWidth(0.5)
    x, y = marks.x_target
    c.line(x, y - half, x, y + half)
    x, y = marks.y_target
    c.line(x - half, y, x + half, y)
    c.setFillColorRGB(*GREY)
    c.setFont(font_name("regular"), 7)
    c.drawString(marks.x_target[0] + 3 * mm, marks.x_target[1] + half - 3 * mm, "X")
    c.drawString(marks.y_target[0] + half - 2 * mm, marks.y_target[1] + 2 * mm, "Y")
    _ruler(c, marks, paper)


def _ruler(c: Canvas, marks: Marks, paper: str) -> None:
    """A 100 mm bar: a sheet printed at another scale shows it at once."""
    x0, y = (marks.page_w - 100 * mm) / 2, 32 * mm
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.5)
    c.line(x0, y, x0 + 100 * mm, y)
    for i in range(11):
        tick = (3 if i % 5 else 5) * mm
        c.line(x0 + i * 10 * mm, y, x0 + i * 10 * mm, y + tick)
    c.setFillColorRGB(*INK)
    c.setFont(font_name("regular"), 7)
    note = f"This bar measures 100 mm when printed at 100 % ({paper.upper()} paper)."
    c.drawCentredString(marks.page_w / 2, y - 4 * mm, note)


def _back(c: Canvas, marks: Marks, back_offset: tuple[float, float]) -> None:
    y = _heading(c, marks, "Duplex calibration · back")
    c.setFillColorRGB(*INK)
    y = _paragraph(c, BACK_TEXT, 20 * mm, y, marks.page_w - 40 * mm, 9)
    if back_offset != (0.0, 0.0):
        c.setFont(font_name("bold"), 9)
        dx, dy = back_offset
        c.drawString(20 * mm, y - 2, f"Printed with back offset {dx:g},{dy:g} mm: check for 0,0.")
    # After a long-edge flip the front's top (A) is behind the back's top, its right edge (B)
    # behind the back's left edge: letters listed top, right, bottom, left.
    _edges(c, marks, "ADCB", boxes=True)
    _scale(c, *marks.x_zero, horizontal=True)
    _scale(c, *marks.y_zero, horizontal=False)


def _scale(c: Canvas, x0: float, y0: float, horizontal: bool) -> None:
    """Ticks across the axis through (x0, y0): 0.5 mm short, 1 mm long, 0 longest; numbers
    every 1 mm, alternately on either side so they stay legible."""
    c.setStrokeColorRGB(*INK)
    c.setFillColorRGB(*INK)
    span = SCALE_MM * mm
    c.setLineWidth(0.3)
    if horizontal:
        c.line(x0 - span, y0, x0 + span, y0)
    else:
        c.line(x0, y0 - span, x0, y0 + span)
    size = 4.5
    for value in ticks():
        at = value * mm
        whole = value == int(value)
        half_len = (5.0 if value == 0 else 2.5 if whole else 1.2) * mm
        c.setLineWidth(0.45 if value == 0 else 0.2)
        if horizontal:
            c.line(x0 + at, y0 - half_len, x0 + at, y0 + half_len)
        else:
            c.line(x0 - half_len, y0 + at, x0 + half_len, y0 + at)
        if not whole:
            continue
        text = label(value)
        style = "bold" if value == 0 else "regular"
        c.setFont(font_name(style), size)
        side = 1 if int(value) % 2 else -1
        if horizontal:
            ty = y0 + side * (half_len + 1 * mm) - (0 if side > 0 else size * 0.75)
            c.drawCentredString(x0 + at, ty, text)
        else:
            width = text_width(text, size, style)
            tx = x0 + side * (half_len + 1 * mm) - (0 if side > 0 else width)
            c.drawString(tx, y0 + at - size * 0.35, text)
    c.setFont(font_name("bold"), 7)
    if horizontal:
        c.drawString(x0 + span + 3 * mm, y0 - 2.5, "X (mm): + moves the backs right")
    else:
        c.drawString(x0 + 8 * mm, y0 + span + 2 * mm, "Y (mm): + moves the backs up")
