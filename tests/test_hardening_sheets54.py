"""Probe 39 H3 and M4.

H3: `convert` made a column of each leaf of a card with no bound: a 564-byte deck of nested
aliases (32,768 columns) took an ODS 38 s to write (a column style each, which odfpy's save
looks up in a list), an XLSX a traceback past column 18,278, and an XLSX past 16,384 columns
was written that no spreadsheet program opens. A deck past what a card sheet may be is now
refused before anything is written, and an ODS shares a column style per width.

M4: an XLSX's members may unpack to 100 times its size, so a 284 kB workbook held 18 M
characters of distinct text (validate: 10 s), where a YAML deck holds at most 4 MB. A sheet's
cell text is now held to the YAML file bound (Y013) before the reader builds it."""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import pytest

from toolkit.content.sheets import convert, prescan
from toolkit.content.sheets.grid import Grid, Refused
from toolkit.content.sheets.workbook import read_workbook
from toolkit.content.sheets.write import write_ods, write_xlsx

# --- H3: the columns a deck flattens to -----------------------------------------------------


def _alias_deck(levels: int) -> str:
    """A deck of one card whose `params` alias a mapping of 2**levels leaves."""
    lines = ["x-bomb:", "  l0: &l0 {a: 1, b: 2}"]
    for n in range(1, levels):
        lines.append(f"  l{n}: &l{n} {{a: *l{n - 1}, b: *l{n - 1}}}")
    lines += ["cards:", "  - id: c1", f"    params: {{p: *l{levels - 1}}}", ""]
    return "\n".join(lines)


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_convert_refuses_a_deck_wider_than_a_card_sheet_and_writes_nothing(
    run_cli, tmp_path: Path, fmt: str
):
    deck = tmp_path / "wide.yaml"
    deck.write_text(_alias_deck(11), encoding="utf-8")  # 2,048 columns of params
    result = run_cli("convert", str(deck), "--to", fmt)
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "wide.yaml" in said and "2,049 columns" in said
    assert "params alone makes 2,048" in said and "1,000" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wide.yaml"]


def test_a_deck_of_as_many_columns_as_a_sheet_may_have_converts(run_cli, tmp_path: Path):
    params = ", ".join(f"p{n:03d}: {n}" for n in range(999))  # with `id`: 1,000 columns
    deck = tmp_path / "plain.yaml"
    deck.write_text(f"cards:\n  - id: c1\n    params: {{{params}}}\n", encoding="utf-8")
    for fmt in ("xlsx", "ods"):
        result = run_cli("convert", str(deck), "--to", fmt)
        assert result.exit_code == 0, result.output
    grid = read_workbook(tmp_path / "plain.ods", "plain.ods")
    assert isinstance(grid, Grid) and len(grid.rows[0]) == 1_000
    deck.write_text(f"cards:\n  - id: c1\n    params: {{{params}, p999: 1}}\n", encoding="utf-8")
    result = run_cli("convert", str(deck), "--to", "csv")
    assert result.exit_code == 1 and "1,001 columns" in " ".join(result.output.split())


def _cards(count: int, fields: int) -> list[dict[str, object]]:
    return [{"id": f"c{n}", **{f"f{k}": k for k in range(fields)}} for n in range(count)]


def test_convert_refuses_more_cards_cells_or_area_than_a_card_sheet_holds(monkeypatch):
    monkeypatch.setattr(convert, "MAX_ROWS", 10)
    with pytest.raises(convert.NotTabular, match="10 cards, more than the 9"):
        convert._sheet_bytes("csv", "d", _cards(10, 1))
    convert._sheet_bytes("csv", "d", _cards(9, 1))
    monkeypatch.setattr(convert, "MAX_CELLS", 20)
    with pytest.raises(convert.NotTabular, match="hold 21 values"):
        convert._sheet_bytes("csv", "d", _cards(6, 2))  # 3 headers, 6 cards of 3 values
    monkeypatch.setattr(convert, "MAX_CELLS", 1_000)
    monkeypatch.setattr(convert, "MAX_AREA", 30)
    with pytest.raises(convert.NotTabular, match="6 rows by 6 columns"):
        convert._sheet_bytes("ods", "d", _cards(5, 5))
    convert._sheet_bytes("csv", "d", _cards(5, 5))  # a CSV cell takes no memory empty


def test_ods_shares_one_column_style_per_width():
    headers = [f"h{n:03d}" for n in range(300)]  # one width: one style
    data = write_ods("d", headers, [{h: 1 for h in headers}])
    content = zipfile.ZipFile(io.BytesIO(data)).read("content.xml")
    assert content.count(b'style:family="table-column"') == 1
    assert content.count(b"<table:table-column ") == 300


def test_ods_writes_a_run_of_empty_cells_as_one_cell_and_reads_back_the_same(tmp_path):
    headers = ["id"] + [f"f{n:03d}" for n in range(200)]
    rows = [{"id": f"c{n}", f"f{n:03d}": n + 1} for n in range(200)]
    data = write_ods("d", headers, rows)
    content = zipfile.ZipFile(io.BytesIO(data)).read("content.xml")
    assert content.count(b"<table:table-cell") < 5 * 201
    for name, body in (("d.ods", data), ("d.xlsx", write_xlsx("d", headers, rows))):
        (tmp_path / name).write_bytes(body)
    ods, xlsx = (read_workbook(tmp_path / n, n) for n in ("d.ods", "d.xlsx"))
    assert isinstance(ods, Grid) and isinstance(xlsx, Grid)
    assert ods.rows == xlsx.rows and ods.rows[5][5] == 5


# --- M4: the text a sheet's cells hold ------------------------------------------------------


def _texts(count: int, size: int) -> list[str]:
    """`count` distinct texts of `size` characters (hex digits: they zip about 2 to 1, so no
    archive ratio refuses them)."""
    rng = random.Random(54)
    return [rng.randbytes(size // 2).hex() for _ in range(count)]


def _deck_rows(count: int, size: int) -> tuple[list[str], list[dict[str, object]]]:
    return ["id", "text"], [
        {"id": f"c{n}", "text": text} for n, text in enumerate(_texts(count, size))
    ]


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_sheet_holding_more_text_than_a_yaml_file_may_is_refused(tmp_path, fmt):
    headers, rows = _deck_rows(1_100, 4_000)  # 4.4 M characters; 2.2 MB zipped
    write = write_xlsx if fmt == "xlsx" else write_ods
    path = tmp_path / f"cards.{fmt}"
    path.write_bytes(write("cards", headers, rows))
    refused = read_workbook(path, path.name)
    assert isinstance(refused, Refused), "the sheet was read"
    found = refused.diagnostic
    assert found.code == "Y013" and "characters of text" in found.message
    assert f"{prescan.MAX_TEXT:,}" in found.message
    headers, rows = _deck_rows(900, 4_000)  # 3.6 M characters: a YAML file holds them
    path.write_bytes(write("cards", headers, rows))
    assert isinstance(read_workbook(path, path.name), Grid)


def test_the_text_of_shared_strings_counts_with_the_sheet(tmp_path):
    from tests.sheet_maker import add_shared_string

    texts = _texts(1_100, 4_000)
    headers, rows = ["id", "text"], [{"id": "c1", "text": "x"}]
    members = {
        n: zipfile.ZipFile(io.BytesIO(write_xlsx("cards", headers, rows))).read(n)
        for n in zipfile.ZipFile(io.BytesIO(write_xlsx("cards", headers, rows))).namelist()
    }
    add_shared_string(members, texts[0])
    members["xl/sharedStrings.xml"] = members["xl/sharedStrings.xml"].replace(
        b"</sst>", b"".join(f"<si><t>{t}</t></si>".encode() for t in texts[1:]) + b"</sst>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name, body in members.items():
            book.writestr(name, body)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(out.getvalue())
    refused = read_workbook(path, path.name)
    assert isinstance(refused, Refused) and "characters of text" in refused.diagnostic.message


def test_written_text_leaves_out_markup_and_the_blanks_between_tags():
    xml = b'<?xml version="1.0"?>\n<a>\n  <b x="long attribute">x&amp;y</b>\n  <c/>\n</a>'
    assert prescan.written_text(xml) == len("x&amp;y")
    assert prescan.written_text("<t>é à</t>".encode()) == 3
