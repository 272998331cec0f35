"""The rulebook PDF: cover, contents, the Markdown rules, then components and card reference.

The rules come from the game's Markdown (its Jinja facts already filled); the component list
and the card reference are generated from the decks, so they always match what is printed.
Platypus lays it out; `multiBuild` runs until the contents' page numbers settle.
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    Image,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
)
from reportlab.platypus.doctemplate import LayoutError
from reportlab.platypus.paragraph import Paragraph as PlainParagraph
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

from toolkit.content.game import Game
from toolkit.content.models.board import GraphBoard, RoadBoard, TrackBoard
from toolkit.content.models.deck import size_mm
from toolkit.render.card_reference import DeckReference, deck_reference
from toolkit.render.fonts import register
from toolkit.render.icons import icon_set
from toolkit.render.markdown_flow import (
    INK,
    MUTED,
    PALETTE,
    Cell,
    FitTable,
    Heading,
    IconCanvas,
    KeepWithStart,
    Paragraph,
    Sheet,
    SketchCanvas,
    SketchSaved,
    keep_with_next,
    make_sheet,
    markdown_flowables,
    markup,
    mix,
    paragraph,
)
from toolkit.render.pdf import PAPERS
from toolkit.render.rulebook_source import read_rulebook, render_markdown
from toolkit.render.rulebook_style import rulebook_faces
from toolkit.render.rulebook_words import count, labels
from toolkit.render.table_fit import MARGIN

FOOTER = 11 * mm


def accent_for(game_id: str) -> str:
    """Each game gets its own accent colour, always the same one."""
    digest = hashlib.md5(game_id.encode(), usedforsecurity=False).digest()
    return PALETTE[int.from_bytes(digest, "big") % len(PALETTE)]


def render_rulebook(
    game: Game,
    lang: str,
    paper: str = "a4",
    bleed: float = 0.0,
    picture_dpi: float | None = None,
) -> bytes:
    """The rulebook of `game` in `lang` as PDF bytes (deterministic). With `bleed` (points,
    the press profile) each page is the paper plus that bleed all round, with TrimBox and
    BleedBox, and everything sits where it sits on the paper. With `picture_dpi` (a PDF
    only rasterised, at that dpi) the cover's picture may be a resampled copy
    (`CoverPicture`)."""
    if game.manifest is None:
        raise ValueError(f"{game.id}: the manifest is not valid")
    if lang not in game.rulebook:
        raise ValueError(f"{game.id}: no rulebook in {lang!r}")
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (known: {', '.join(PAPERS)})")
    register()
    try:
        return _render(game, lang, paper, bleed, picture_dpi, sketch=True)
    except SketchSaved:  # the contents settled on the first pass: the book drawn in full
        return _render(game, lang, paper, bleed, picture_dpi, sketch=False)


def _render(
    game: Game, lang: str, paper: str, bleed: float, picture_dpi: float | None, sketch: bool
) -> bytes:
    """The rulebook's PDF; with `sketch`, multiBuild's first pass (a contents' page numbers
    to find) is laid out on a SketchCanvas. Every flowable is made here: a pass leaves
    marks on the story's flowables that only multiBuild's next pass clears."""
    assert game.manifest is not None
    style = game.manifest.style
    sheet = make_sheet(lang, style.accent or accent_for(game.id), faces=rulebook_faces(game))
    sheet.icons = icon_set(game.root)  # `:name:` in prose, tables and the card reference
    source = read_rulebook(game.rulebook[lang], game.root)
    body = markdown_flowables(render_markdown(game, lang, source), sheet)
    title = game.manifest.title.get(lang) or body.title or game.id

    buffer = io.BytesIO()
    doc = _RulebookDoc(buffer, PAPERS[paper], title, lang, sheet, bleed)
    sections = body.flowables + components(game, lang, sheet) + card_reference(game, lang, sheet)
    story: list[Flowable] = cover(game, lang, title, sheet, doc.trim, picture_dpi)
    story += [NextPageTemplate("body"), PageBreak()]
    if any(isinstance(f, Heading) for f in sections):
        story += [*contents(lang, sheet), PageBreak()]
    story += keep_with_next(sections)
    doc.sketch_first = sketch and any(f.isIndexing() for f in story)
    doc.placements_left = PLACEMENTS_PER_PIECE * len(story) + PLACEMENTS_SPARE
    try:
        doc.multiBuild(story, canvasmaker=IconCanvas)
    except LayoutError as exc:  # reportlab's: something no page can hold
        raise RulebookTooLarge(_too_large(str(exc))) from None
    return buffer.getvalue()


class RulebookTooLarge(ValueError):
    """Something in the rulebook is taller than a page (a table row of a very long cell):
    reportlab cannot place it anywhere."""


def _too_large(said: str) -> str:
    """What reportlab's LayoutError `said`, as a designer reads it."""
    page = re.search(r"too large on page (\d+)", said)
    where = f" (page {page.group(1)})" if page else ""
    if "FitTable" in said or "TableRest" in said:
        return (
            f"a table row is taller than a page{where}: shorten its cells, or turn the"
            " table into paragraphs"
        )
    if "<Heading" in said:
        return f"a heading is taller than a page{where}: shorten it"
    return f"something is taller than a page{where}: split it"


# --- document ---------------------------------------------------------------------------


PLACEMENTS_PER_PIECE = 200
PLACEMENTS_SPARE = 20_000
"""How many times the layout may place a piece of the story, over every pass: a bundled
rulebook places each ~2 times a pass (~600 for three languages), while a piece taller than a
page inside one reportlab keeps together (a heading in a list item or a quote) was moved to
the next page for ever (280,000 placements in 8 s, a build that never ended)."""


class _RulebookDoc(BaseDocTemplate):
    """Two page templates (cover, body); headings feed the contents and the PDF outline."""

    placements_left = PLACEMENTS_SPARE

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        self.placements_left -= 1
        if self.placements_left < 0:
            raise RulebookTooLarge(
                "the rulebook's layout does not end: a piece taller than a page sits inside a"
                " list item or a quote (a heading there?); shorten it, or take it out of the"
                " list or quote"
            )
        super().handle_flowable(flowables)

    def __init__(
        self,
        buffer: io.BytesIO,
        pagesize: tuple[float, float],
        title: str,
        lang: str,
        sheet: Sheet,
        bleed: float = 0.0,
    ) -> None:
        width, height = pagesize
        boxes: dict[str, Any] = {}
        if bleed:
            boxes = {
                "trimBox": (bleed, bleed, bleed + width, bleed + height),
                "bleedBox": (0, 0, width + 2 * bleed, height + 2 * bleed),
            }
        super().__init__(
            buffer,
            pagesize=(width + 2 * bleed, height + 2 * bleed),
            **boxes,
            title=title,
            author="Playset",
            creator="Playset",
            producer="Playset (reportlab)",
            lang=lang,
            invariant=1,
            pageCompression=1,
            keepTogetherClass=KeepWithStart,
            initialFontName=sheet.font("regular"),  # no stray, unembedded Helvetica
            initialFontSize=10,
            leftMargin=MARGIN + bleed,
            rightMargin=MARGIN + bleed,
            topMargin=MARGIN + bleed,
            bottomMargin=MARGIN + 2 * mm + bleed,
        )
        self.game_title = title
        self.sheet = sheet
        self.trim = (width, height)  # the paper; pages add `bleed` all round
        self.bleed = bleed
        cover_frame = Frame(
            32 * mm + bleed,
            30 * mm + bleed,
            width - 64 * mm,
            height - 60 * mm,
            id="cover",
            showBoundary=0,
        )
        body_frame = Frame(
            self.leftMargin, self.bottomMargin, self.width, self.height, id="body", showBoundary=0
        )
        self.addPageTemplates(
            [
                PageTemplate("cover", [cover_frame], onPage=self._draw_cover),
                PageTemplate("body", [body_frame], onPage=self._draw_footer),
            ]
        )
        self._seq = 0
        self._level = -1
        self.sketch_first = False  # the first pass on a SketchCanvas (a contents to settle)

    def _makeCanvas(self, filename: Any = None, canvasmaker: Any = IconCanvas) -> Any:
        if self.sketch_first:
            self.sketch_first, canvasmaker = False, SketchCanvas
        return super()._makeCanvas(filename=filename, canvasmaker=canvasmaker)  # type: ignore[misc]

    def beforeDocument(self) -> None:
        self._seq = 0
        self._level = -1

    def afterFlowable(self, flowable: Flowable) -> None:
        if not isinstance(flowable, Heading):
            return
        key = f"h{self._seq}"
        self._seq += 1
        level = min(flowable.toc_level, self._level + 1)  # outlines cannot skip a level
        self._level = level
        top = self.frame._y + flowable.getSpaceAfter() + flowable.height + 8  # type: ignore[attr-defined]
        self.canv.bookmarkPage(key, fit="XYZ", left=0, top=top)
        self.canv.addOutlineEntry(flowable.plain, key, level=level)
        self.notify("TOCEntry", (level, markup(flowable.plain), self.page, key))

    def _draw_cover(self, canvas: Any, doc: BaseDocTemplate) -> None:
        width, height = self.trim
        accent = self.sheet.accent
        canvas.saveState()
        canvas.translate(self.bleed, self.bleed)
        canvas.setStrokeColor(accent)
        canvas.setLineWidth(1.4)
        canvas.rect(12 * mm, 12 * mm, width - 24 * mm, height - 24 * mm)
        canvas.setLineWidth(0.4)
        canvas.rect(14 * mm, 14 * mm, width - 28 * mm, height - 28 * mm)
        canvas.setFillColor(accent)
        for x in (13 * mm, width - 13 * mm):
            for y in (13 * mm, height - 13 * mm):
                _diamond(canvas, x, y, 4)
        for i in range(-2, 3):
            _diamond(canvas, width / 2 + i * 14, 22 * mm, 2.6 if i else 3.6)
        _lattice(canvas, 20 * mm, 34 * mm, width - 40 * mm, 0.16 * height, mix(accent, 0.3))
        canvas.restoreState()

    def _draw_footer(self, canvas: Any, doc: BaseDocTemplate) -> None:
        width, _ = self.trim
        left, right = MARGIN, width - MARGIN
        canvas.saveState()
        canvas.translate(self.bleed, self.bleed)
        canvas.setStrokeColor(colors.HexColor("#c9ccd3"))
        canvas.setLineWidth(0.5)
        canvas.line(left, FOOTER + 9, right, FOOTER + 9)
        canvas.setFont(self.sheet.font("italic"), 8.5)
        canvas.setFillColor(MUTED)
        canvas.drawString(left, FOOTER, self.game_title)
        canvas.setFont(self.sheet.font("bold"), 9)
        canvas.setFillColor(self.sheet.accent)
        canvas.drawRightString(right, FOOTER, str(doc.page))
        canvas.restoreState()


def _lattice(canvas: Any, x: float, y: float, w: float, h: float, colour: Any) -> None:
    """A band of small diamonds in a checker pattern, fading upwards (the cover's ornament)."""
    step = 8 * mm
    columns = int(w // step)
    rows = max(1, int(h // (step / 2)))
    x0 = x + (w - columns * step) / 2 + step / 2
    for row in range(rows):
        canvas.setFillColor(mix(colour, 1 - row / rows))
        shift = step / 2 if row % 2 else 0
        for col in range(columns - (1 if row % 2 else 0)):
            _diamond(canvas, x0 + col * step + shift, y + row * step / 2, step / 4)


def _diamond(canvas: Any, x: float, y: float, r: float) -> None:
    path = canvas.beginPath()
    path.moveTo(x, y + r)
    path.lineTo(x + r, y)
    path.lineTo(x, y - r)
    path.lineTo(x - r, y)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


# --- cover and contents -----------------------------------------------------------------


def cover(
    game: Game,
    lang: str,
    title: str,
    sheet: Sheet,
    pagesize: tuple[float, float],
    picture_dpi: float | None = None,
) -> list[Flowable]:
    """Title, ornament, summary, the cover's picture (`cover_picture`) and the box facts
    (players, age, minutes)."""
    manifest = game.manifest
    if manifest is None:
        raise ValueError(f"{game.id}: the manifest is not valid")
    accent = sheet.accent
    kicker = ParagraphStyle(
        "kicker",
        fontName=sheet.font("heading"),
        fontSize=11,
        leading=14,
        textColor=accent,
        alignment=TA_CENTER,
    )
    big = ParagraphStyle(
        "cover_title",
        fontName=sheet.font("heading"),
        fontSize=40,
        leading=46,
        textColor=INK,
        alignment=TA_CENTER,
        spaceAfter=6,
        hyphenationLang="",
    )
    summary_style = ParagraphStyle(
        "cover_summary",
        fontName=sheet.font("italic"),
        fontSize=12.5,
        leading=18,
        textColor=INK,
        alignment=TA_CENTER,
        hyphenationLang=sheet["body"].hyphenationLang,
    )
    story: list[Flowable] = [
        Spacer(0, pagesize[1] * 0.14),
        Paragraph(markup(labels(lang)["kicker"].upper()), kicker),
        Spacer(0, 10),
        Paragraph(markup(title), big),
        Ornament(accent),
        Spacer(0, 14),
    ]
    summary = (manifest.summary or {}).get(lang)
    if summary:
        # its inline icons drawn, as the prose's (they printed as written: probe 53-L4)
        story.append(paragraph(sheet.markup(summary.strip()), summary_style, sheet.icons))
    picture = cover_picture(game, pagesize, picture_dpi)
    if picture is not None:
        story += [Spacer(0, 10), picture]
    story.append(Spacer(0, 36 if picture is None else 14))
    story.append(Facts(_facts(manifest, lang), accent, (sheet.font("bold"), sheet.font("regular"))))
    return story


def cover_picture(
    game: Game, pagesize: tuple[float, float], picture_dpi: float | None = None
) -> Flowable | None:
    """game.yaml's `style.cover`, scaled into the cover's free band (None without one, or
    for a file that is missing, outside the game or unreadable: `validate` says so), drawn
    as `CoverPicture` draws it at `picture_dpi`."""
    from toolkit.render.rulebook_style import cover_path

    path = cover_path(game)
    if path is None:
        return None
    from toolkit.fileio import real_path
    from toolkit.render import pictures

    try:
        # read once from inside the game: the page drawn later opens the file by name
        copy = pictures.private_copy(path, real_path(game.root))
        pictures.pixels(copy.path)  # a picture of too many pixels is not decoded (P004)
        picture = CoverPicture(copy)
    except (OSError, ValueError):
        return None
    picture.picture_dpi = picture_dpi
    width, height = pagesize[0] - 64 * mm, pagesize[1] * 0.2
    scale = min(width / picture.imageWidth, height / picture.imageHeight)
    picture.drawWidth = picture.imageWidth * scale
    picture.drawHeight = picture.imageHeight * scale
    return picture


class CoverPicture(Image):
    """A picture drawn through the run's image object (`picture_objects.draw_picture`):
    platypus's own Image hands reportlab a reader, which decodes, digests and compresses
    the picture again in every language's rulebook and every pass of it (a cover of 40 M
    pixels: 18 s of `build` in 20 languages). At `picture_dpi` (a PDF only rasterised) a
    picture far larger than its box there is drawn from a copy resampled once."""

    picture_dpi: float | None = None

    def draw(self) -> None:
        from toolkit.render.picture_objects import draw_picture

        x, y = getattr(self, "_offs_x", 0), getattr(self, "_offs_y", 0)
        width, height = self.drawWidth, self.drawHeight
        # with its alpha, as platypus draws a picture (its `mask="auto"`)
        draw_picture(
            self.canv, self.filename, x, y, width, height, mask="auto", dpi=self.picture_dpi
        )


def _facts(manifest: Any, lang: str) -> list[tuple[str, str, str]]:
    """(icon, value, label) for the cover: players always, age and minutes if known."""
    names = labels(lang)
    low, high = manifest.players.min, manifest.players.max
    facts = [("players", str(low) if low == high else f"{low}\u2013{high}", names["players"])]
    if manifest.age is not None:
        facts.append(("age", f"{manifest.age}+", names["age"]))
    if manifest.minutes is not None:
        facts.append(("minutes", str(manifest.minutes), names["minutes"]))
    return facts


class ContentsRow(Flowable):
    """One row of the contents as reportlab's contents table drew it: an entry's paragraph,
    or the gap before a top-level entry, with the table's 3 pt above and below."""

    PAD = 3.0

    def __init__(self, para: Flowable | None, gap: float = 0.0) -> None:
        super().__init__()
        self.para = para
        self.gap = gap

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        height = self.gap
        if self.para is not None:
            height = self.para.wrapOn(self.canv, availWidth, availHeight)[1]
        self.width, self.height = availWidth, height + 2 * self.PAD
        return self.width, self.height

    def draw(self) -> None:
        if self.para is not None and not getattr(self.canv, "sketch", False):  # SketchCanvas
            self.para.drawOn(self.canv, 0, self.PAD)


class Contents(TableOfContents):
    """reportlab's table of contents, laid out as one flowable a row instead of one table:
    the table, split page by page, measured every row left at each split (2,900 headings
    measured 3.3 million rows, 6 s a language). Each row is measured once a pass now, and
    drawn where the table drew it."""

    rows: list[ContentsRow]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        entries = self._lastEntries  # type: ignore[attr-defined]
        entries = entries or [(0, "Placeholder for table of contents", 0, None)]

        def entry_end(canvas: Any, kind: str | None, label: str) -> None:
            """reportlab's: the dots and page number after an entry."""
            page, level, key = label.split(",")
            style = self.getLevelStyle(int(level))
            dot = " . " if 0 <= self.dotsMinLevel <= int(level) else ""
            pages = [(int(page), ast.literal_eval(key))]
            drawPageNumbers(canvas, style, pages, availWidth, availHeight, dot)

        self.canv.setNamedCB("drawTOCEntryEnd", entry_end)
        self.rows = []
        for level, text, page, key in entries:
            style = self.getLevelStyle(level)
            if key:
                text = f'<a href="#{key}">{text}</a>'
                said = repr(key).replace(",", "\\x2c").replace('"', "\\x2c")
            else:
                said = "None"
            end = f'<onDraw name="drawTOCEntryEnd" label="{page},{level},{said}"/>'
            if style.spaceBefore:
                self.rows.append(ContentsRow(None, style.spaceBefore))
            self.rows.append(ContentsRow(PlainParagraph(text + end, style)))
        height = sum(row.wrapOn(self.canv, availWidth, availHeight)[1] for row in self.rows)
        self.width, self.height = availWidth, height
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        return list(self.rows)  # the page takes the rows that fit, the next page the rest

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        top = y + self.height
        for row in self.rows:
            top -= row.height
            row.drawOn(canvas, x, top, _sW)  # type: ignore[call-arg]


def contents(lang: str, sheet: Sheet) -> list[Flowable]:
    """The contents page: a heading (not itself listed) and the table of contents."""
    toc = Contents(dotsMinLevel=0)
    base = sheet["body"]
    toc.levelStyles = [
        ParagraphStyle(
            "toc0",
            parent=base,
            fontName=sheet.font("bold"),
            fontSize=11,
            leading=15,
            spaceBefore=7,
            alignment=TA_LEFT,
            leftIndent=0,
            firstLineIndent=0,
            hyphenationLang="",
        ),
        ParagraphStyle(
            "toc1",
            parent=base,
            fontSize=9.5,
            leading=13.5,
            leftIndent=14,
            firstLineIndent=0,
            alignment=TA_LEFT,
            textColor=MUTED,
            hyphenationLang="",
        ),
    ]
    # reportlab fills the gap before a page number with as many " . " as fit: it divides
    # by their width, zero in a game font whose space and full stop take no room
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if not all(stringWidth(" . ", s.fontName, s.fontSize) > 0 for s in toc.levelStyles):
        toc.dotsMinLevel = -1  # no dots
    title = ParagraphStyle("toc_title", parent=sheet["h2"], fontSize=22, leading=28)
    return [Paragraph(markup(labels(lang)["contents"]), title), Spacer(0, 6), toc]


class Ornament(Flowable):
    """A centred line–diamond–line flourish under the cover title."""

    def __init__(self, colour: colors.Color, span: float = 180) -> None:
        super().__init__()
        self.colour = colour
        self.span = span

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        return availWidth, 24

    def draw(self) -> None:
        c, mid, y, half = self.canv, self.width / 2, 12, self.span / 2
        c.saveState()
        c.setStrokeColor(self.colour)
        c.setFillColor(self.colour)
        c.setLineWidth(1)
        c.line(mid - half, y, mid - 12, y)
        c.line(mid + 12, y, mid + half, y)
        c.setLineWidth(0.5)
        c.line(mid - half + 20, y - 4, mid - 16, y - 4)
        c.line(mid + 16, y - 4, mid + half - 20, y - 4)
        _diamond(c, mid, y, 6)
        _diamond(c, mid - half, y, 2.5)
        _diamond(c, mid + half, y, 2.5)
        c.setFillColor(colors.white)
        _diamond(c, mid, y, 2.2)
        c.restoreState()


class Facts(Flowable):
    """Players, age and playing time as three round badges with vector icons."""

    BADGE = 96.0
    RADIUS = 19.0

    def __init__(
        self, facts: list[tuple[str, str, str]], colour: colors.Color, fonts: tuple[str, str]
    ) -> None:
        super().__init__()
        self.facts = facts
        self.colour = colour
        self.fonts = fonts  # (value, label)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        return availWidth, 2 * self.RADIUS + 44

    def draw(self) -> None:
        c = self.canv
        total = self.BADGE * len(self.facts)
        x0 = (self.width - total) / 2
        cy = 44 + self.RADIUS
        for i, (icon, value, label) in enumerate(self.facts):
            cx = x0 + self.BADGE * (i + 0.5)
            c.saveState()
            c.setFillColor(self.colour)
            c.circle(cx, cy, self.RADIUS, stroke=0, fill=1)
            c.setFillColor(colors.white)
            c.setStrokeColor(colors.white)
            _ICONS[icon](c, cx, cy)
            c.setFillColor(INK)
            c.setFont(self.fonts[0], 15)
            c.drawCentredString(cx, 22, value)
            c.setFillColor(MUTED)
            c.setFont(self.fonts[1], 9)
            c.drawCentredString(cx, 9, label)
            c.restoreState()


def _person(c: Any, x: float, y: float, scale: float = 1.0) -> None:
    c.circle(x, y + 5 * scale, 3.6 * scale, stroke=0, fill=1)
    path = c.beginPath()
    path.moveTo(x - 6.5 * scale, y - 8 * scale)
    w, top, foot = 6.5 * scale, y + 1 * scale, y - 8 * scale
    path.curveTo(x - w, top, x + w, top, x + w, foot)
    path.close()
    c.drawPath(path, stroke=0, fill=1)


def _icon_players(c: Any, x: float, y: float) -> None:
    _person(c, x - 5, y + 1, 0.85)
    _person(c, x + 5, y - 0.5, 0.95)


def _icon_age(c: Any, x: float, y: float) -> None:
    _person(c, x - 3, y, 1.0)
    c.setLineWidth(1.8)
    c.line(x + 7, y + 4, x + 13, y + 4)
    c.line(x + 10, y + 1, x + 10, y + 7)


def _icon_minutes(c: Any, x: float, y: float) -> None:
    c.setLineWidth(1.8)
    c.circle(x, y, 10, stroke=1, fill=0)
    c.setLineCap(1)
    c.line(x, y, x, y + 7)
    c.line(x, y, x + 5, y - 2)
    c.circle(x, y, 1.4, stroke=0, fill=1)


_ICONS = {"players": _icon_players, "age": _icon_age, "minutes": _icon_minutes}


# --- generated sections -----------------------------------------------------------------


def components(game: Game, lang: str, sheet: Sheet) -> list[Flowable]:
    """A table of every deck (cards counting copies, size) and board (its size)."""
    names = labels(lang)
    rows = [[Cell(markup(names["item"]), names["item"], True),
             Cell(markup(names["quantity"]), names["quantity"], True)]]  # fmt: skip
    for deck in game.valid(game.decks):
        total = sum(card.copies for card in deck.cards)
        w, h = size_mm(deck.size)
        amount = f"{count(lang, deck.pieces, total)} ({_mm(w)}\u202f×\u202f{_mm(h)} mm)"
        rows.append(_row(deck.name.get(lang, deck.id), amount, sheet))
    for board in game.valid(game.boards):
        rows.append(_row(board.name.get(lang, board.id), _board_size(board, lang), sheet))
    for bank in game.valid(game.questions):
        amount = count(lang, "questions", len(bank.questions))
        rows.append(_row(bank.name.get(lang, bank.id), amount, sheet))
    if len(rows) == 1:
        return []
    return [Heading(names["components"], 0, sheet["h2"], sheet.accent), FitTable(rows, sheet)]


def _mm(value: float) -> str:
    return f"{value:g}"


def _row(name: str, amount: str, sheet: Sheet) -> list[Cell]:
    """A component's row: its name (its inline icons drawn, as a card face draws them) and
    how many or how large."""
    return [Cell(f"<b>{sheet.markup(name)}</b>", name, bold=True), Cell(markup(amount), amount)]


def _board_size(board: Any, lang: str) -> str:
    from toolkit.content.models.board import board_kinds

    entry = board_kinds().get(board.kind)
    phrase = entry.phrase if entry is not None else None
    if phrase is not None:
        return str(phrase(board, lang))
    if isinstance(board, GraphBoard):
        return count(lang, "spaces", len(board.spaces))
    if isinstance(board, RoadBoard):
        return count(lang, "stops", len(board.stops))
    if isinstance(board, TrackBoard):
        return labels(lang)["holes"].format(
            n=board.segments_in_box,
            segment=board.segment_name.get(lang, ""),
            holes=board.holes_per_segment,
        )
    return ""


def card_reference(game: Game, lang: str, sheet: Sheet) -> list[Flowable]:
    """Per deck with card texts: name, the deck's columns, copies and the filled text (what
    `deck_reference` says it prints, which `validate` checks)."""
    names = labels(lang)
    out: list[Flowable] = []
    for deck in game.valid(game.decks):
        table = deck_reference(game, deck, lang)
        if table is None:
            continue
        heading = Heading(table.heading.text, 1, sheet["h3"], None)
        out += [heading, FitTable(reference_rows(table, lang, sheet), sheet)]
    if not out:
        return []
    return [Heading(names["card_reference"], 0, sheet["h2"], sheet.accent), *out]


def reference_rows(table: DeckReference, lang: str, sheet: Sheet) -> list[list[Cell]]:
    """The cells of a deck's card reference table: the header, then a row a card (what
    `validate` measures too: toolkit.checks.card_reference_rows)."""
    names = labels(lang)
    head = [names["card"], *(h.text for h in table.heads), names["copies"], names["text"]]
    rows = [[Cell(markup(h), h, True) for h in head]]
    for card in table.rows:
        row = [_name_cell(card.name.text, card.title.text if card.title else None, sheet)]
        for value in card.values:
            row.append(Cell(sheet.markup(value.text), value.text, align="center"))
        row.append(Cell(card.copies.text, card.copies.text, align="center"))
        text = card.text.text
        row.append(Cell(sheet.markup(text).replace("\n", "<br/>"), text))
        rows.append(row)
    return rows


def _name_cell(name: str, title: str | None, sheet: Sheet) -> Cell:
    """A card's name and title, their inline icons drawn as on the card's face (they printed
    as written, `:token:`: probe 53-L4)."""
    text = f"<b>{sheet.markup(name)}</b>"
    plain = name
    if title:
        muted = MUTED.hexval()[2:]
        text += f'<br/><font color="#{muted}"><i>{sheet.markup(title)}</i></font>'
        plain += "\n" + title
    return Cell(text, plain, bold=True)
