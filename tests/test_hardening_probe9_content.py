"""Findings of the ninth hostile-input probe (issue #33), on content: SVG icons, fonts,
spreadsheets, PO files, YAML and rulebooks (/work/notes/probe9c.md)."""

from __future__ import annotations

import itertools
import resource
import time
from pathlib import Path

import pytest

from tests.test_hardening_probe7_input import _icon


def _stops(count: int) -> str:
    return "".join(
        f'<stop offset="{i / count}" stop-color="#{i % 256:02x}0000"/>' for i in range(count)
    )


@pytest.mark.parametrize("kind", ["linearGradient", "radialGradient"])
def test_a_gradient_drawn_by_many_shapes_is_counted_by_its_stops(tmp_path, kind):
    # C1: each shape filled with a gradient writes all its stops into the PDF at every draw:
    # a 50 kB icon (a 1,000-stop gradient, 480 <use> of one rectangle) took 1.3 s and
    # 125 MB per card drawn; `build` of 36 cards ran past 90 s at 3 GB
    from toolkit.render import svg_icons

    uses = "".join(f'<use href="#r" x="{i}"/>' for i in range(20))
    body = (
        f'<defs><{kind} id="g">{_stops(1000)}</{kind}></defs>\n'
        f'<rect id="r" width="10" height="10" fill="url(#g)"/>{uses}\n'
    )
    icon, icons = _icon(tmp_path, body)
    start = time.process_time()
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert drawn is None and problem is not None
    assert "stops" in problem.message and "21,000" in problem.message
    assert (problem.span.line, problem.span.col) == (2, 7)
    assert time.process_time() - start < 2.0


def test_gradient_stops_inherited_through_a_chain_are_counted(tmp_path):
    from toolkit.render import svg_icons

    shapes = '<rect width="10" height="10" fill="url(#b)"/>' * 30
    chain = (
        f'<linearGradient id="a">{_stops(100)}</linearGradient><linearGradient id="b" href="#a"/>'
    )
    body = chain + shapes
    icon, icons = _icon(tmp_path, body)
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert drawn is None and problem is not None and "3,000" in problem.message


def test_ordinary_gradients_are_drawn(tmp_path):
    from toolkit.render import svg_icons

    shapes = '<circle cx="50" cy="50" r="40" fill="url(#g)"/>' * 40
    body = f'<radialGradient id="g">{_stops(5)}</radialGradient>{shapes}'
    icon, icons = _icon(tmp_path, body)
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert problem is None and drawn is not None


NOTO = "templates/fonts/NotoSans-Regular.ttf"


def _font(tmp_path, codes: int = 0, fpgm: int = 0, step: int = 1):
    """Noto Sans renamed, with `codes` more code points mapped (a format-12 subtable,
    spread over every `step`th glyph) and an `fpgm` table of `fpgm` bytes."""
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables import ttProgram
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    font = TTFont(NOTO)
    order = font.getGlyphOrder()
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = "Probe Sans"
        if record.nameID == 6:
            record.string = "ProbeSans-Regular"
    if codes:
        sub = CmapSubtable.newSubtable(12)
        sub.platformID, sub.platEncID, sub.language = 3, 10, 0
        first = 0x20000
        glyphs = order[step::step]
        sub.cmap = {first + i: glyphs[i % len(glyphs)] for i in range(codes)}
        font["cmap"].tables.append(sub)
    if fpgm:
        table = newTable("fpgm")
        table.program = ttProgram.Program()
        table.program.fromBytecode(b"\x00" * fpgm)
        font["fpgm"] = table
    root = tmp_path.resolve()
    (root / "fonts").mkdir(exist_ok=True)
    path = root / "fonts" / "font.ttf"
    font.save(str(path))
    return path, root


def test_a_font_mapping_all_of_unicode_is_checked_once_per_glyph(tmp_path):
    # C2: validate made a subset of every 256 characters a font maps, each copying its
    # glyphs: a 167 kB font mapping 1.1 M code points onto Noto Sans's glyphs took 14 s
    from toolkit.render import game_fonts

    path, root = _font(tmp_path, codes=1_000_000)
    start = time.process_time()
    read = game_fonts.read_face(path, root)
    assert read[0] == "Probe Sans"
    assert time.process_time() - start < 4.0


def test_a_font_whose_hinting_tables_are_huge_is_read_without_copying_them(tmp_path):
    # C2: reportlab copies the name, OS/2, cvt, fpgm and prep tables whole into every subset
    # (and every PDF embeds each subset it uses): a 20 MB fpgm with the map above ran past
    # 90 s in validate. A game font's subsets now leave the hinting tables out (probe62-7);
    # a huge name table is still refused (test_hardening_fonts62)
    from reportlab.pdfbase import pdfmetrics

    from toolkit.render import game_fonts

    path, root = _font(tmp_path, codes=20_000, fpgm=2_000_000)
    read = game_fonts.read_face(path, root)
    assert not isinstance(read, str), read
    assert len(pdfmetrics.getFont(read[2]).face.makeSubset([0x20000])) < 100_000


def _patch_loca(path, broken):
    """Rewrite the font's loca table with `broken(offsets)` (long offsets kept as they are)."""
    import struct

    data = bytearray(path.read_bytes())
    tables = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for i in range(tables):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        found[tag] = (offset, length)
    long_format = struct.unpack_from(">h", data, found[b"head"][0] + 50)[0] == 1
    offset, length = found[b"loca"]
    kind, size = (">L", 4) if long_format else (">H", 2)
    offsets = [struct.unpack_from(kind, data, offset + size * i)[0] for i in range(length // size)]
    for i, value in enumerate(broken(offsets)):
        struct.pack_into(kind, data, offset + size * i, value)
    path.write_bytes(bytes(data))


def test_a_font_whose_glyphs_overlap_is_refused(tmp_path):
    # C2: glyph locations that go back let every glyph name the same big run of glyf bytes:
    # each subset then copies that run once per glyph
    from toolkit.render import game_fonts

    path, root = _font(tmp_path, codes=1000, step=2)  # only glyphs of 35 kB each
    _patch_loca(path, lambda offsets: [offsets[-1] * (i % 2) for i in range(len(offsets))])
    read = game_fonts.read_face(path, root)
    assert isinstance(read, str) and "loca" in read


def test_ordinary_fonts_are_still_read(tmp_path):
    from toolkit.render import game_fonts

    path, root = _font(tmp_path)
    assert game_fonts.read_face(path, root)[0] == "Probe Sans"
    for name in ("NotoSans-Bold.ttf", "NotoSans-Italic.ttf"):
        bundled = root / "fonts" / name
        bundled.write_bytes((Path("templates/fonts") / name).read_bytes())
        assert game_fonts.read_face(bundled, root)[0] == "Noto Sans"


def _composite_font(tmp_path, count: int, every: int):
    """A font of `count` square glyphs mapped from U+4E00 on, where one glyph in `every` is a
    composite naming the one before it, and the first names every simple glyph."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    names = [".notdef"] + [f"g{i}" for i in range(1, count)]
    composites = names[1::every]
    simple = [n for n in names if n not in set(composites)]

    def composite(parts):
        glyph = Glyph()
        glyph.numberOfContours, glyph.components = -1, []
        for part in parts:
            component = GlyphComponent()
            component.glyphName, component.x, component.y, component.flags = part, 0, 0, 0
            glyph.components.append(component)
        return glyph

    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((500, 0))
    pen.lineTo((500, 500))
    pen.closePath()
    square = pen.glyph()
    glyphs = dict.fromkeys(simple, square)
    glyphs[composites[0]] = composite(simple[1:])
    for before, after in itertools.pairwise(composites):
        glyphs[after] = composite([before])
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({0x4E00 + i: names[i] for i in range(1, count)})
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics(dict.fromkeys(names, (500, 0)))
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Probe Sans", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost(keepGlyphNames=False)
    builder.font.recalcBBoxes = False
    root = tmp_path.resolve()
    (root / "fonts").mkdir(exist_ok=True)
    path = root / "fonts" / "font.ttf"
    builder.save(str(path))
    return path, root


def test_a_font_whose_composites_name_every_glyph_is_refused(tmp_path):
    # C3: reportlab copies a composite glyph with every glyph it names into each subset:
    # a 2 MB font of 65,535 glyphs, one composite in each 256 naming all the others, ran
    # validate past 90 s (256 subsets of every glyph)
    from toolkit.render import game_fonts

    path, root = _composite_font(tmp_path, 20_000, 256)
    start = time.process_time()
    read = game_fonts.read_face(path, root)
    assert isinstance(read, str) and "composite" in read
    assert time.process_time() - start < 2.0


def test_fonts_with_ordinary_composites_are_read(tmp_path):
    from toolkit.render import game_fonts

    path, root = _composite_font(tmp_path, 600, 2)  # a chain of 300: each subset holds it
    assert game_fonts.read_face(path, root)[0] == "Probe Sans"


def _xlsx(cells: str) -> bytes:
    """A minimal XLSX whose first sheet holds a header row, then `cells` (rows of XML)."""
    import io
    import zipfile

    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>'
        f"{cells}</sheetData></worksheet>"
    )
    members = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxml'
            'formats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/'
            'worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-office'
            'document.spreadsheetml.worksheet+xml"/></Types>'
        ),
        "_rels/.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.'
            'org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>"
        ),
        "xl/workbook.xml": (
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.'
            'org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
            "</Relationships>"
        ),
        "xl/worksheets/sheet1.xml": sheet,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return out.getvalue()


@pytest.mark.parametrize(
    ("cells", "where"),
    [
        # one cell far out: calamine allocates every cell up to it before it says how far
        # its sheet reaches (XFD1048576: a 550 GB allocation, the process aborted; XFD20000:
        # 9.5 GB and past 60 s)
        ('<row r="20000"><c r="XFD20000"><v>1</v></c></row>', (20000, 16384)),
        ('<row r="2"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>', (1048576, 1)),
        ('<row r="2000000"><c><v>1</v></c></row>', (2000000, 1)),
        # cells without a reference follow one another: 5,000 of them took 3 GB and 10 s
        ("<row>" + "<c><v>1</v></c>" * 1001 + "</row>", (2, 1001)),
    ],
)
def test_a_sheet_cell_past_the_limits_is_refused_before_calamine_reads_it(tmp_path, cells, where):
    import resource

    from toolkit.content.sheets import grid, prescan, workbook

    path = tmp_path / "cards.xlsx"
    path.write_bytes(_xlsx(cells))
    scan = prescan.scan_xlsx(_member(path))
    assert scan.too_large is not None and scan.too_large[:2] == where
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # kB


def _member(path) -> bytes:
    import zipfile

    with zipfile.ZipFile(path) as archive:
        return archive.read("xl/worksheets/sheet1.xml")


def test_sheet_cells_within_the_limits_are_read(tmp_path):
    from toolkit.content.sheets import grid, workbook

    cells = (
        '<row r="3"><c r="ALL3"><v>7</v></c><c r="B3" s="1"/></row><row><c><v>1</v></c>'
        '<c r="C4"><v>2</v></c><c><v>3</v></c></row><row r="20000"><c r="A20000" s="2"/></row>'
        '<row r="30000"><c r="XFD30000" s="2"/></row>'
    )
    path = tmp_path / "cards.xlsx"
    path.write_bytes(_xlsx(cells))
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Grid), read
    assert read.rows[2][999] == 7 and read.rows[3][:4] == [1, None, 2, 3]


def _two_sheets(tmp_path, sheet_tag: str, relationships: str):
    """An XLSX whose workbook.xml lists `sheet_tag` and whose relationships are
    `relationships`, sheet1.xml a header only, sheet2.xml a cell at XFD20000."""
    import io
    import zipfile

    far = '<row r="20000"><c r="XFD20000"><v>1</v></c></row>'
    base = zipfile.ZipFile(io.BytesIO(_xlsx("")))
    book = (
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
        f'xmlns:xr="urn:x"><sheets>{sheet_tag}</sheets></workbook>'
    )
    rels = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f"{relationships}</Relationships>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in base.namelist():
            data = base.read(name)
            data = {
                "xl/workbook.xml": book.encode(),
                "xl/_rels/workbook.xml.rels": rels.encode(),
            }.get(name, data)
            archive.writestr(name, data)
        sheet = (
            base.read("xl/worksheets/sheet1.xml")
            .decode()
            .replace("</sheetData>", far + "</sheetData>")
        )
        archive.writestr("xl/worksheets/sheet2.xml", sheet)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(out.getvalue())
    return path


WORKSHEET = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"


@pytest.mark.parametrize(
    ("sheet_tag", "targets"),
    [
        # calamine reads the sheet of `r:id`, the scan took the first `…:id`
        ('<sheet name="cards" sheetId="1" xr:id="rId1" r:id="rId2"/>', ("rId1", "rId2")),
        # two relationships of one Id: calamine keeps the last, the scan took the first
        ('<sheet name="cards" sheetId="1" r:id="rId1"/>', ("rId1", "rId1")),
    ],
)
def test_the_sheet_calamine_reads_is_the_one_scanned(tmp_path, sheet_tag, targets):
    # C4: a benign first sheet for the scan, a cell at XFD20000 in the one calamine reads:
    # 9.5 GB (XFD1048576 aborted the process)
    from toolkit.content.sheets import grid, workbook

    first, second = targets
    relationships = (
        f'<Relationship Id="{first}" Type="{WORKSHEET}" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="{second}" Type="{WORKSHEET}" Target="worksheets/sheet2.xml"/>'
    )
    path = _two_sheets(tmp_path, sheet_tag, relationships)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013"
    # said of sheet2 as another sheet, or as the first one (probe 38 H2: taken as calamine does)
    first = workbook._first_sheet_member(path.read_bytes())
    assert "sheet2.xml" in read.diagnostic.message or first == "xl/worksheets/sheet2.xml"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # kB


@pytest.mark.parametrize(
    "line",
    [
        '{{ "' + "a" * 20_000 + '" }} {{ nosuch }}',
        '{{ "' + "a" * 20_000 + '" ~ nosuch }}',
        "{{ " + "1." * 5_000 + "x.nosuch }}",
    ],
)
def test_the_expression_naming_a_missing_name_is_found_in_linear_time(line):
    # C5 (the known Low, worse than known): the pattern that finds the expression naming a
    # missing name tried every start on the line and ran each to its end: a 20 kB string
    # literal before `{{ nosuch }}` took 26 s in validate, 40 kB past 90 s
    from toolkit.render.rulebook_source import _expression_naming

    start = time.process_time()
    expression, col = _expression_naming("# Title\n" + line, 2, "nosuch")
    assert expression in ("nosuch", "x.nosuch") and line[col - 1 :].startswith(expression)
    assert time.process_time() - start < 1.0


@pytest.mark.parametrize(
    ("line", "expression"),
    [
        ("x {{ decks.cards.cards[0].nmae }}", "decks.cards.cards[0].nmae"),
        ("{{ a.b['nmae'] }}", "a.b['nmae']"),
        ("{{ 9.x.nmae.y }}", "x.nmae"),
        ("{{ f(nmae) }}", "nmae"),
        ("{{ x.nmaex }}", ""),
    ],
)
def test_the_expression_naming_a_missing_name_is_the_one_it_was(line, expression):
    from toolkit.render.rulebook_source import _expression_naming

    found, col = _expression_naming(line, 1, "nmae")
    assert found == expression
    assert not found or line[col - 1 :].startswith(found)
