"""`text`: a template's text, wrapped, hyphenated (fr, es) and shrunk between two sizes to fit
its box, with inline icons (`:die:`) on the line. It is measured for print fit in every
language (P001) unless `fit: false`, with the very fit it is drawn with, so what `validate`
accepts is what prints; content text never goes through reportlab markup."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from toolkit.content.models.base import FontFamily, StrictModel
from toolkit.content.templating import INLINE_ICON
from toolkit.render.elements.base import Colour, Element, Ink, Measure, Resolved, colour
from toolkit.render.elements.registry import register_element
from toolkit.render.fonts import font_name, text_width
from toolkit.render.icons import draw_icon, inline_allowed, without_icons
from toolkit.render.textfit import LEADING, Fit, Setting, fit

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.printjob import PrintJob


class Sizes(StrictModel):
    max: float = Field(ge=3, le=96)
    min: float = Field(ge=3, le=96)


@register_element
class TextElement(Element):
    """A block of text that fits its box."""

    order: ClassVar[int] = 20
    draw_cost: ClassVar[int] = 6
    """~18 µs for a line, ~70 µs for a paragraph of ten filling the card (fitted, then drawn
    line by line): 100 one-line texts of ~45 characters on each of 1,000 printed cards took
    `build --lang en` 1.8 s more than one, 20 paragraphs of ~455 characters 1.4 s. A text is
    weighed by what it prints (`drawn_cost`), or at most by what its box holds
    (`most_drawn_cost`): this is a paragraph's, for a kind that asks."""

    kind: Literal["text"]
    text: str = Field(description="Jinja template, e.g. '{{ card.name }}'.")
    style: Literal["regular", "bold", "italic", "bolditalic"] = "regular"
    font: FontFamily | None = Field(
        default=None,
        description="Font family, as its file names itself: one of the game's `fonts/`, or "
        "`Noto Sans` (default: game.yaml's `style.font`, else Noto Sans).",
        examples=["Noto Sans"],
    )
    size: Sizes
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: Colour = "#222222"
    fit: bool = Field(default=True, description="Checked for print fit in every language.")

    templates = ("text",)
    prints = ("text",)
    draws_inline_icons = True

    def icons_drawn(self, item: Resolved, names: frozenset[str]) -> list[tuple[str, float]]:
        text = item.text
        if ":" not in text:
            return []
        side = self.size.max * 0.9  # as `draw` sets them, at the largest size it may take
        return [(m.group(1), side) for m in INLINE_ICON.finditer(text) if m.group(1) in names]

    def glyphs_drawn(self, item: Resolved, job: PrintJob) -> list[tuple[str, float, str]]:
        if not item.text:
            return []
        found = fit(item.text, item.w * mm, item.h * mm, self.setting(job))  # as drawn
        font = font_name(self.face(job))
        return [
            (font, found.size, line) for line, _ in _shown(found, 0.0, item.h * mm, self.valign)
        ]

    def setting(self, job: PrintJob) -> Setting:
        """How this element sets text in the job's language and with the game's icons: made
        once per job (every card's text of this element is set alike)."""
        kept = job.settings.get(id(self))
        # the element is kept with its setting: an id is never taken by another object
        if kept is not None and kept[0] is self:
            return kept[1]
        found = Setting(self.size.max, self.size.min, self.face(job), job.lang, job.icons.names)
        job.settings[id(self)] = (self, found)
        return found

    def font_asked(self) -> tuple[str | None, str]:
        return self.font, self.style

    def letters(self, text: str, icons: frozenset[str]) -> str:
        return without_icons(text, icons)  # as `_segments` draws them

    def fitted(self, item: Resolved, job: PrintJob) -> Fit | None:
        """The text's fit, or None once the job's check has spent its fitting budget."""
        budget = job.budget
        if budget is not None and not budget.allows():
            return None
        found = fit(item.text, item.w * mm, item.h * mm, self.setting(job))
        return found if budget is None else budget.counted(found)

    def measure(self, item: Resolved, job: PrintJob) -> Measure | None:
        if not item.text:
            return None
        found = self.fitted(item, job)  # `fit: false` too: the build fits what it draws
        if not self.fit or found is None:
            return None
        return Measure(found, self.text, self.size.min)

    def inks(self, item: Resolved, job: PrintJob) -> Iterator[Ink]:
        found = self.fitted(item, job) if item.text else None
        if found is not None:
            bold = self.style in ("bold", "bolditalic")
            yield Ink(self.colour, item.x, item.y, item.w, item.h, found.size, bold)

    def capacity(self, item: Resolved) -> int | None:
        size = self.size.min
        sample = item.text or "n"
        average = text_width(sample, size, self.style) / max(1, len(sample))
        lines = int(item.h * mm // (size * LEADING))
        return int(lines * (item.w * mm / average) * 0.92)

    def drawn_cost(self, item: Resolved) -> int:
        """Nothing for an empty text (not drawn), 2 for a line, one more each 80 characters
        (`draw_cost`'s measures: ~45 characters 2, ~455 characters 7)."""
        return 2 + len(item.text) // 80 if item.text else 0

    def most_drawn_cost(self, card_mm: tuple[float, float]) -> int:
        """Its box full at its smallest size (`capacity`): a text that fits holds no more."""
        box = self.box.resolve(*card_mm)
        return 2 + max(0, self.capacity(Resolved(self, *box)) or 0) // 80

    def draw(self, c: Canvas, item: Resolved, x: float, y: float, job: PrintJob) -> None:
        if not item.text:
            return

        w, h = item.w * mm, item.h * mm
        names = job.icons.names
        found = fit(item.text, w, h, self.setting(job))  # drawn: never refused
        size = found.size
        c.saveState()
        if not found.fits:  # an overflowing text (a P001 finding) stays inside its box
            path = c.beginPath()
            path.rect(x - 1, y - 1, w + 2, h + 2)
            c.clipPath(path, stroke=0, fill=0)
        c.setFillColor(colour(self.colour))
        face = self.face(job)
        font = font_name(face)
        writer = c.beginText()
        writer.setFont(font, size)
        placed: list[tuple[str, float, float]] = []
        align = self.align
        for line, baseline in _shown(found, y, h, self.valign):
            start = x  # a left-aligned line starts at the box's edge: its width is not asked
            if align != "left":
                width = _line_width(line, size, face, names)
                start = x + (w - width) / 2 if align == "center" else x + w - width
            _place_line(writer, placed, line, start, baseline, font, size, names)
        c.drawText(writer)
        for icon, left, baseline in placed[: inline_allowed(c, len(placed))]:
            draw_icon(c, icon, left, baseline - size * 0.12, size * 0.9, self.colour, job.icons)
        c.restoreState()


def _shown(found: Fit, y: float, h: float, valign: str) -> list[tuple[str, float]]:
    """The lines of a fitted text its box (its foot at `y`, `h` high, in points) shows, each
    with its baseline: every line of a text that fits; of an overflowing one
    (a P001 finding, clipped to its box) only those the box shows, as a rasteriser would
    walk each glyph of the others (80 cards of 3,900 letters: probe 60-15)."""
    size, lines = found.size, found.lines
    line_h = size * LEADING
    block = len(lines) * line_h
    if valign == "middle":
        first = y + (h + block) / 2 - size
    elif valign == "bottom":
        first = y + block - size + (line_h - size) * 0.5
    else:
        first = y + h - size
    top, bottom = y + h + size, y - line_h  # the lines a clipped box may show
    shown = []
    for index, line in enumerate(lines):
        baseline = first - index * line_h
        if not found.fits and not bottom < baseline < top:
            if baseline <= bottom:
                break  # the rest lies below the box
            continue
        shown.append((line, baseline))
    return shown


def _segments(line: str, names: frozenset[str]) -> list[tuple[str, bool]]:
    """A line cut into plain text and the inline icons the game has (`:die:`)."""
    if ":" not in line:
        return [(line, False)] if line else []
    out: list[tuple[str, bool]] = []
    last = 0
    for match in INLINE_ICON.finditer(line):
        if match.group(1) in names:
            out.append((line[last : match.start()], False))
            out.append((match.group(1), True))
            last = match.end()
    out.append((line[last:], False))
    return [s for s in out if s[0]]


def _line_width(line: str, size: float, style: str, names: frozenset[str]) -> float:
    parts = _segments(line, names)
    return sum(size if icon else text_width(part, size, style, names) for part, icon in parts)


def _place_line(
    writer: Any,
    icons: list[tuple[str, float, float]],
    line: str,
    x: float,
    baseline: float,
    font: str,
    size: float,
    names: frozenset[str],
) -> None:
    """Put a line's text in the element's one text object (one BT…ET per element, not per
    line); its inline icons are noted, to be drawn over it as vector shapes.

    Each piece of text is placed at its own origin (`setTextOrigin`), so the text object's
    cursor after it is never read: the piece is written as `textOut` writes it without the
    width `textOut` works out to move that cursor (`_textOut`), and a piece's own width is
    asked only when another piece follows it."""
    parts = _segments(line, names)
    last = len(parts) - 1
    for index, (part, icon) in enumerate(parts):
        if icon:
            icons.append((part, x, baseline))
            x += size
        else:
            writer.setTextOrigin(x, baseline)
            writer._textOut(part)
            if index < last:
                x += stringWidth(part, font, size)
