"""`convert --to ods` writes the OpenDocument XML as text (probe 40/41 M2: odfpy built an
object a cell, 10.4 s and 443 MB for a deck at the 200,000-cell bound), and the keys file is
made from the deck's text without its rows (the round-trip parse of 7,800 cards took 2 s)."""

from __future__ import annotations

import io
import tracemalloc
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

from toolkit.content.sheets import convert
from toolkit.content.sheets.grid import Grid
from toolkit.content.sheets.workbook import read_workbook
from toolkit.content.sheets.write import _width, write_ods
from toolkit.content.source import load_document

HEADERS = ["id", "name.en", "name.fr", "cost", "ratio", "big", "flag", "off", "text", "note"]
ROWS: list[dict[str, object]] = [
    {
        "id": "a",
        "name.en": "Tom & Jerry <3>",
        "name.fr": 'l\'été "chaud"',
        "cost": 3,
        "ratio": 2.5,
        "big": 10**15,
        "flag": True,
        "off": False,
        "text": "one\ntwo\n\nfour",
        "note": "=SUM(A1)",
    },
    {"id": "b", "cost": 0, "note": "3"},
    {"name.en": "  spaced  ", "ratio": -0.125, "flag": False},
    {"id": "d", "text": "tab\there ]]> &amp; \u00e9\u4e2d\U0001f600"},
]
# what the sheet reader read back from the odfpy writer's file for HEADERS and ROWS
OLD_WRITER_READ_BACK = [
    HEADERS,
    ["a", "Tom & Jerry <3>", 'l\'été "chaud"', 3, 2.5, 10**15, True, False, "one\ntwo\n\nfour"]
    + ["=SUM(A1)"],
    ["b", None, None, 0, None, None, None, None, None, "3"],
    [None, "  spaced  ", None, None, -0.125, None, False, None, None, None],
    ["d", None, None, None, None, None, None, None, "tab\there ]]> &amp; é中😀", None],
]


def test_an_ods_reads_back_as_the_odfpy_writer_s_did(tmp_path):
    path = tmp_path / "t.ods"
    path.write_bytes(write_ods("my: deck & co", HEADERS, ROWS))
    grid = read_workbook(path, "t.ods")
    assert isinstance(grid, Grid), grid
    assert grid.sheet == "my- deck & co"
    assert [list(row) for row in grid.rows] == OLD_WRITER_READ_BACK
    types = [[type(v) for v in row] for row in grid.rows]
    assert types == [[type(v) for v in row] for row in OLD_WRITER_READ_BACK]


def test_an_ods_is_a_valid_deterministic_package():
    data = write_ods('x"<&>', HEADERS, ROWS)
    assert data == write_ods('x"<&>', HEADERS, ROWS)
    archive = zipfile.ZipFile(io.BytesIO(data))
    first = archive.infolist()[0]
    assert (first.filename, first.compress_type, first.extra) == ("mimetype", 0, b"")
    assert data[30:38] == b"mimetype"  # the name right after the first local header
    assert archive.read("mimetype") == b"application/vnd.oasis.opendocument.spreadsheet"
    assert {i.date_time for i in archive.infolist()} == {(2000, 1, 1, 0, 0, 0)}
    names = archive.namelist()
    manifest = ElementTree.fromstring(archive.read("META-INF/manifest.xml"))
    listed = {e.get(f"{{{manifest.tag[1:].split('}')[0]}}}full-path") for e in manifest}
    assert listed == {"/"} | (set(names) - {"mimetype", "META-INF/manifest.xml"})
    for name in names:
        if name.endswith(".xml"):
            ElementTree.fromstring(archive.read(name))  # well-formed
    content = archive.read("content.xml")
    widths = {_width(h, [row.get(h) for row in ROWS]) for h in HEADERS}
    assert content.count(b'style:family="table-column"') == len(widths) < len(HEADERS)
    assert b'table:style-name="ce1"' in content  # the bold header
    assert b'<table:table-cell table:number-columns-repeated="7"/>' in content
    settings = archive.read("settings.xml")
    config = "{urn:oasis:names:tc:opendocument:xmlns:config:1.0}name"
    assert 'x"<&>' in {e.get(config) for e in ElementTree.fromstring(settings).iter()}
    assert b'config:name="VerticalSplitPosition" config:type="int">1<' in settings


def test_writing_an_ods_builds_no_object_a_cell():
    headers = ["id", "name.fr", "name.es", "name.en"] + [f"k{n}" for n in range(16)]
    rows = [{h: (n if h.startswith("k") else f"c{n}") for h in headers} for n in range(2_000)]
    tracemalloc.start()
    try:
        write_ods("d", headers, rows)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10_000_000, f"{peak:,} bytes at the peak for 40,000 cells"  # odfpy: 74 MB


DECK = """\
# yaml-language-server: $schema=x
id: d  # the deck
x-p: &p {k0: 0, k1: 1}
# before the cards
cards:
  - id: c0
    params: *p  # a card's comment
  - id: c1
    params: *p
# after the cards
back: yes-text
"""


@pytest.mark.parametrize(
    "text",
    [
        DECK.replace("# before the cards\n", ""),
        "id: d\n# cards\ncards:\n- id: c0\n- id: c1\n",  # the rows last, not indented
        "{id: d, cards: [{id: c0}], back: 1}\n",
        "cards:\n  - id: c0\n    n: &n 1\nafter: *n\n",  # an anchor in the rows used after
    ],
    ids=["block", "rows-last", "flow", "anchor-in-rows"],
)
def test_the_keys_file_is_the_same_made_from_the_text_without_the_rows(tmp_path, text):
    path = tmp_path / "d.yaml"
    path.write_text(text, encoding="utf-8")
    doc, _ = load_document(path, "d.yaml")
    assert doc is not None
    assert convert._keys_text(doc.text, "cards", doc) == convert._keys_text(doc.text, "cards")


def test_the_keys_file_parses_no_card(tmp_path, monkeypatch):
    from ruamel.yaml import YAML

    path = tmp_path / "d.yaml"
    path.write_text(DECK, encoding="utf-8")
    doc, _ = load_document(path, "d.yaml")
    assert doc is not None
    parsed: list[str] = []
    load = YAML.load

    def spy(self: YAML, stream: object) -> object:
        parsed.append(str(stream))
        return load(self, stream)  # type: ignore[arg-type]

    monkeypatch.setattr(YAML, "load", spy)
    text = convert._keys_text(doc.text, "cards", doc)
    # a comment above the rows' key stays (the whole text's parse dropped it with the rows)
    assert "back: yes-text" in text and "x-p: {k0: 0, k1: 1}" in text
    assert "# before the cards" in text and "c0" not in text
    assert parsed and not any("id: c0" in p for p in parsed), parsed


def test_a_converted_deck_round_trips_through_ods(tmp_path: Path):
    src = tmp_path / "d.yaml"
    cards = "".join(
        f"  - id: c{n}\n    name: {{fr: 'é {n}', en: \"<&> {n}\"}}\n    cost: {v}\n"
        for n, v in enumerate(["1", "2.5", "true", '"3"', '"=A1"', "-0.0"])
    )
    src.write_text(f"id: d\ncards:\n{cards}", encoding="utf-8")
    there = convert.plan(src, "d.yaml", "ods")
    assert there.error is None and not there.diagnostics
    for path, body in there.files:
        path.write_bytes(body)
    back = tmp_path / "back.yaml"
    again = convert.plan(src.with_suffix(".ods"), "d.ods", "yaml", out=back)
    assert again.error is None and not again.diagnostics, again.diagnostics
    for path, body in again.files:
        path.write_bytes(body)
    before, _ = load_document(src, "d.yaml")
    after, _ = load_document(back, "back.yaml")
    assert before is not None and after is not None and before.data == after.data


def test_an_ods_of_cells_all_alike_reads_back(tmp_path):
    # a deck of aliases (the same 16 numbers on every card) zipped 154 to 1: the reader
    # refused the ODS convert wrote as a zip bomb (Y013), so it never converted back
    headers = ["id", "name.fr", "name.en"] + [f"params.k{n}" for n in range(16)]
    rows = [{"id": f"c{n}", "name.fr": "A", "name.en": "A"} for n in range(1_500)]
    for row in rows:
        row.update({f"params.k{k}": k for k in range(16)})
    path = tmp_path / "d.ods"
    path.write_bytes(write_ods("d", headers, rows))
    grid = read_workbook(path, "d.ods")
    assert isinstance(grid, Grid), grid
    assert len(grid.rows) == 1_501 and grid.rows[-1][-1] == 15
