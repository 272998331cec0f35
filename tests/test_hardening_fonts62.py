"""A game font's hinting tables past `MAX_HINTING` are not copied into the subsets its PDFs
embed (probe62-7): reportlab copied the font's name, OS/2, cvt, fpgm and prep tables whole
into every subset, and a PDF makes a subset for each 256 distinct characters it prints, in
each language: a 600 kB fpgm and 2,560 CJK characters in 20 languages wrote 255 MB of PDFs.
Ordinary hinting is kept (PDFium runs it), and so is the toolkit's own Noto Sans's."""

from __future__ import annotations

import struct
from pathlib import Path

from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import ttProgram
from fontTools.ttLib.tables.DefaultTable import DefaultTable
from pypdf import PdfReader

from tests.font_maker import make_font
from tests.test_game_fonts import LAYOUT, findings, write_game
from toolkit.render import game_fonts

HINTING = {b"cvt ", b"fpgm", b"prep"}


def _hinted(path: Path, fpgm: int) -> None:
    """Give the font at `path` an fpgm of `fpgm` bytes (its cvt and prep kept)."""
    font = TTFont(path)
    table = newTable("fpgm")
    table.program = ttProgram.Program()
    table.program.fromBytecode(bytes(i % 251 for i in range(fpgm)))  # not compressed away
    font["fpgm"] = table
    font.save(path)


def _tags(sfnt: bytes) -> set[bytes]:
    count = struct.unpack_from(">H", sfnt, 4)[0]
    return {sfnt[12 + 16 * i : 16 + 16 * i] for i in range(count)}


def _embedded(pdf: Path) -> dict[str, bytes]:
    """Each embedded TrueType font program of the PDF, by its BaseFont."""
    found = {}
    for page in PdfReader(pdf).pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            for part in font.get("/DescendantFonts", [font]):
                descriptor = part.get_object().get("/FontDescriptor")
                if descriptor is not None and "/FontFile2" in descriptor.get_object():
                    data = descriptor.get_object()["/FontFile2"].get_object().get_data()
                    found[str(font["/BaseFont"])] = data
    return found


def _game(tmp_path: Path, fpgm: int) -> Path:
    game = write_game(tmp_path, ["en"], {"en": "Dragon"}, {"en": "The dragon waits."})
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker\n", "size: poker\nlayout: themed\n"))
    (game / "layouts").mkdir()
    (game / "layouts" / "themed.yaml").write_text(LAYOUT)
    for style in ("regular", "bold"):
        path = make_font(game / "fonts" / f"TestSerif-{style}.ttf", "Test Serif", style)
        _hinted(path, fpgm)
    return game


def test_a_game_fonts_subsets_carry_no_hinting_tables(run_cli, tmp_path):
    game = _game(tmp_path, 200_000)
    assert findings(run_cli, game) == []
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--only", "cards").exit_code == 0
    pdf = out / "game" / "en" / "cards.pdf"
    embedded = _embedded(pdf)
    ours = {name: data for name, data in embedded.items() if "TestSerif-Bold" in name}
    assert ours, embedded.keys()
    for name, data in ours.items():
        assert not _tags(data) & HINTING, (name, _tags(data))
        assert len(data) < 20_000, (name, len(data))  # its glyphs', not the 200 kB fpgm
    assert pdf.stat().st_size < 200_000
    shipped = [data for name, data in embedded.items() if "NotoSans" in name]
    assert shipped and all(_tags(data) >= HINTING for data in shipped)  # kept as it was


def test_a_game_font_with_a_large_fpgm_is_read_and_its_subsets_are_small(tmp_path):
    # the fpgm is read once with the file (bounded by MAX_BYTES), never copied
    path = make_font(tmp_path / "fonts" / "big.ttf", "Big Serif")
    _hinted(path, 2 * game_fonts.MAX_COPIED)
    read = game_fonts.read_face(path, tmp_path.resolve())
    assert not isinstance(read, str), read
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(read[2]).face
    subset = face.makeSubset([ord(ch) for ch in "Big Serif"])
    assert not _tags(subset) & HINTING and len(subset) < 20_000


def test_a_font_whose_name_table_is_huge_is_still_refused(tmp_path):
    # the name and OS/2 tables are still copied whole into each subset: bounded at 64 kB
    # (1 MB before, as the bound on all five tables; a real font's name is some kB)
    path = make_font(tmp_path / "fonts" / "named.ttf", "Named Serif")
    font = TTFont(path)
    table = DefaultTable("name")
    table.data = font["name"].compile(font) + bytes(100_000)  # trailing bytes
    font["name"] = table
    font.save(path)
    read = game_fonts.read_face(path, tmp_path.resolve())
    assert isinstance(read, str) and "name" in read and "copies whole" in read, read


def test_ordinary_hinting_is_kept_in_a_game_fonts_subsets(run_cli, tmp_path):
    # PDFium renders with it: without it, every card image of a DejaVu Sans game differed
    game = _game(tmp_path, 3_000)
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--only", "cards").exit_code == 0
    embedded = _embedded(out / "game" / "en" / "cards.pdf")
    ours = [data for name, data in embedded.items() if "TestSerif-Bold" in name]
    assert ours and all(_tags(data) >= HINTING for data in ours)
