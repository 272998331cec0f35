"""Probe 21 H2: content text amplified by repetition. One 3,990-character shared string named
by 6 cells × 10,000 rows of a 36 kB XLSX file was 60,000 card texts: `validate` ran 62 s CPU,
870 MB, and printed 190,002 findings. A YAML alias, an ODS repeated cell and an ODS run of
spaces did the same. What a file builds by repetition is bounded at load (`MAX_REPEATED`
characters, a Y004 or Y013 at the place that passes it), and the findings said once per text
are listed 50 times a file at most (toolkit.diagnostics.capped)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from tests.sheet_maker import add_shared_string
from toolkit.content import source
from toolkit.content.sheets import grid, prescan, workbook
from toolkit.content.sheets.write import write_xlsx

LIMIT = 10_000
"""`MAX_REPEATED` in these tests: the bound's logic at a small scale."""


def _yaml_deck(cards: int, text: str, header: str = "") -> bytes:
    lines = [
        "id: cards",
        "kind: actions",
        "name: {fr: Cartes, es: Cartas, en: Cards}",
        "size: poker",
        header,
        "cards:",
        f"  - id: c0\n    text: &t {{fr: '{text}', es: '{text}', en: '{text}'}}",
    ]
    lines += [f"  - id: c{n}\n    text: *t" for n in range(1, cards)]
    return ("\n".join(lines) + "\n").encode()


def test_aliases_repeating_more_text_than_the_limit_are_refused_at_the_alias(monkeypatch):
    monkeypatch.setattr(source, "MAX_REPEATED", LIMIT, raising=False)
    # each use of *t after the first repeats 3 × 1,000 characters: the 4th passes 10,000
    raw = _yaml_deck(10, "a" * 1_000)
    doc, found = source.parse_document(Path("cards.yaml"), "decks/cards.yaml", raw)
    assert doc is None and [d.code for d in found] == ["Y004"], found
    line = raw.decode().splitlines().index("  - id: c4") + 2  # its `text: *t`, 1-based
    assert (found[0].span.line, found[0].span.col) == (line, 5)
    assert "repeat more than 10,000 characters of text" in found[0].message


def test_aliases_within_the_limit_and_a_merge_key_are_counted_as_read(monkeypatch):
    monkeypatch.setattr(source, "MAX_REPEATED", LIMIT, raising=False)
    doc, found = source.parse_document(
        Path("cards.yaml"), "decks/cards.yaml", _yaml_deck(4, "a" * 1_000)
    )
    assert doc is not None and not found, found  # 3 uses × 3,000: 9,000
    # a merge key (`<<: *b`) brings its texts in as a copy; so does an aliased key
    merged = "base: &b {x: '" + "m" * 6_000 + "'}\nuse: {<<: *b}\nmore: {<<: *b}\n"
    doc, found = source.parse_document(Path("m.yaml"), "m.yaml", merged.encode())
    assert doc is None and found[0].code == "Y004" and found[0].span.line == 3, found
    keys = (
        "a:\n  ? &k "
        + "k" * 6_000
        + "\n  : 1\n"
        + "".join(f"{name}:\n  ? *k\n  : 2\n" for name in "bc")
    )
    doc, found = source.parse_document(Path("k.yaml"), "k.yaml", keys.encode())
    assert doc is None and found[0].code == "Y004", found


def _xlsx(shared: str, rows: int, cols: int, refs: bool) -> bytes:
    """A workbook whose rows after the header each name shared string 0 in `cols` cells
    (with or without their `r` references)."""
    header = [f"h{c}" for c in range(cols + 1)]
    with zipfile.ZipFile(io.BytesIO(write_xlsx("cards", header, [{"h0": "x"}]))) as base:
        members = {name: base.read(name) for name in base.namelist()}

    def ref(col: int, row: int) -> str:
        return f' r="{"ABCDEFGHIJ"[col]}{row}"' if refs else ""

    body = "".join(
        (f'<row r="{r}">' if refs else "<row>")
        + f'<c{ref(0, r)} t="inlineStr"><is><t>c{r}</t></is></c>'
        + "".join(f'<c{ref(c + 1, r)} t="s"><v>0</v></c>' for c in range(cols))
        + "</row>"
        for r in range(3, 3 + rows)
    )
    sheet = "xl/worksheets/sheet1.xml"
    members[sheet] = members[sheet].replace(b"</sheetData>", body.encode() + b"</sheetData>")
    add_shared_string(members, shared)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("refs", [True, False], ids=["with r", "without r"])
def test_an_xlsx_shared_string_named_too_often_is_refused_at_the_cell(tmp_path, monkeypatch, refs):
    monkeypatch.setattr(prescan, "MAX_REPEATED", LIMIT, raising=False)
    path = tmp_path / "cards.xlsx"
    # 6 cells a row name one 1,000-letter string: its 11th copy after the first (G4) passes
    path.write_bytes(_xlsx("é" * 1_000, 10, 6, refs))
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused), type(read)
    d = read.diagnostic
    assert d.code == "Y013" and "repeat more than 10,000 characters" in d.message, d
    assert "a shared string is copied into each cell that names it" in d.message
    assert (d.span.sheet, d.span.line, d.span.col) == ("cards", 4, 7), d.span


def test_an_xlsx_whose_shared_strings_repeat_within_the_limit_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(prescan, "MAX_REPEATED", LIMIT, raising=False)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(_xlsx("a" * 1_000, 5, 2, True))  # 9 copies after the first: 9,000
    assert isinstance(workbook.read_workbook(path, "decks/cards.xlsx"), grid.Grid)


@pytest.mark.parametrize(
    ("cells", "place"),
    [
        # written as programs write them, an index with leading zeros too: counted at once
        ('<c r="A{r}" t="s"><v>{zero}</v></c><c r="B{r}" t="s"><v>1</v></c>', (6, 1)),
        # a formula before the value: counted cell by cell
        ('<c r="A{r}" t="s"><f>X</f><v>{zero}</v></c><c r="B{r}" t="s"><v>1</v></c>', (6, 1)),
    ],
    ids=["as written", "cell by cell"],
)
def test_the_count_of_shared_strings_at_once_and_cell_by_cell_agree(monkeypatch, cells, place):
    monkeypatch.setattr(prescan, "MAX_REPEATED", LIMIT, raising=False)
    table = prescan.SharedStrings(
        [b"<sst><si><t>" + b"a" * 2_400 + b"</t></si><si><t>b</t></si></sst>"]
    )

    def sheet(rows: int) -> bytes:
        return (
            "<worksheet><sheetData>"
            + "".join(
                f'<row r="{r}">' + cells.format(r=r, zero="0" * (r % 3 + 1)) + "</row>"
                for r in range(1, rows + 1)
            )
            + "</sheetData></worksheet>"
        ).encode()

    # string 0 in rows 1 to 5: four copies after the first, 9,600 (and "b" 4): row 6's passes
    assert prescan.xlsx_built(sheet(5), table) is None
    found = prescan.xlsx_built(sheet(10), table)
    assert found is not None and found[:2] == place, found
    assert "identical cards are one row with a `copies` column" in found[2]


def _ods(cells: str, rows: int = 1) -> bytes:
    repeat = f' table:number-rows-repeated="{rows}"' if rows > 1 else ""
    return (
        '<table:table table:name="cards"><table:table-row><table:table-cell'
        ' office:value-type="string"><text:p>id</text:p></table:table-cell></table:table-row>'
        f"<table:table-row{repeat}>{cells}</table:table-row></table:table>"
    ).encode()


def _cell(text: str, cols: int = 1) -> str:
    repeat = f' table:number-columns-repeated="{cols}"' if cols > 1 else ""
    return (
        f'<table:table-cell office:value-type="string"{repeat}><text:p>{text}</text:p>'
        "</table:table-cell>"
    )


@pytest.mark.parametrize(
    ("xml", "place"),
    [
        (_ods(_cell("x") + _cell("a" * 1_000, 12)), (2, 2)),  # 11 copies after the first
        (_ods(_cell("a" * 1_000, 3), rows=4), (2, 1)),  # 12 cells: 11 copies
        (_ods(_cell('a<text:s text:c="10002"/>b')), (2, 1)),  # one cell, 10,001 spaces more
    ],
    ids=["repeated columns", "repeated rows", "spaces"],
)
def test_an_ods_cell_repeated_past_the_limit_is_refused_at_it(monkeypatch, xml, place):
    monkeypatch.setattr(prescan, "MAX_REPEATED", LIMIT, raising=False)
    found = prescan.scan_ods(xml).too_large
    assert found is not None and found[:2] == place, found
    assert "repeat more than 10,000 characters" in found[2]


def test_an_ods_cell_repeated_within_the_limit_is_not_refused(monkeypatch):
    monkeypatch.setattr(prescan, "MAX_REPEATED", LIMIT, raising=False)
    assert prescan.scan_ods(_ods(_cell("a" * 1_000, 10))).too_large is None  # 9,000
    assert prescan.scan_ods(_ods(_cell('a<text:s text:c="9000"/>b'))).too_large is None


def _flood_game(run_cli, tmp_path: Path, cards: int) -> list[dict]:
    """The T014 findings of a starter game whose deck has `cards` more cards, each of whose
    texts doubles a word."""
    assert run_cli("new", "demo", "--into", str(tmp_path)).exit_code == 0
    deck = tmp_path / "demo" / "decks" / "cards.yaml"
    extra = "".join(
        f"  - id: extra{n}\n    name: {{fr: N{n}, es: N{n}, en: N{n}}}\n"
        f"    text: {{fr: le le {n}, es: el el {n}, en: the the {n}}}\n"
        for n in range(cards)
    )
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("cards:\n", "cards:\n" + extra, 1), "utf-8")
    result = run_cli("validate", str(tmp_path / "demo"), "--format", "json", "--no-cache")
    assert "Traceback" not in result.output
    return [d for d in json.loads(result.stdout) if d["code"] == "T014"]


def test_findings_said_once_per_text_are_listed_50_times_a_file(run_cli, tmp_path):
    """A sheet of 20,000 rows naming one short shared string "le le" (65 kB) gave 120,000
    T014 lines: the first 50 of a file are listed, the 51st says how many follow."""
    found = _flood_game(run_cli, tmp_path / "a", 17)  # 51 findings: all listed
    assert len(found) == 51 and all("more T014" not in d["message"] for d in found)
    found = _flood_game(run_cli, tmp_path / "b", 30)  # 90
    assert len(found) == 51
    assert found[50]["message"].endswith(
        "; and 39 more T014 findings in this file after this one, not listed"
        " (T014 is listed 50 times a file at most)"
    )
