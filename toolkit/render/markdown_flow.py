"""Markdown → reportlab Platypus flowables, with the styles and the table the rulebook shares.

markdown-it parses (CommonMark plus pipe tables); each block becomes a flowable. Content text
is escaped before it reaches reportlab's markup, and the French no-break spaces are kept
unbreakable (reportlab itself would break at U+202F).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    ActionFlowable,
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    Spacer,
    Table,
    TableStyle,
)

# reportlab's private helpers and attributes used below are not in types-reportlab
from reportlab.platypus.flowables import _listWrapOn  # type: ignore[attr-defined]
from reportlab.platypus.paragraph import Paragraph as _Paragraph

from toolkit.content.templating import INLINE_ICON
from toolkit.render.code_lines import CodeBlock
from toolkit.render.fonts import stand_ins
from toolkit.render.icons import IconSet, allow_page, draw_icon
from toolkit.render.rulebook_style import Faces, register_faces
from toolkit.render.rulebook_words import BULLETS, HYPHENATION
from toolkit.render.table_fit import (
    BOTTOM,
    CELL_LEADING,
    CELL_SIZE,
    PAD,
    TOP,
    column_bounds,
    fit_widths,
)

INK = colors.HexColor("#23262d")
MUTED = colors.HexColor("#5b606b")
RULE = colors.HexColor("#c9ccd3")
PALETTE = ("#8a2c2c", "#1f5f6b", "#2f3e7a", "#2e5e3a", "#87561b", "#5e2e5e", "#3d4f5c")

# A narrow no-break space drawn as a smaller no-break space: reportlab breaks lines at U+202F
# but never at U+00A0. Noto Sans' narrow space is 64 % of a space: 3.6 pt less at 10 pt.
NARROW_NBSP = '<font size="-3.6">\u00a0</font>'


class Paragraph(_Paragraph):
    """reportlab's Paragraph, its lines broken once per width: a rulebook's paragraph is
    wrapped about three times at the same width (a keep-with-next group measures it, its
    frame measures it again, and `multiBuild` lays the whole book out twice for the
    contents' page numbers), and breaking lines is most of a rulebook's time. The lines
    depend on the width, the style and the fragments only, so a wrap at the width of the
    last one gives back that one's lines instead of breaking them again: the same lines,
    the same PDF."""

    _lines: tuple[Any, ...] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        kept = self._lines
        if (
            kept is not None
            and kept[0] == availWidth
            and kept[1] is self.style
            and kept[2] is self.frags
        ):
            _, _, _, self._wrapWidths, self.blPara, self.height = kept
            self.width = availWidth
            return availWidth, self.height
        size = super().wrap(availWidth, availHeight)
        if hasattr(self, "blPara"):  # not when the width was too narrow to try
            self._lines = (
                availWidth,
                self.style,
                self.frags,
                self._wrapWidths,
                self.blPara,
                self.height,
            )
        return size

    def draw(self) -> None:
        if not getattr(self.canv, "sketch", False):  # see SketchCanvas
            super().draw()


@dataclass(frozen=True)
class Hyphenator:
    """reportlab's `hyphenationLang` as a callable: given a language name, reportlab makes a
    new pyphen.Pyphen (a search of pyphen's languages) for every paragraph it wraps; this
    reads the same dictionary once, on the first word it is asked to split."""

    lang: str

    def __call__(self, word: str) -> Any:
        return _pyphen(self.lang).iterate(word)


def _pyphen(lang: str) -> Any:
    from toolkit.render.hyphenation import dictionary

    return dictionary(lang)  # reportlab's own call (left=2, right=2)


def hyphenator(lang: str) -> Hyphenator | str:
    """The hyphenator of a language reportlab knows ("" for none, as reportlab takes it)."""
    return Hyphenator(lang) if lang else ""


def mix(colour: colors.Color, amount: float) -> colors.Color:
    """`colour` blended with white: `amount` 1 keeps it, 0 gives white (for tints)."""
    return colors.Color(*(1 - amount + amount * c for c in colour.rgb()))


@dataclass
class Sheet:
    """Everything the converter needs to look right: styles, colours, language."""

    lang: str
    accent: colors.Color
    styles: dict[str, ParagraphStyle] = field(default_factory=dict)
    faces: Faces = field(default_factory=Faces)
    icons: IconSet | None = None  # the inline icons (`:die:`) that print as icons

    def markup(self, text: str) -> str:
        """`markup` with this sheet's inline icons."""
        return markup(text, self.icons)

    def __getitem__(self, name: str) -> ParagraphStyle:
        return self.styles[name]

    def font(self, style: str) -> str:
        """The reportlab name of one of its faces (`regular`, `bold`, ..., `heading`)."""
        return self.faces.font(style)


def make_sheet(
    lang: str, accent_hex: str = PALETTE[0], size: float = 10.0, faces: Faces | None = None
) -> Sheet:
    """Paragraph styles for a rulebook in `lang`, in `faces` (default: Noto Sans)."""
    faces = faces or Faces()
    register_faces(faces)
    accent = colors.HexColor(accent_hex)
    regular, bold, heading = faces.font("regular"), faces.font("bold"), faces.font("heading")
    hyph = hyphenator(HYPHENATION.get(lang, ""))
    body = ParagraphStyle(
        "body",
        fontName=regular,
        fontSize=size,
        leading=size * 1.42,
        textColor=INK,
        alignment=TA_JUSTIFY,
        spaceAfter=size * 0.6,
        hyphenationLang=hyph,  # type: ignore[arg-type]  # reportlab takes a callable too
        bulletFontName=regular,
    )

    def derive(name: str, **kw: Any) -> ParagraphStyle:
        return ParagraphStyle(name, parent=body, **kw)

    styles = {
        "body": body,
        "lead": derive("lead", keepWithNext=1),
        "item": derive("item", spaceAfter=size * 0.25),
        "quote": derive("quote", spaceAfter=size * 0.3),
        "code": derive("code", fontSize=size * 0.9, leading=size * 1.25, alignment=TA_LEFT),
        "h2": derive(
            "h2",
            fontName=heading,
            fontSize=size * 1.6,
            leading=size * 2.0,
            textColor=accent,
            alignment=TA_LEFT,
            spaceBefore=size * 1.4,
            spaceAfter=size * 0.9,
            keepWithNext=1,
            hyphenationLang="",
        ),
        "h3": derive(
            "h3",
            fontName=heading,
            fontSize=size * 1.2,
            leading=size * 1.5,
            alignment=TA_LEFT,
            spaceBefore=size * 0.9,
            spaceAfter=size * 0.35,
            keepWithNext=1,
            hyphenationLang="",
        ),
        "h4": derive(
            "h4",
            fontName=bold,
            alignment=TA_LEFT,
            spaceBefore=size * 0.6,
            spaceAfter=size * 0.2,
            keepWithNext=1,
        ),
        "cell": derive(
            "cell",
            fontSize=size * CELL_SIZE,
            leading=size * CELL_LEADING,
            alignment=TA_LEFT,
            spaceAfter=0,
        ),
        "cell_head": derive(
            "cell_head",
            fontName=bold,
            fontSize=size * CELL_SIZE,
            leading=size * CELL_LEADING,
            textColor=colors.white,
            alignment=TA_LEFT,
            spaceAfter=0,
            hyphenationLang="",
        ),
    }
    return Sheet(lang, accent, styles, faces)


# --- inline text ------------------------------------------------------------------------


def markup(text: str, icons: IconSet | None = None) -> str:
    """Plain content text as safe reportlab markup (escaped, no-break spaces kept); with
    `icons`, each `:name:` it has an icon for becomes that icon (see `paragraph`)."""
    for ch, sub in stand_ins().items():
        text = text.replace(ch, sub)
    safe = escape(text).replace("\u202f", NARROW_NBSP)
    if icons is None or ":" not in safe:
        return safe
    return INLINE_ICON.sub(lambda m: _icon_tag(m, icons), safe)


ICON_TAG = "playset_icon"  # an `<onDraw>` name that `paragraph` turns into an inline icon


def _icon_tag(match: re.Match[str], icons: IconSet) -> str:
    name = match.group(1)
    return f'<onDraw name="{ICON_TAG}" label="{name}"/>' if name in icons.names else match[0]


class InlineIcon:
    """An icon on a line of text, one em wide, in the text's colour: reportlab lays it out
    as an inline image, and `IconCanvas` draws it as vectors."""

    def __init__(self, name: str, colour: colors.Color, icons: IconSet) -> None:
        self.name, self.colour, self.icons = name, colour, icons

    def draw(self, canvas: Any, x: float, y: float, size: float) -> None:
        colour = "#" + self.colour.hexval()[2:8]
        draw_icon(canvas, self.name, x, y, size, colour, self.icons)


class IconParagraph(Paragraph):
    """A paragraph whose icon tags (`markup` with icons) are icons sized to their text,
    sitting on the baseline as on a card (toolkit.render.elements.text)."""

    def __init__(self, *args: Any, icons: IconSet | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for frag in self.frags:
            spec = getattr(frag, "cbDefn", None)
            if spec is None or spec.kind != "onDraw" or spec.name != ICON_TAG or icons is None:
                continue
            size = frag.fontSize
            spec.kind = "img"
            spec.width, spec.height, spec.valign = size, 0.9 * size, -0.12 * size
            spec.image = InlineIcon(spec.label, frag.textColor, icons)


def paragraph(text: str, style: ParagraphStyle, icons: IconSet | None = None) -> Paragraph:
    """A Paragraph of `text`, an IconParagraph if it holds icon tags."""
    if icons is not None and ICON_TAG in text:
        return IconParagraph(text, style, icons=icons)
    return Paragraph(text, style)


ICON_ALLOWANCE = 2
"""Card faces' worth of icons (weight and paint: toolkit.render.icons.allow_page) one
rulebook document draws: its prose's and its card reference's, each bounded at validate
(toolkit.checks.rulebook.MAX_RULEBOOK_ICON_WEIGHT), so none is left blank."""


class IconCanvas(Canvas):
    """A canvas that draws an `InlineIcon` where reportlab draws an inline image; the
    document may draw `ICON_ALLOWANCE` card faces' worth of icons (each pass of a
    multi-pass build makes a canvas of its own)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        allow_page(self, ICON_ALLOWANCE)

    def drawImage(self, image: Any, x: float, y: float, *args: Any, **kwargs: Any) -> Any:
        if isinstance(image, InlineIcon):
            width = args[0] if args else kwargs.get("width", 0)
            height = args[1] if len(args) > 1 else kwargs.get("height", width)
            side = min(width, height)
            image.draw(self, x + (width - side) / 2, y, side)  # centred in its em
            return (width, height)
        return super().drawImage(image, x, y, *args, **kwargs)


class SketchSaved(Exception):
    """A sketch was about to be saved as the document (its first pass was its last)."""


class SketchCanvas(IconCanvas):
    """The canvas of a rulebook's first pass, which only finds the pages its headings fall
    on for the contents (the second pass draws the book): on it, paragraphs take their
    place without drawing their text, about a tenth of a rulebook's time. Saving it raises
    SketchSaved, so a sketch never becomes the PDF."""

    sketch = True

    def save(self) -> None:
        raise SketchSaved


def inline_markup(node: SyntaxTreeNode, icons: IconSet | None = None) -> str:
    """The reportlab markup of an inline node's children (bold, italic, code, links), with
    `icons` inline where a text names one."""
    out: list[str] = []
    for child in node.children:
        kind = child.type
        if kind == "text":
            out.append(markup(child.content, icons))
        elif kind in ("softbreak",):
            out.append(" ")
        elif kind == "hardbreak":
            out.append("<br/>")
        elif kind == "strong":
            out.append(f"<b>{inline_markup(child, icons)}</b>")
        elif kind == "em":
            out.append(f"<i>{inline_markup(child, icons)}</i>")
        elif kind == "code_inline":
            out.append(f'<font backColor="#e9ebef">{markup(child.content)}</font>')
        elif kind == "link":
            href = str(child.attrs.get("href", ""))
            inner = inline_markup(child, icons)
            if href.startswith(("http://", "https://", "mailto:")):
                out.append(f"<u><a href={quoteattr(href)}>{inner}</a></u>")
            else:
                out.append(inner)
        elif kind == "image":
            out.append(f"<i>{inline_markup(child) or markup(str(child.attrs.get('alt', '')))}</i>")
        else:  # html_inline and anything unknown: shown as text, never interpreted
            out.append(markup(child.content))
    return "".join(out)


def _leads(inline: SyntaxTreeNode) -> bool:
    """A paragraph that introduces what follows: all bold, or ending with a colon."""
    parts = [c for c in inline.children if not (c.type == "text" and not c.content.strip())]
    if len(parts) == 1 and parts[0].type == "strong":
        return True
    return plain_text(inline).rstrip().endswith(":")


def plain_text(node: SyntaxTreeNode) -> str:
    """The visible text of a node (for measuring table columns and for the outline)."""
    if node.type in ("text", "code_inline", "html_inline"):
        return node.content
    if node.type in ("softbreak", "hardbreak"):
        return " "
    return "".join(plain_text(child) for child in node.children)


# --- flowables --------------------------------------------------------------------------


class Heading(Paragraph):
    """A section heading: the document lists it in the contents and the PDF outline."""

    def __init__(self, text: str, level: int, style: ParagraphStyle, rule: colors.Color | None):
        super().__init__(markup(text), style)
        self.toc_level = level
        self.plain = text
        self.rule = rule

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        """A heading is never split: it moves whole to the next page (reportlab's split
        makes its parts with Paragraph's arguments, which a Heading does not take: a
        heading taller than a page was a TypeError; it is now the rulebook's
        RulebookTooLarge)."""
        return []

    def draw(self) -> None:
        if getattr(self.canv, "sketch", False):  # see SketchCanvas
            return
        super().draw()
        if self.rule is not None:
            self.canv.saveState()
            self.canv.setStrokeColor(self.rule)
            self.canv.setLineWidth(0.8)
            self.canv.line(0, -3, self.width, -3)
            self.canv.restoreState()


@dataclass
class Cell:
    """A table cell: its markup, its plain text (measured in bold if `bold`), its role."""

    markup: str
    plain: str
    head: bool = False
    align: str = ""
    bold: bool = False


class FitTable(Flowable):
    """A table whose column widths fit the width it is given, from what its cells hold.

    Short columns get their natural width; the rest share what is left in proportion to
    their content, never below their longest word (unless even those cannot fit).

    reportlab splits a table by making a new table of every row left, which it measures and
    styles again at the next page: a long table cost the square of its rows. Here reportlab
    only ever sees the rows a page can hold (`_Rows.table`); a split keeps the rest as a
    `TableRest` with the same column widths, row shading and accent line under the very last
    row, and the pages are the ones reportlab's split of the whole table draws, byte for byte.
    """

    PAD = PAD
    TOP, BOTTOM = TOP, BOTTOM  # cell padding: no row is lower than the two
    KEEP_FRACTION = 0.4  # tables up to this part of a page move rather than split
    MIN_ROWS = 3  # rows a split table leaves on the first page, at least

    def __init__(self, rows: list[list[Cell]], sheet: Sheet, header: bool = True) -> None:
        super().__init__()
        self.rows = rows
        self.sheet = sheet
        self.header = header
        self._rows = _Rows(rows, sheet, header)
        self._measured: tuple[list[float], list[float]] | None = None
        self._widths: tuple[float, list[float]] = (-1.0, [])
        self._table: Table | None = None  # the table `wrap` measured last: `drawOn` draws it

    def _measure(self) -> tuple[list[float], list[float]]:
        cells: list[list[tuple[str, str, float]]] = []
        for row in self.rows:
            cells.append([])
            for cell in row:
                style = self.sheet["cell_head" if cell.head else "cell"]
                font = self.sheet.font("bold") if cell.bold else style.fontName
                cells[-1].append((cell.plain, font, style.fontSize))
        return column_bounds(cells, self._rows.columns, self.sheet.icons)

    def _build(self, width: float, height: float) -> Table:
        if self._measured is None:
            self._measured = self._measure()
        if abs(self._widths[0] - width) >= 0.01:
            self._widths = (width, fit_widths(*self._measured, width, 2 * self.PAD + 1))
        self._table = self._rows.table(self._widths[1], 0, height)
        return self._table

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self._build(availWidth, availHeight).wrap(availWidth, availHeight)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        frame = getattr(getattr(self, "_frame", None), "_height", None) or 600.0
        # rows past the keep fraction too: if it holds them all, `whole` is all the table's
        table = self._build(availWidth, max(availHeight, self.KEEP_FRACTION * frame))
        _, whole = table.wrap(availWidth, availHeight)
        if availHeight < 0.9 * frame:  # not at the top of a page: may move to the next one
            if whole <= self.KEEP_FRACTION * frame:
                return []  # a short table moves whole to the next page
            first = (1 if self.header else 0) + self.MIN_ROWS
            if availHeight < sum(table._rowHeights[:first]):  # type: ignore[attr-defined]
                return []  # no lonely header and row at the foot of a page
        return self._rows.rest(table.split(availWidth, availHeight), self._widths[1], 0)

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
        assert self._table is not None, "drawOn before wrap"
        self._table.drawOn(canvas, x, y, _sW)  # type: ignore[call-arg]  # the stubs lack _sW

    def getSpaceBefore(self) -> float:
        return 4

    def getSpaceAfter(self) -> float:
        return 10


class TableRest(Flowable):
    """The body rows a page split of a FitTable left, from `start`, under its header: what
        reportlab's split leaves (a plain table: the same column widths, no space around it, no
        rule against splitting at the foot of a page), of which reportlab sees one page's rows; but
    with the whole table's space after it, which reportlab's split drops.

        `lines`: the line commands reportlab's split gave the rest, in its rows (they may name
        rows past the page's; reportlab's split of the page's table drops or clips those)."""

    def __init__(self, rows: _Rows, widths: list[float], start: int, lines: list) -> None:
        super().__init__()
        self.rows, self.widths, self.start, self.lines = rows, widths, start, lines
        self._table: Table | None = None

    def _build(self, height: float) -> Table:
        self._table = self.rows.table(self.widths, self.start, height, self.lines)
        return self._table

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self._build(availHeight).wrap(availWidth, availHeight)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        table = self._build(availHeight)
        parts = table.split(availWidth, availHeight)
        if parts == [table]:
            return [self]
        return self.rows.rest(parts, self.widths, self.start)

    def getSpaceAfter(self) -> float:
        return 10  # the whole table's: text after a split table's last rows stood on them

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
        assert self._table is not None, "drawOn before wrap"
        self._table.drawOn(canvas, x, y, _sW)  # type: ignore[call-arg]  # the stubs lack _sW


class _Rows:
    """A FitTable's rows: their cell paragraphs (made once, when a page first holds them)
    and the reportlab tables of the rows a page can hold, for the table and its rests."""

    MEASURE = 200  # rows measured in one table
    KEPT = 4  # tables kept: a table is wrapped, split and drawn, on every pass of a build

    def __init__(self, rows: list[list[Cell]], sheet: Sheet, header: bool) -> None:
        self.cells = rows
        self.sheet = sheet
        self.header = header
        self.first = 1 if header else 0  # the header rows, repeated on every page
        self.columns = max(len(r) for r in rows)
        self._made: list[list[Paragraph | str] | None] = [None] * len(rows)
        self._heights: dict[tuple[float, ...], list[float]] = {}  # by column widths
        self._tables: dict[tuple[Any, ...], tuple[Any, Table]] = {}  # the last few made

    def data(self, index: int) -> list[Paragraph | str]:
        """The cells of row `index` as reportlab takes them (a new list: reportlab edits it)."""
        made = self._made[index]
        if made is None:
            made = []
            for cell in self.cells[index]:
                style = self.sheet["cell_head" if cell.head else "cell"]
                if cell.align:
                    style = ParagraphStyle(f"{style.name}-{cell.align}", parent=style)
                    style.alignment = (
                        TA_CENTER
                        if cell.align == "center"
                        else TA_RIGHT
                        if cell.align == "right"
                        else TA_LEFT
                    )
                made.append(paragraph(cell.markup, style, self.sheet.icons))
            made += [""] * (self.columns - len(made))
            self._made[index] = made
        return list(made)

    def heights(self, widths: list[float], upto: int) -> list[float]:
        """The heights of the rows before `upto` (at least), as reportlab measures them: in a
        table of the rows not measured yet, each row once for these column widths."""
        heights = self._heights.setdefault(tuple(widths), [])
        while len(heights) < upto:  # a few hundred rows at a time: reportlab looks for the
            rows = range(len(heights), min(upto, len(heights) + self.MEASURE))  # next row to
            table = Table(  # measure from the first, which costs the square of a table's rows
                [self.data(i) for i in rows],
                colWidths=widths,
                style=TableStyle(self.commands()),
            )
            table.wrap(sum(widths), 0x7FFFFFFF)
            heights += table._rowHeights  # type: ignore[attr-defined]
        return heights

    def commands(self) -> list[tuple[Any, ...]]:
        """The style commands every cell takes (the lines and backgrounds are `table`'s)."""
        return [
            ("FONT", (0, 0), (-1, -1), self.sheet.font("regular")),  # else Helvetica is used
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), FitTable.PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), FitTable.PAD),
            ("TOPPADDING", (0, 0), (-1, -1), FitTable.TOP),
            ("BOTTOMPADDING", (0, 0), (-1, -1), FitTable.BOTTOM),
        ]

    def table(
        self, widths: list[float], start: int, height: float, lines: list | None = None
    ) -> Table:
        """The header and the body rows from `start` that fill `height`, the first that does
        not fit and one more, with their heights: reportlab measures and splits this table as
        it would every row left (the rows past the first that does not fit never matter), and
        measures no row again.

        reportlab draws a table's lines and backgrounds in the order of their commands: these
        are the commands of the table as made (`lines` None; its last row named -1) or of the
        rest reportlab's split leaves (its lines given, its backgrounds shifted up).
        """
        body = len(self.cells) - self.first
        step = max(FitTable.MIN_ROWS + 2, int(min(height, 1e7) / (FitTable.TOP + FitTable.BOTTOM)))
        heights = self.heights(widths, min(len(self.cells), self.first + start + step))
        used = sum(heights[: self.first])
        end = start
        while end < body and used <= height:
            row = self.first + end
            if row >= len(heights):  # every row is at least its padding high: `step` more
                heights = self.heights(widths, min(len(self.cells), row + step))
            used += heights[row]
            end += 1
        end = min(body, max(end + 1, start + FitTable.MIN_ROWS + 1))
        key = (tuple(widths), start, end, id(lines))  # kept with `lines`: the id stays its
        if key in self._tables:
            return self._tables[key][1]
        data = [self.data(i) for i in range(self.first)]
        data += [self.data(self.first + i) for i in range(start, end)]
        rows = heights[: self.first] + heights[self.first + start : self.first + end]
        accent = self.sheet.accent
        commands = self.commands()
        if lines is None:
            # the last row of all, as the whole table's -1 is when reportlab splits it
            last = -1 if end == body else len(self.cells) - 1
            lines = [
                ("LINEBELOW", (0, 0), (-1, last), 0.4, RULE),
                ("LINEBELOW", (0, last), (-1, last), 0.8, accent),
            ]
        commands += lines
        if self.header:
            commands += [
                ("BACKGROUND", (0, 0), (-1, 0), accent),
                ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
            ]
        for r in range(self.first, len(data)):
            if (start + r - self.first) % 2:  # every second body row, counted across pages
                commands.append(("BACKGROUND", (0, r), (-1, r), mix(accent, 0.07)))
        table = Table(
            data,
            colWidths=widths,
            rowHeights=rows,
            repeatRows=self.first,
            style=TableStyle(commands),
            hAlign="LEFT",
            splitByRow=1,
        )
        if len(self._tables) >= self.KEPT:
            del self._tables[next(iter(self._tables))]
        self._tables[key] = (lines, table)
        return table

    def rest(self, parts: list[Flowable], widths: list[float], start: int) -> list[Flowable]:
        """reportlab's split of a page's table: its first part, then the rows left as a rest
        with the lines reportlab's split gave them."""
        if len(parts) != 2:
            return parts  # [] (no row fits) or the table (all fit)
        placed = parts[0]._nrows - self.first  # type: ignore[attr-defined]
        lines = list(parts[1]._linecmds)  # type: ignore[attr-defined]
        return [parts[0], TableRest(self, widths, start + placed, lines)]


class Note(Flowable):
    """A blockquote: its flowables in a tinted box with an accent bar (split across pages)."""

    def __init__(self, flowables: list[Flowable], sheet: Sheet) -> None:
        super().__init__()
        self.table = Table(
            [[flowables]],
            colWidths=["100%"],
            style=TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), sheet.font("regular")),
                    ("BACKGROUND", (0, 0), (-1, -1), mix(sheet.accent, 0.09)),
                    ("LINEBEFORE", (0, 0), (0, -1), 3, sheet.accent),
                    ("LEFTPADDING", (0, 0), (-1, -1), 10),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 10),
                    ("TOPPADDING", (0, 0), (-1, -1), 7),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
                ]
            ),
            hAlign="LEFT",
            splitInRow=1,
        )

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.table.wrap(availWidth, availHeight)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        return self.table.split(availWidth, availHeight)

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
        self.table.drawOn(canvas, x, y, _sW)  # type: ignore[call-arg]  # the stubs lack _sW

    def getSpaceBefore(self) -> float:
        return 4

    def getSpaceAfter(self) -> float:
        return 10


# --- the converter ----------------------------------------------------------------------


@dataclass
class Converted:
    """A rulebook's body: its title (the first level-1 heading) and its flowables."""

    title: str | None
    flowables: list[Flowable]


def markdown_flowables(text: str, sheet: Sheet) -> Converted:
    """Convert Markdown to flowables; the first `#` heading is returned as the title."""
    parser = MarkdownIt("commonmark").enable("table")
    root = SyntaxTreeNode(parser.parse(text))
    converter = _Converter(sheet)
    flowables = converter.blocks(root.children, depth=0)
    return Converted(converter.title, flowables)


class _Converter:
    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.title: str | None = None

    def blocks(self, nodes: list[SyntaxTreeNode], depth: int, style: str = "body") -> list:
        out: list[Flowable] = []
        for node in nodes:
            out += self.block(node, depth, style)
        return out

    def block(self, node: SyntaxTreeNode, depth: int, style: str) -> list[Flowable]:
        kind = node.type
        sheet = self.sheet
        if kind == "heading":
            return self.heading(node)
        if kind == "paragraph":
            inline = node.children[0] if node.children else None
            text = inline_markup(inline, sheet.icons) if inline else ""
            if not text.strip():
                return []
            if style == "body" and inline and _leads(inline):
                style = "lead"
            return [paragraph(text, sheet[style], sheet.icons)]
        if kind in ("bullet_list", "ordered_list"):
            return [self.list(node, depth)]
        if kind == "blockquote":
            inner = self.blocks(node.children, depth, "quote")
            return [Note(inner, sheet)] if inner else []
        if kind == "table":
            return [self.table(node)]
        if kind == "hr":
            return [Rule(sheet.accent)]
        if kind in ("fence", "code_block", "html_block"):
            text = node.content.rstrip("\n")
            return [Note([CodeBlock(text, sheet["code"], markup)], sheet)] if text else []
        return self.blocks(node.children, depth, style)

    def heading(self, node: SyntaxTreeNode) -> list[Flowable]:
        text = plain_text(node).strip()
        level = int(node.tag[1])
        if level == 1 and self.title is None:
            self.title = text
            return []
        if level <= 2:
            return [Heading(text, 0, self.sheet["h2"], self.sheet.accent)]
        if level == 3:
            return [Heading(text, 1, self.sheet["h3"], None)]
        return [Paragraph(markup(text), self.sheet["h4"])]

    def list(self, node: SyntaxTreeNode, depth: int) -> ListFlowable:
        sheet = self.sheet
        items = []
        for item in node.children:
            inner = self.blocks(item.children, depth + 1, "item")
            items.append(ListItem(inner or [Spacer(0, 0)]))
        size = sheet["body"].fontSize
        common: dict[str, Any] = {
            "bulletFontName": sheet.font("regular"),
            "bulletColor": sheet.accent,
            "spaceAfter": size * 0.5 if depth == 0 else 0,
        }
        if node.type == "ordered_list":
            start = int(node.attrs.get("start", 1) or 1)
            return ListFlowable(
                items,  # type: ignore[arg-type]  # a ListItem is no Flowable in the stubs
                bulletType="1",
                start=start,
                bulletFormat="%s.",
                bulletFontName=sheet.font("bold"),
                bulletFontSize=size,
                leftIndent=size * 1.8,
                bulletDedent=size * 1.8,
                **{k: v for k, v in common.items() if k != "bulletFontName"},
            )
        return ListFlowable(
            items,  # type: ignore[arg-type]  # a ListItem is no Flowable in the stubs
            bulletType="bullet",
            start=BULLETS[min(depth, len(BULLETS) - 1)],
            bulletFontSize=size * 1.0,
            leftIndent=size * 1.4,
            bulletDedent=size * 1.1,
            **common,
        )

    def table(self, node: SyntaxTreeNode) -> Flowable:
        return fit_table(node, self.sheet)


def fit_table(node: SyntaxTreeNode, sheet: Sheet) -> FitTable:
    """A Markdown table node as the rulebook lays it out (validate measures its rows too)."""
    rows: list[list[Cell]] = []
    header = False
    for section in node.children:
        for tr in section.children:
            row = []
            for cell in tr.children:
                inline = cell.children[0] if cell.children else None
                style = str(cell.attrs.get("style", ""))
                align = style.removeprefix("text-align:") if style else ""
                row.append(
                    Cell(
                        inline_markup(inline, sheet.icons) if inline else "",
                        plain_text(cell),
                        head=cell.type == "th",
                        align=align,
                    )
                )
            header = header or section.type == "thead"
            rows.append(row)
    _center_numbers(rows)
    return FitTable(rows, sheet, header=header)


NUMBERISH = re.compile(r"^[\s+\-–−×x/.,:%·]*+\d[\s\d+\-–−×x/.,:%·]*+$")
"""A cell of figures: only these characters, a digit among them. The run before the first
digit takes no digit and neither run gives back (`[…\\d…]*\\d[…\\d…]*$` tried every digit of
a cell that is not all figures against the rest of it: `1 ` × 20,000 then a letter, 3.7 s)."""


def _center_numbers(rows: list[list[Cell]]) -> None:
    """Centre columns whose body cells are all numbers (and their header), unless aligned."""
    if len(rows) < 2:
        return
    columns = max(len(r) for r in rows)
    for i in range(columns):
        column = [r[i] for r in rows if i < len(r)]
        body = [c for c in column if not c.head]
        if (
            body
            and all(NUMBERISH.match(c.plain) for c in body)
            and not any(c.align for c in column)
        ):
            for cell in column:
                cell.align = "center"


class Rule(Flowable):
    """A horizontal rule: a short centred accent line with a diamond."""

    def __init__(self, colour: colors.Color) -> None:
        super().__init__()
        self.colour = colour

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        return availWidth, 18

    def draw(self) -> None:
        c, mid, y = self.canv, self.width / 2, 9
        c.saveState()
        c.setStrokeColor(self.colour)
        c.setFillColor(self.colour)
        c.setLineWidth(0.6)
        c.line(mid - 60, y, mid - 6, y)
        c.line(mid + 6, y, mid + 60, y)
        path = c.beginPath()
        path.moveTo(mid, y + 3)
        path.lineTo(mid + 3, y)
        path.lineTo(mid, y - 3)
        path.lineTo(mid - 3, y)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        c.restoreState()


def keep_with_next(flowables: list[Flowable]) -> list[Flowable]:
    """Group each run of keep-with-next flowables with the flowable after it.

    reportlab does this itself but will not group a list, so a heading or a lead-in line
    could end a page with its list on the next one.
    """
    out: list[Flowable] = []
    run: list[Flowable] = []
    for flowable in flowables:
        run.append(flowable)
        if flowable.getKeepWithNext():
            flowable.keepWithNext = 0
            continue
        out.append(KeepWithStart(run) if len(run) > 1 else flowable)
        run = []
    out += run
    return out


class KeepWithStart(KeepTogether):
    """Keep headings with the *start* of what follows, not all of it.

    reportlab moves a heading and its whole next flowable to a new page when they do not fit
    together, which leaves half-empty pages before long tables and lists. If the next
    flowable can split so that a few lines stay with the heading, let it.
    """

    MIN_REST = 40.0

    def split(self, aW: float, aH: float) -> list[Flowable]:
        content = self._content  # type: ignore[attr-defined]
        if len(content) >= 2 and aH < self._H:  # type: ignore[attr-defined]
            head, last = content[:-1], content[-1]
            _, used = _listWrapOn(head, aW, self.canv)
            rest = aH - used - last.getSpaceBefore()
            if rest >= self.MIN_REST:
                last.wrap(aW, rest)
                parts = last.split(aW, rest)
                if (
                    len(parts) >= 2
                    and not isinstance(parts[0], ActionFlowable)
                    and parts[0].wrap(aW, rest)[1] <= rest
                ):
                    return list(content)
        return super().split(aW, aH)
