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


TEXT: dict[str, dict[str, str]] = {
    "en": {
        "front_title": "Duplex calibration · front",
        "back_title": "Duplex calibration · back",
        "front": (
            "Print this page and the next one double-sided, flipping on the long edge, at "
            "100\u00a0% (no “fit to page”), from the tray you will print cards from. Then turn "
            "to the back."
        ),
        "back": (
            "Hold the sheet against a light, this side facing you. Each thin line printed on "
            "the front shows through across a scale: the number it crosses is the offset in mm "
            "(ticks every 0.5\u00a0mm). X is the horizontal scale, Y the vertical one. Then "
            "print with `playset build --back-offset X,Y`, or save it once: `playset calibrate "
            "--save NAME X,Y` and `playset build --printer NAME`. Tick the box at the edge "
            "that went into the printer first: an offset holds for that feed direction and "
            "tray. If a letter seen through the paper differs from the one printed beside it, "
            "choose “flip on long edge”."
        ),
        "fed": "fed first",
        "x_axis": "X (mm): + moves the backs right",
        "y_axis": "Y (mm): + moves the backs up",
        "ruler": "This bar measures 100\u00a0mm when printed at 100\u00a0% ({paper} paper).",
        "checking": "Printed with back offset {x},{y}\u00a0mm: check for 0,0.",
    },
    "fr": {
        "front_title": "Calibrage recto verso · recto",
        "back_title": "Calibrage recto verso · verso",
        "front": (
            "Imprimez cette page et la suivante en recto verso, reliure sur le bord long, à "
            "100\u00a0% (sans «\u00a0ajuster à la page\u00a0»), depuis le bac qui servira aux "
            "cartes. Puis retournez la feuille."
        ),
        "back": (
            "Tenez la feuille devant une lumière, cette face vers vous. Chaque trait fin du recto "
            "apparaît par transparence sur une règle\u00a0: le nombre qu’il croise est le "
            "décalage en mm (graduations tous les 0,5\u00a0mm). X est la règle horizontale, Y "
            "la verticale. Imprimez ensuite avec `playset build --back-offset X,Y`, ou "
            "enregistrez-le une fois\u00a0: `playset calibrate --save NOM X,Y` puis `playset "
            "build --printer NOM`. Cochez la case du bord entré le premier dans l’imprimante\u00a0"
            ": un décalage vaut pour ce sens et ce bac. Si une lettre vue par transparence "
            "diffère de celle imprimée à côté, choisissez «\u00a0retourner sur le bord "
            "long\u00a0»."
        ),
        "fed": "entré en premier",
        "x_axis": "X (mm)\u00a0: + décale les versos à droite",
        "y_axis": "Y (mm)\u00a0: + décale les versos vers le haut",
        "ruler": (
            "Cette barre mesure 100\u00a0mm si l’impression est à 100\u00a0% (papier {paper})."
        ),
        "checking": "Imprimé avec le décalage {x},{y}\u00a0mm\u00a0: vérifiez 0,0.",
    },
    "es": {
        "front_title": "Calibración a doble cara · anverso",
        "back_title": "Calibración a doble cara · reverso",
        "front": (
            "Imprime esta página y la siguiente a doble cara, volteando por el borde largo, al "
            "100\u00a0% (sin «ajustar a la página»), desde la bandeja que usarás para las "
            "cartas. Después da la vuelta a la hoja."
        ),
        "back": (
            "Sostén la hoja a contraluz, con esta cara hacia ti. Cada línea fina del anverso se "
            "ve a través del papel sobre una regla: el número que cruza es el desplazamiento en "
            "mm (marcas cada 0,5\u00a0mm). X es la regla horizontal, Y la vertical. Imprime "
            "luego con `playset build --back-offset X,Y`, o guárdalo una vez: `playset "
            "calibrate --save NOMBRE X,Y` y `playset build --printer NOMBRE`. Marca la casilla "
            "del borde que entró primero en la impresora: el desplazamiento vale para ese "
            "sentido y esa bandeja. Si una letra vista a contraluz no coincide con la impresa "
            "al lado, elige «voltear por el borde largo»."
        ),
        "fed": "entró primero",
        "x_axis": "X (mm): + desplaza los reversos a la derecha",
        "y_axis": "Y (mm): + desplaza los reversos hacia arriba",
        "ruler": "Esta barra mide 100\u00a0mm si se imprime al 100\u00a0% (papel {paper}).",
        "checking": "Impreso con desplazamiento {x},{y}\u00a0mm: comprueba 0,0.",
    },
}
LANGS = tuple(TEXT)


def calibration_pdf(
    paper: str = "a4", back_offset: tuple[float, float] = (0.0, 0.0), lang: str = "en"
) -> bytes:
    """The two-page calibration sheet in `lang`; `back_offset` (mm) shifts the back as `build`
    does, to check a saved offset (the lines then cross both zeros)."""
    page = PAPERS[paper]
    marks = Marks(*page)
    words = TEXT[lang]
    with pdf_canvas(page, words["front_title"].split(" · ")[0]) as (c, buffer):
        _front(c, marks, paper, words, lang)
        c.showPage()
        c.saveState()
        c.translate(back_offset[0] * mm, back_offset[1] * mm)
        _back(c, marks, back_offset, words, lang)
        c.restoreState()
        c.showPage()
        c.save()
        return buffer.getvalue()


def _paragraph(
    c: Canvas, text: str, x: float, top: float, width: float, size: float, lang: str
) -> float:
    c.setFont(font_name("regular"), size)
    y = top
    for line in wrap(text, width, size, "regular", lang) or [text]:
        c.drawString(x, y, line)
        y -= size * 1.35
    return y


def _heading(c: Canvas, marks: Marks, text: str) -> float:
    c.setFillColorRGB(*INK)
    c.setFont(font_name("bold"), 14)
    c.drawString(20 * mm, marks.page_h - 25 * mm, text)
    return marks.page_h - 33 * mm


def _edges(c: Canvas, marks: Marks, letters: str, fed: str | None) -> None:
    """A letter at the top, right, bottom and left edges, in that order (and on the back a
    box to tick beside each)."""
    w, h = marks.page_w, marks.page_h
    inset = 12 * mm
    spots = [(w / 2, h - inset), (w - inset, h / 2), (w / 2, inset), (inset, h / 2)]
    c.setFillColorRGB(*INK)
    for letter, (x, y) in zip(letters, spots, strict=True):
        c.setFont(font_name("bold"), 16)
        c.drawCentredString(x, y - 5.5, letter)
        if fed:
            c.setLineWidth(0.6)
            c.setStrokeColorRGB(*INK)
            side = 3.5 * mm
            c.rect(x - side / 2, y - 5.5 - side - 3 * mm, side, side, stroke=1, fill=0)
            c.setFont(font_name("regular"), 6)
            c.drawCentredString(x, y - 5.5 - side - 6 * mm, fed)


def _front(c: Canvas, marks: Marks, paper: str, words: dict[str, str], lang: str) -> None:
    y = _heading(c, marks, words["front_title"])
    c.setFillColorRGB(*INK)
    _paragraph(c, words["front"], 20 * mm, y, marks.page_w - 40 * mm, 9, lang)
    _edges(c, marks, "ABCD", None)
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
    label = paper.upper() if paper.startswith("a") else paper.capitalize()
    _ruler(c, marks, words["ruler"].format(paper=label))


def _ruler(c: Canvas, marks: Marks, note: str) -> None:
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
    c.drawCentredString(marks.page_w / 2, y - 4 * mm, note)


def _back(
    c: Canvas, marks: Marks, back_offset: tuple[float, float], words: dict[str, str], lang: str
) -> None:
    y = _heading(c, marks, words["back_title"])
    c.setFillColorRGB(*INK)
    y = _paragraph(c, words["back"], 20 * mm, y, marks.page_w - 40 * mm, 9, lang)
    if back_offset != (0.0, 0.0):
        c.setFont(font_name("bold"), 9)
        dx, dy = back_offset  # in the command line's own syntax, as typed
        c.drawString(20 * mm, y - 2, words["checking"].format(x=f"{dx:g}", y=f"{dy:g}"))
    # After a long-edge flip the front's top (A) is behind the back's top, its right edge (B)
    # behind the back's left edge: letters listed top, right, bottom, left.
    _edges(c, marks, "ADCB", words["fed"])
    _scale(c, *marks.x_zero, words["x_axis"], horizontal=True)
    _scale(c, *marks.y_zero, words["y_axis"], horizontal=False)


def _scale(c: Canvas, x0: float, y0: float, caption: str, horizontal: bool) -> None:
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
        c.drawString(x0 + span + 3 * mm, y0 - 2.5, caption)
    else:
        c.drawString(x0 + 8 * mm, y0 + span + 2 * mm, caption)
