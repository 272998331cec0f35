"""Decks and question banks in a spreadsheet (CSV, XLSX, ODS): read as a YAML deck is, every
finding at its cell, converted both ways without loss, and bad sheets refused at a place."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO, copy_game, diagnostics_json
from toolkit.content.sheets import keys_file
from toolkit.content.sheets.convert import _keys_text
from toolkit.content.sheets.flatten import flatten
from toolkit.content.sheets.write import write_csv, write_ods, write_xlsx
from toolkit.content.source import load_document
from toolkit.diagnostics import Diagnostic, Span
from toolkit.diagnostics.formats import render

FORMATS = ["xlsx", "ods", "csv"]
TOKAIDO = REPO / "content" / "tokaido"


def sheet_bytes(fmt: str, name: str, headers: list[str], rows: list[dict]) -> bytes:
    if fmt == "csv":
        return write_csv(headers, rows)
    return (write_ods if fmt == "ods" else write_xlsx)(name, headers, rows)


def deck_rows(game: Path, deck: str) -> tuple[list[str], list[dict], str]:
    doc, _ = load_document(game / "decks" / f"{deck}.yaml", deck)
    assert doc is not None
    headers, rows = flatten(doc.data["cards"])
    return headers, rows, _keys_text(doc.text, "cards")


def sheet_game(tmp_path: Path, fmt: str, deck: str = "souvenirs", mutate=None) -> Path:
    """A copy of tokaido whose `deck` is a sheet of `fmt`, its cells changed by `mutate`."""
    game = copy_game(TOKAIDO, tmp_path / "tokaido")
    headers, rows, keys = deck_rows(game, deck)
    if mutate is not None:
        headers, rows = mutate(headers, rows)
    sheet = game / "decks" / f"{deck}.{fmt}"
    sheet.write_bytes(sheet_bytes(fmt, deck, headers, rows))
    keys_file(sheet).write_text(keys, encoding="utf-8")
    use_sheet(game, deck, fmt)
    return game


def use_sheet(game: Path, deck: str, fmt: str, group: str = "decks") -> None:
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert f"{group}/{deck}.yaml" in text
    manifest.write_text(text.replace(f"{group}/{deck}.yaml", f"{group}/{deck}.{fmt}"), "utf-8")
    (game / group / f"{deck}.yaml").unlink()


def findings(run_cli, game: Path) -> tuple[int, list[dict]]:
    result = run_cli("validate", str(game), "--format", "json")
    assert "Traceback" not in result.output
    return result.exit_code, diagnostics_json(result.stdout)


def column(headers: list[str], name: str) -> int:
    return headers.index(name) + 1


def sheet_of(fmt: str, deck: str = "souvenirs") -> str:
    return "" if fmt == "csv" else deck


# --- the done-when: a bundled game's decks as sheets behave as their YAML ---------------


@pytest.fixture(scope="module")
def yaml_results(tmp_path_factory):
    from typer.testing import CliRunner

    from toolkit.cli import app

    out = tmp_path_factory.mktemp("yaml")
    game = copy_game(TOKAIDO, out / "tokaido")
    runner = CliRunner()
    built = runner.invoke(
        app, ["build", str(game), "--lang", "en", "--only", "cards", "--out", str(out / "pdf")]
    )
    assert built.exit_code == 0, built.output
    sim = runner.invoke(app, ["simulate", str(game), "-n", "3", "--json", str(out / "sim.json")])
    assert sim.exit_code == 0, sim.output
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_converted_decks_validate_build_and_simulate_as_their_yaml(
    run_cli, tmp_path, fmt, yaml_results
):
    game = copy_game(TOKAIDO, tmp_path / "tokaido")
    for deck in ("souvenirs", "travellers"):
        result = run_cli("convert", str(game / "decks" / f"{deck}.yaml"), "--to", fmt)
        assert result.exit_code == 0, result.output
        use_sheet(game, deck, fmt)
    result = run_cli("validate", str(game))
    assert result.exit_code == 0, result.output
    built = run_cli(
        "build", str(game), "--lang", "en", "--only", "cards", "--out", str(tmp_path / "pdf")
    )
    assert built.exit_code == 0, built.output
    pdfs = sorted((yaml_results / "pdf").rglob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        twin = tmp_path / "pdf" / pdf.relative_to(yaml_results / "pdf")
        assert twin.read_bytes() == pdf.read_bytes(), twin
    sim = run_cli("simulate", str(game), "-n", "3", "--json", str(tmp_path / "sim.json"))
    assert sim.exit_code == 0, sim.output
    assert (tmp_path / "sim.json").read_bytes() == (yaml_results / "sim.json").read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_gives_the_yaml_data_back(run_cli, tmp_path, fmt):
    """Lists of mappings (answers), of numbers, a field that is a number on one card and a
    list on another (effect.to): all come back equal."""
    game = copy_game(REPO / "content" / "whisky-game", tmp_path / "wg")
    for rel in ("decks/specials.yaml", "questions/easy.yaml"):
        source = game / rel
        assert run_cli("convert", str(source), "--to", fmt).exit_code == 0
        sheet = source.with_suffix("." + fmt)
        back = tmp_path / f"back-{source.stem}.yaml"
        result = run_cli("convert", str(sheet), "--to", "yaml", "--out", str(back))
        assert result.exit_code == 0, result.output
        original, _ = load_document(source, "a")
        again, diags = load_document(back, "b")
        assert diags == [] and again is not None and original is not None
        assert again.data == original.data


def test_convert_writes_the_same_bytes_twice_and_refuses_to_overwrite(run_cli, tmp_path):
    game = copy_game(TOKAIDO, tmp_path / "tokaido")
    source = game / "decks" / "souvenirs.yaml"
    for fmt in ("xlsx", "ods"):
        assert run_cli("convert", str(source), "--to", fmt).exit_code == 0
        first = source.with_suffix("." + fmt).read_bytes()
        assert run_cli("convert", str(source), "--to", fmt).exit_code == 0  # same bytes: no refusal
        assert source.with_suffix("." + fmt).read_bytes() == first
    source.with_suffix(".csv").write_text("mine", encoding="utf-8")
    refused = run_cli("convert", str(source), "--to", "csv")
    assert refused.exit_code == 1 and "--force" in refused.output
    assert source.with_suffix(".csv").read_text(encoding="utf-8") == "mine"


def test_written_xlsx_has_a_frozen_bold_header_and_column_widths(tmp_path):
    from openpyxl import load_workbook

    headers, rows, _ = deck_rows(TOKAIDO, "souvenirs")
    path = tmp_path / "s.xlsx"
    path.write_bytes(write_xlsx("souvenirs", headers, rows))
    sheet = load_workbook(path).active
    assert sheet.freeze_panes == "A2"
    assert sheet["A1"].font.bold and sheet["A1"].value == "id"
    assert sheet.column_dimensions["A"].width > len("souvenir-")
    assert headers[1:4] == ["name.fr", "name.es", "name.en"]  # one column per language
    ods = write_ods("souvenirs", headers, rows)
    settings = zipfile.ZipFile(io.BytesIO(ods)).read("settings.xml").decode()
    assert 'config:name="VerticalSplitPosition"' in settings


# --- hidden mistakes, each at its cell ----------------------------------------------------


def _rename(old: str, new: str):
    def mutate(headers, rows):
        headers = [new if h == old else h for h in headers]
        rows = [{(new if k == old else k): v for k, v in row.items()} for row in rows]
        return headers, rows

    return mutate


def _set(row: int, header: str, value):
    def mutate(headers, rows):
        if value is None:
            del rows[row][header]
        else:
            rows[row][header] = value
        return headers, rows

    return mutate


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("deck", "mutate", "code", "row", "header"),
    [
        ("souvenirs", _rename("price", "pirce"), "S002", 1, "pirce"),
        ("souvenirs", _set(4, "price", "3"), "S001", 6, "price"),
        ("souvenirs", _set(2, "name.es", None), "T001", 4, "name.es"),
        ("souvenirs", _set(5, "id", "souvenir-koma"), "R003", 7, "id"),
        ("travellers", None, "R006", None, "text.en"),
    ],
    ids=["typo-header", "text-for-number", "missing-translation", "duplicate-id", "placeholder"],
)
def test_hidden_mistakes_are_reported_at_their_cell(
    run_cli, tmp_path, fmt, deck, mutate, code, row, header
):
    if mutate is None:  # a placeholder typo in the first card whose English text has one

        def mutate(headers, rows):
            for number, card in enumerate(rows):
                if "{ability.coins}" in card.get("text.en", ""):
                    card["text.en"] = card["text.en"].replace("{ability.coins}", "{ability.coin}")
                    mutate.row = number + 2
                    return headers, rows
            raise AssertionError("no placeholder to break")

    game = sheet_game(tmp_path, fmt, deck, mutate)
    headers = deck_rows(TOKAIDO, deck)[0]
    row = row or mutate.row
    col = column(headers, "price") if header == "pirce" else column(headers, header)
    code_exit, found = findings(run_cli, game)
    assert code_exit == 1
    mine = [d for d in found if d["code"] == code]
    assert mine, found
    where = {(d["file"].rsplit("/", 1)[-1], d["line"], d["col"], d.get("sheet")) for d in mine}
    assert (f"{deck}.{fmt}", row, col, sheet_of(fmt, deck)) in where, mine
    text = run_cli("validate", str(game)).stdout
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[col - 1]
    prefix = "" if fmt == "csv" else f"{deck}!"
    assert f"decks/{deck}.{fmt}:{prefix}{letters}{row}: {code}" in text


def test_a_note_in_a_notes_column_silences_a_finding_on_its_row(run_cli, tmp_path):
    def mutate(note: str):
        def change(headers, rows):
            rows[4]["price"] = "3"
            rows[4]["# notes"] = note
            return [*headers, "# notes"], rows

        return change

    game = sheet_game(tmp_path / "a", "xlsx", mutate=mutate("kept as text: playset: ignore[S001]"))
    assert findings(run_cli, game) == (0, [])
    game = sheet_game(tmp_path / "b", "xlsx", mutate=mutate("no note here"))
    code, found = findings(run_cli, game)
    assert [d["code"] for d in found] == ["S001"]


def test_sheet_places_in_every_output_format():
    d = Diagnostic(
        "decks/market.xlsx", "S001", "price should be a number", span=Span(7, 3, sheet="Market")
    )
    assert render([d], "text").startswith("decks/market.xlsx:Market!C7: S001")
    as_json = json.loads(render([d], "json"))[0]
    assert (as_json["line"], as_json["col"], as_json["sheet"], as_json["cell"]) == (
        7,
        3,
        "Market",
        "Market!C7",
    )
    assert "line=7,col=3" in render([d], "github") and "::Market!C7: price" in render([d], "github")
    result = json.loads(render([d], "sarif"))["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 7,
        "startColumn": 3,
    }
    assert result["message"]["text"].startswith("Market!C7:")
    csv = Diagnostic("d.csv", "S001", "m", span=Span(2, 28, sheet=""))
    assert render([csv], "text").startswith("d.csv:AB2: ")
    spaced = Diagnostic("d.ods", "S001", "m", span=Span(2, 1, sheet="My cards"))
    assert render([spaced], "text").startswith("d.ods:'My cards'!A2: ")


# --- reading: types as the sheet holds them -------------------------------------------------


def test_csv_with_semicolons_and_a_bom_and_text_kept_by_an_apostrophe(run_cli, tmp_path):
    game = sheet_game(tmp_path, "csv")
    sheet = game / "decks" / "souvenirs.csv"
    text = sheet.read_bytes().decode("utf-8-sig")
    assert text.startswith("id,")
    lines = [line.replace(",", ";") for line in text.split("\r\n")]
    sheet.write_bytes(("\ufeff" + "\r\n".join(lines)).encode("utf-8"))
    assert findings(run_cli, game) == (0, [])
    lines[3] = re.sub(r";1$", ";'1", lines[3])  # a price kept as text
    sheet.write_bytes("\r\n".join(lines).encode("utf-8"))
    code, found = findings(run_cli, game)
    assert [(d["code"], d["line"], d["cell"]) for d in found] == [("S001", 4, "F4")]


def test_a_formula_is_read_by_its_saved_value_and_one_without_is_a_finding(run_cli, tmp_path):
    from openpyxl import load_workbook

    game = sheet_game(tmp_path, "xlsx")
    sheet = game / "decks" / "souvenirs.xlsx"
    book = load_workbook(sheet)
    book.active["F3"] = "=1+1"  # openpyxl saves formulas without a value
    book.save(sheet)
    code, found = findings(run_cli, game)
    assert ("Y015", 3, 6) in {(d["code"], d["line"], d["col"]) for d in found}
    # the same formula with the value a spreadsheet program saves beside it reads as 2
    with zipfile.ZipFile(sheet) as zin:
        members = {m: zin.read(m) for m in zin.namelist()}
    name = "xl/worksheets/sheet1.xml"
    members[name] = re.sub(rb"(<f>1\+1</f>)<v\s*/?>(</v>)?", rb"\1<v>1</v>", members[name])
    assert b"<f>1+1</f><v>1</v>" in members[name]
    with zipfile.ZipFile(sheet, "w") as zout:
        for member, data in members.items():
            zout.writestr(member, data)
    assert findings(run_cli, game) == (0, [])


def test_an_ods_formula_without_value_is_a_finding(run_cli, tmp_path):
    game = sheet_game(tmp_path, "ods")
    sheet = game / "decks" / "souvenirs.ods"
    with zipfile.ZipFile(sheet) as zin:
        members = {m: zin.read(m) for m in zin.namelist()}
    content = members["content.xml"]
    # the second row's price (a float cell) becomes a formula without a saved value
    cells = list(
        re.finditer(
            rb'<table:table-cell office:value-type="float" office:value="1">'
            rb"<text:p>1</text:p></table:table-cell>",
            content,
        )
    )
    first = cells[0]
    members["content.xml"] = (
        content[: first.start()]
        + b'<table:table-cell table:formula="of:=1+1"/>'
        + content[first.end() :]
    )
    with zipfile.ZipFile(sheet, "w") as zout:
        for member, data in members.items():
            zout.writestr(member, data)
    code, found = findings(run_cli, game)
    assert ("Y015", 2, 6) in {(d["code"], d["line"], d["col"]) for d in found}, found


# --- bad input: a positioned finding, no traceback ------------------------------------------


def _codes(run_cli, game):
    code, found = findings(run_cli, game)
    assert code == 1
    return {(d["code"], d["line"], d["col"]) for d in found}, found


def test_a_file_that_is_no_spreadsheet_or_is_protected(run_cli, tmp_path):
    game = sheet_game(tmp_path, "xlsx")
    sheet = game / "decks" / "souvenirs.xlsx"
    sheet.write_text("id,price\nkoma,1\n", encoding="utf-8")
    codes, found = _codes(run_cli, game)
    assert {c for c, _, _ in codes} == {"Y011"} and "zip" in found[0]["message"]
    sheet.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4096))
    codes, found = _codes(run_cli, game)
    assert {c for c, _, _ in codes} == {"Y012"} and "password" in found[0]["message"]


def test_a_password_protected_ods_is_refused(run_cli, tmp_path):
    game = sheet_game(tmp_path, "ods")
    sheet = game / "decks" / "souvenirs.ods"
    members = _members(sheet)
    members["META-INF/manifest.xml"] = b'<manifest:encryption-data manifest:checksum="x"/>'
    with zipfile.ZipFile(sheet, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    codes, _ = _codes(run_cli, game)
    assert {c for c, _, _ in codes} == {"Y012"}


def test_merged_duplicate_and_repeated_headers(run_cli, tmp_path):
    from openpyxl import load_workbook

    game = sheet_game(tmp_path, "xlsx")
    sheet = game / "decks" / "souvenirs.xlsx"
    book = load_workbook(sheet)
    cards = book.active
    cards.merge_cells("B1:C1")
    cards["E1"] = "name.en"  # family's header now repeats name.en (D1)
    for col in range(1, 7):  # row 9 repeats the header
        cards.cell(row=9, column=col, value=cards.cell(row=1, column=col).value)
    book.save(sheet)
    codes, found = _codes(run_cli, game)
    assert ("Y014", 1, 2) in codes  # merged B1:C1
    assert ("Y014", 1, 5) in codes  # a second name.en
    assert ("Y014", 9, 1) in codes  # a second header row
    assert all("Traceback" not in d["message"] for d in found)


def test_200_000_empty_styled_rows_are_refused_by_their_count(run_cli, tmp_path):
    # (half a million, 19 MB of XML, are now past the game's sheet bytes first: budget59)
    game = sheet_game(tmp_path, "xlsx")
    sheet = game / "decks" / "souvenirs.xlsx"
    with zipfile.ZipFile(sheet) as zin:
        members = {m: zin.read(m) for m in zin.namelist()}
    name = "xl/worksheets/sheet1.xml"
    empty = b"".join(b'<row r="%d" s="1" customFormat="1"/>' % n for n in range(30, 200_030))
    members[name] = members[name].replace(b"</sheetData>", empty + b"</sheetData>")
    with zipfile.ZipFile(sheet, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zout:
        for member, data in members.items():
            zout.writestr(member, data)
    codes, found = _codes(run_cli, game)
    assert ("Y013", 20_005, 1) in codes, found  # the 20,001st row element (row 20,005)
    assert found[0]["sheet"] == "souvenirs" and "rows" in found[0]["message"]


def test_a_zip_bomb_is_refused_before_it_is_unpacked(run_cli, tmp_path, monkeypatch):
    import python_calamine

    game = sheet_game(tmp_path, "xlsx")
    sheet = game / "decks" / "souvenirs.xlsx"
    with zipfile.ZipFile(sheet, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/padding.bin", bytes(64 * 1024 * 1024))

    def never(*args, **kwargs):
        raise AssertionError("calamine opened a bomb")

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", never)
    codes, found = _codes(run_cli, game)
    assert {c for c, _, _ in codes} == {"Y013"} and "zip bomb" in found[0]["message"]


def test_values_repeated_a_million_times_in_an_ods_are_refused(run_cli, tmp_path):
    game = sheet_game(tmp_path, "ods")
    sheet = game / "decks" / "souvenirs.ods"
    with zipfile.ZipFile(sheet) as zin:
        members = {m: zin.read(m) for m in zin.namelist()}
    repeated = (
        b'<table:table-row table:number-rows-repeated="1000000"><table:table-cell'
        b' office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>'
    )
    members["content.xml"] = members["content.xml"].replace(
        b"</table:table>", repeated + b"</table:table>"
    )
    with zipfile.ZipFile(sheet, "w") as zout:
        for member, data in members.items():
            zout.writestr(member, data)
    codes, found = _codes(run_cli, game)
    assert ("Y013", 20_001, 1) in codes, found


def _filled(grid) -> list[tuple[int, int]]:
    """The (row, column) of each filled cell of a grid, row by row."""
    return [
        (r, c)
        for r, row in enumerate(grid.rows, start=1)
        for c, value in enumerate(row, start=1)
        if value is not None
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_filled_cells_past_the_content_limit_are_refused_at_the_cell(tmp_path, fmt, monkeypatch):
    """A sheet brings no more card values than a YAML file may hold (source.MAX_NODES): the
    refusal names the first filled cell past the limit; a sheet at the limit is read."""
    from toolkit.content.sheets import grid as grid_module
    from toolkit.content.sheets.grid import Grid, Refused
    from toolkit.content.sheets.load import read_grid

    game = sheet_game(tmp_path, fmt)
    sheet = game / "decks" / f"souvenirs.{fmt}"
    full = read_grid(sheet, "souvenirs")
    assert isinstance(full, Grid)
    cells = _filled(full)
    monkeypatch.setattr(grid_module, "MAX_CELLS", len(cells))
    assert isinstance(read_grid(sheet, "souvenirs"), Grid)
    limit = len(cells) - 40  # in a row, past its first filled cell
    monkeypatch.setattr(grid_module, "MAX_CELLS", limit)
    refused = read_grid(sheet, "souvenirs")
    assert isinstance(refused, Refused)
    d = refused.diagnostic
    assert d.code == "Y013" and (d.span.line, d.span.col) == cells[limit], d
    assert d.span.sheet == sheet_of(fmt)
    assert f"more than {limit:,} filled cells" in d.message


def test_one_ods_cell_repeated_over_200_000_places_is_refused(run_cli, tmp_path):
    """Probe 19b H2: a 13 kB ODS of one cell repeated 993 columns × 1,000 rows passed every
    reader limit and took `validate` 104 s and 1.3 GB; refused at the 200,001st filled cell."""
    from toolkit.content.sheets.grid import Grid
    from toolkit.content.sheets.load import read_grid

    game = sheet_game(tmp_path, "ods")
    sheet = game / "decks" / "souvenirs.ods"
    base = read_grid(sheet, "souvenirs")
    assert isinstance(base, Grid)
    with zipfile.ZipFile(sheet) as zin:
        members = {m: zin.read(m) for m in zin.namelist()}
    repeated = (
        b'<table:table-row table:number-rows-repeated="250"><table:table-cell'
        b' table:number-columns-repeated="900" office:value-type="float" office:value="1">'
        b"<text:p>1</text:p></table:table-cell></table:table-row>"
    )
    members["content.xml"] = members["content.xml"].replace(
        b"</table:table>", repeated + b"</table:table>"
    )
    with zipfile.ZipFile(sheet, "w") as zout:
        for member, data in members.items():
            zout.writestr(member, data)
    assert sheet.stat().st_size < 20_000
    before = 200_000 - len(_filled(base))  # the repeated cells that fit
    codes, found = _codes(run_cli, game)
    assert codes == {("Y013", len(base.rows) + 1 + before // 900, before % 900 + 1)}, found
    assert found[0]["sheet"] == "souvenirs"
    assert "more than 200,000 filled cells" in found[0]["message"]


def test_a_list_with_a_hole_and_a_value_beside_its_sub_fields(run_cli, tmp_path):
    rows_with_cards: list[int] = []

    def mutate(headers, rows):
        rows_with_cards.extend(n for n, row in enumerate(rows) if "ability.cards[2]" in row)
        del rows[rows_with_cards[0]]["ability.cards[1]"]  # a hole before the second item
        rows_with_cards.append(0)
        rows[0]["ability.cards"] = "x"  # a value beside list items (in a card without any)
        rows[0]["ability.cards[1]"] = "y"
        return [*headers, "ability.cards"], rows

    game = sheet_game(tmp_path, "csv", "travellers", mutate)
    codes, found = _codes(run_cli, game)
    rows = {line for c, line, _ in codes if c == "Y016"}
    assert rows == {rows_with_cards[0] + 2, rows_with_cards[1] + 2}, found


def test_the_keys_file_is_needed_and_holds_no_cards(run_cli, tmp_path):
    game = sheet_game(tmp_path, "csv")
    keys = game / "decks" / "souvenirs.deck.yaml"
    text = keys.read_text(encoding="utf-8")
    keys.write_text(text + "cards: []\n", encoding="utf-8")
    codes, found = _codes(run_cli, game)
    assert {c for c, _, _ in codes} == {"Y017"} and found[0]["file"].endswith("souvenirs.deck.yaml")
    keys.unlink()
    codes, found = _codes(run_cli, game)
    assert {c for c, _, _ in codes} == {"Y017"} and "souvenirs.deck.yaml" in found[0]["message"]


def test_a_keys_file_that_is_a_folder_or_a_fifo_is_said_so_at_it(run_cli, tmp_path):
    # a folder or a FIFO was said to be "no souvenirs.deck.yaml", at the sheet; a FIFO is
    # looked at, never opened (it would block)
    import os

    game = sheet_game(tmp_path, "csv")
    keys = game / "decks" / "souvenirs.deck.yaml"
    keys.unlink()
    keys.mkdir()
    codes, found = _codes(run_cli, game)
    assert codes == {("Y017", 1, 1)}, found
    assert found[0]["file"].endswith("decks/souvenirs.deck.yaml"), found
    assert (
        "souvenirs.deck.yaml beside souvenirs.csv cannot be read: it is a folder"
        in (found[0]["message"])
    )
    keys.rmdir()
    os.mkfifo(keys)
    codes, found = _codes(run_cli, game)
    assert codes == {("Y017", 1, 1)} and found[0]["file"].endswith("souvenirs.deck.yaml")
    assert "it is a FIFO, not a regular file" in found[0]["message"], found
    keys.unlink()
    keys.symlink_to("nothing.yaml")
    codes, found = _codes(run_cli, game)
    assert (
        found[0]["file"].endswith("souvenirs.deck.yaml")
        and "a link to no file" in (found[0]["message"])
    )


def test_a_deck_key_finding_points_into_the_keys_file(run_cli, tmp_path):
    game = sheet_game(tmp_path, "xlsx")
    keys = game / "decks" / "souvenirs.deck.yaml"
    keys.write_text(
        keys.read_text(encoding="utf-8").replace("size: mini", "size: 12"), encoding="utf-8"
    )
    codes, found = _codes(run_cli, game)
    wrong = [d for d in found if d["file"].endswith("souvenirs.deck.yaml")]
    assert wrong and "sheet" not in wrong[0], found


# --- LibreOffice opens what convert writes and saves it back readable ----------------------


@pytest.fixture(scope="module")
def office_profile(tmp_path_factory):
    """One LibreOffice profile for both conversions: the second starts warm."""
    return tmp_path_factory.mktemp("office-profile")


@pytest.mark.parametrize(("fmt", "other"), [("xlsx", "ods"), ("ods", "xlsx")])
def test_libreoffice_opens_a_converted_sheet_and_saves_it_back_readable(
    tmp_path, fmt, other, office_profile
):
    import shutil
    import subprocess

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    from toolkit.content.sheets.load import read_grid
    from toolkit.content.sheets.table import build

    headers, rows, _ = deck_rows(TOKAIDO, "travellers")
    expected = build(read_grid(_write(tmp_path / "t.xlsx", "xlsx", headers, rows), "t"), "t").cards
    source = _write(tmp_path / f"in.{fmt}", fmt, headers, rows)
    out = tmp_path / "saved"
    done = subprocess.run(
        [
            soffice,
            f"-env:UserInstallation={office_profile.as_uri()}",
            "--headless",
            "--convert-to",
            other,
            "--outdir",
            str(out),
            str(source),
        ],
        capture_output=True,
        timeout=180,
        check=False,
    )
    saved = out / f"in.{other}"
    assert saved.is_file(), done.stderr
    table = build(read_grid(saved, saved.name), saved.name)
    assert table.diagnostics == [] and table.cards == expected


def _write(path: Path, fmt: str, headers, rows) -> Path:
    path.write_bytes(sheet_bytes(fmt, "travellers", headers, rows))
    return path


# --- PO export and import on sheet-backed content ----------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_po_import_writes_the_cell_and_nothing_else(run_cli, tmp_path, fmt):
    import polib

    from toolkit.content.sheets.load import read_grid

    game = sheet_game(tmp_path, fmt)
    sheet = game / "decks" / "souvenirs.xlsx".replace("xlsx", fmt)
    keys = keys_file(sheet)
    po_path = tmp_path / "es.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "es", "--out", str(po_path)).exit_code == 0
    )
    po = polib.pofile(str(po_path))
    wanted = {
        "decks/souvenirs.FMT:cards[souvenir-gofu].name": 'Gofu; "ES", 3',
        "decks/souvenirs.FMT:name": "Recuerdos de viaje",
    }
    wanted = {k.replace("FMT", fmt): v for k, v in wanted.items()}
    occurrences = {}
    for entry in po:
        if entry.msgctxt in wanted:
            entry.msgstr = wanted[entry.msgctxt]
            occurrences[entry.msgctxt] = entry.occurrences[0][0]
    assert occurrences == {
        f"decks/souvenirs.{fmt}:cards[souvenir-gofu].name": f"decks/souvenirs.{fmt}",
        f"decks/souvenirs.{fmt}:name": "decks/souvenirs.deck.yaml",  # the keys file's text
    }
    po.save(str(po_path))
    before_grid = read_grid(sheet, "s")
    before_keys = keys.read_text(encoding="utf-8")
    members = _members(sheet) if fmt != "csv" else {}
    result = run_cli("i18n", "import", str(po_path), "--game", str(game))
    assert result.exit_code == 0, result.output
    assert "2 applied" in result.output
    after_grid = read_grid(sheet, "s")
    changed = {
        (r, c)
        for r, row in enumerate(after_grid.rows, start=1)
        for c, value in enumerate(row, start=1)
        if (before_grid.rows[r - 1][c - 1] if c <= len(before_grid.rows[r - 1]) else None) != value
    }
    headers = deck_rows(TOKAIDO, "souvenirs")[0]
    assert changed == {(3, column(headers, "name.es"))}
    assert after_grid.rows[2][column(headers, "name.es") - 1] == 'Gofu; "ES", 3'
    assert keys.read_text(encoding="utf-8") == before_keys.replace(
        "es: Recuerdos", "es: Recuerdos de viaje"
    )
    if members:
        after = _members(sheet)
        assert {m for m in members if members[m] != after[m]} <= {
            "xl/worksheets/sheet1.xml",
            "content.xml",
        }
    code, found = findings(run_cli, game)  # the file reads as before: no Y or S finding
    assert [d for d in found if d["code"][0] in "YS"] == []


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {m: archive.read(m) for m in archive.namelist()}


def test_the_preview_puts_a_sheet_finding_beside_its_card(tmp_path):
    from toolkit.checks import run_checks
    from toolkit.content.game import load_game
    from toolkit.preview.attach import place

    game = sheet_game(tmp_path, "xlsx", mutate=_set(5, "id", "souvenir-koma"))
    loaded = load_game(game)
    placed = place(run_checks(loaded), loaded)
    cards = [key for key, records in placed.items() if any(r["code"] == "R003" for r in records)]
    assert cards == ["card/souvenirs/souvenir-koma~2"], placed.keys()
    (record,) = placed[cards[0]]
    assert record["where"].endswith("souvenirs.xlsx:souvenirs!A7")


def test_merged_header_cells_in_an_ods(run_cli, tmp_path):
    """calamine reports no ODS merges: the sheet's XML is read for them."""
    game = sheet_game(tmp_path, "ods")
    sheet = game / "decks" / "souvenirs.ods"
    members = _members(sheet)
    header = b'table:style-name="ce1"><text:p>name.fr</text:p>'
    assert header in members["content.xml"]
    members["content.xml"] = members["content.xml"].replace(
        header,
        b'table:style-name="ce1" table:number-columns-spanned="2"><text:p>name.fr</text:p>',
        1,
    )
    with zipfile.ZipFile(sheet, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    codes, found = _codes(run_cli, game)
    assert ("Y014", 1, 2) in codes and "B1:C1" in str(found), found


@pytest.mark.parametrize("fmt", FORMATS)
def test_cell_types_survive_every_format(tmp_path, fmt):
    """Texts that look like numbers, formulas or apostrophes stay texts; lines, spaces,
    yes/no and decimals come back as written."""
    from toolkit.content.sheets.load import read_grid

    headers = ["id", "t", "n", "b", "f"]
    rows = [
        {"id": "a", "t": "line one\nline two", "n": 3, "b": True, "f": 0.25},
        {"id": "=x", "t": "  spaced ", "n": -2, "b": False, "f": 1e-7},
        {"id": "3", "t": "'quoted", "n": 0, "b": False, "f": 2.5},
        {"id": "true", "t": "1,5", "n": 10**12, "b": True, "f": -0.5},
    ]
    path = tmp_path / f"types.{fmt}"
    path.write_bytes(sheet_bytes(fmt, "types", headers, rows))
    grid = read_grid(path, path.name)
    assert grid.rows[0] == headers
    assert [dict(zip(headers, row, strict=True)) for row in grid.rows[1:]] == rows


def test_the_preview_watches_sheets_and_not_office_lock_files(tmp_path):
    from watchfiles import Change

    from toolkit.preview.watcher import ContentFilter

    watched = ContentFilter()
    for name in ("market.xlsx", "market.ods", "market.csv", "market.deck.yaml"):
        assert watched(Change.modified, str(tmp_path / "decks" / name)), name
    assert not watched(Change.modified, str(tmp_path / "decks" / ".~lock.market.xlsx#"))
