"""Issue #33, probe 21 H2's remnant: what a content file builds by repetition (YAML aliases,
a sheet's shared strings and repeated cells) was bounded per file (`MAX_REPEATED`), so ten
small decks each just under the bound (100 kB) built 40 M characters of text, 6.7 s of
`validate` CPU, thirty 19 s. The bound is now one total over every content file a game loads,
in the order it loads them: the file that passes it is refused at the place that does (Y004
or Y013, saying the total is the game's), a later file that repeats anything is not built
(silently: its finding would say the same again), with the validate cache as without and
with any number of workers (toolkit.content.source.GameRepeats)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_hardening_probe21_amplify import _cell, _ods, _xlsx
from toolkit import forks
from toolkit.content import source, validate_cache
from toolkit.content.game import bundled_games, load_game
from toolkit.content.sheets import grid, prescan, workbook

TEXT = 3_990
"""Characters of each text a deck's aliases repeat."""


def _deck(name: str, uses: int, text: int = TEXT) -> str:
    """A deck whose first card's text is one `text`-letter string in three languages (two of
    them aliases), and whose name and the `uses` cards after it alias that text again."""
    words = ("carte joueur tresor pioche " * (text // 20 + 1))[: text - 1] + "."
    rows = [
        f"id: {name}",
        "kind: actions",
        "name: {fr: D, es: D, en: D}",
        "size: poker",
        "cards:",
        f"  - id: c0\n    text: &t {{fr: &s '{words}', es: *s, en: *s}}\n    name: *t",
    ]
    rows += [f"  - {{id: c{k}, name: *t, text: *t}}" for k in range(1, uses + 1)]
    return "\n".join(rows) + "\n"


def _repeats(uses: int, text: int = TEXT) -> int:
    """What `_deck` repeats: two aliases of the text, then `1 + 2 × uses` of the mapping (its
    three texts and its keys fr, es, en)."""
    return 2 * text + (1 + 2 * uses) * (3 * text + 6)


def _game(run_cli, folder: Path, decks: dict[str, str]) -> Path:
    """A starter game (from `playset new`) that also lists `decks` (file stem → text), in
    that order."""
    assert run_cli("new", folder.name, "--into", str(folder.parent)).exit_code == 0
    listed = ""
    for stem, text in decks.items():
        (folder / "decks" / f"{stem}.yaml").write_text(text, "utf-8")
        listed += f"    - decks/{stem}.yaml\n"
    manifest = folder / "game.yaml"
    written = manifest.read_text("utf-8")
    manifest.write_text(written.replace("    - decks/cards.yaml\n", listed, 1), "utf-8")
    return folder


def test_ten_decks_each_under_the_bound_pass_it_once_over_the_game(run_cli, tmp_path, monkeypatch):
    """Each of ten decks (10 kB each) repeats 3,995,988 characters, under the per-file bound:
    the second passes the game's, at its first alias; the eight after it are not built."""
    assert _repeats(166) == 3_995_988 < source.MAX_REPEATED
    game = _game(run_cli, tmp_path / "g", {f"d{i}": _deck(f"d{i}", 166) for i in range(10)})
    built: list[int] = []
    real = source._Builder.again

    def again(self, node, path):
        built.append(len(node.value))
        return real(self, node, path)

    monkeypatch.setattr(source._Builder, "again", again)
    loaded = load_game(game)
    found = loaded.diagnostics
    assert [d.code for d in found] == ["Y004"], [(d.code, d.message) for d in found]
    assert found[0].file.endswith("d1.yaml"), found[0]
    assert (found[0].span.line, found[0].span.col) == (7, TEXT + 34)  # `es: *s` in d1's c0
    assert "over the game's content files" in found[0].message
    assert "(3,995,988 in the files read before this one;" in found[0].message
    assert [f.doc is not None for f in loaded.decks] == [True] + [False] * 9
    # d0 whole, then each later deck stops at its first copy (was 39.9 M characters)
    assert sum(built) < source.MAX_REPEATED + 10 * TEXT, sum(built)


def test_a_file_that_repeats_nothing_still_loads_past_the_bound(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(source, "MAX_REPEATED", 10_000)
    decks = {"a": _deck("a", 0, 1_000), "b": _deck("b", 0, 1_000), "c": _deck("c", 0, 1_000)}
    decks["plain"] = _deck("plain", 0, 10).replace("es: *s, en: *s", "es: x, en: y")
    decks["plain"] = decks["plain"].replace("\n    name: *t", "\n    name: {fr: N, es: N, en: N}")
    game = _game(run_cli, tmp_path / "g", decks)
    loaded = load_game(game)
    assert [d.code for d in loaded.diagnostics] == ["Y004"], loaded.diagnostics
    assert loaded.diagnostics[0].file.endswith("b.yaml")  # a: 8,018, b: passes 10,000
    assert [f.doc is not None for f in loaded.decks] == [True, False, False, True]
    # one file alone past the bound says so as before, not as the game's
    alone = {"big": _deck("big", 5, 1_000)}
    found = load_game(_game(run_cli, tmp_path / "h", alone)).diagnostics
    assert [d.code for d in found] == ["Y004"] and "game" not in found[0].message, found


def _validate(*args: str) -> tuple[int, list[dict]]:
    from typer.testing import CliRunner

    from toolkit.cli import app

    result = CliRunner().invoke(app, ["validate", *args, "-f", "json"], catch_exceptions=False)
    return result.exit_code, json.loads(result.output)


def test_the_bound_is_passed_at_the_same_place_with_the_cache(run_cli, tmp_path, monkeypatch):
    """A parse kept between runs keeps what it repeated and is charged it when read back: a
    deck kept while under the bound, read back after a deck listed before it, is refused at
    the same alias as without the cache; the order the manifest lists decks decides."""
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    monkeypatch.setattr(source, "MAX_REPEATED", 10_000)
    game = _game(run_cli, tmp_path / "g", {"b": _deck("b", 0, 1_000)})
    manifest = game / "game.yaml"
    (game / "decks" / "a.yaml").write_text(_deck("a", 0, 1_000), "utf-8")
    text = manifest.read_text("utf-8")
    orders = [
        text,  # b alone: kept, 8,018 repeated
        text.replace("    - decks/b.yaml\n", "    - decks/a.yaml\n    - decks/b.yaml\n"),
        text.replace("    - decks/b.yaml\n", "    - decks/b.yaml\n    - decks/a.yaml\n"),
        text,
    ]
    places = []
    for order in orders:
        manifest.write_text(order, "utf-8")
        without = _validate(str(game), "--no-cache")
        for _ in range(2):  # worked out, then read back
            assert _validate(str(game)) == without
        places += [(d["file"], d["line"], d["col"]) for d in without[1] if d["code"] == "Y004"]
    assert [Path(file).name for file, _, _ in places] == ["b.yaml", "a.yaml"], places


def test_each_game_has_its_bound_with_workers(run_cli, tmp_path, monkeypatch):
    """Two games checked at once, each in a worker forked from the command: each passes its
    own bound at its own second deck, as one game after another."""
    monkeypatch.setenv("PLAYSET_WORKERS", "2")
    monkeypatch.setattr(forks, "available", lambda: True)
    monkeypatch.setattr(forks, "cores", lambda: 2)
    monkeypatch.setattr(source, "MAX_REPEATED", 10_000)
    decks = {"a": _deck("a", 0, 1_000), "b": _deck("b", 0, 1_000)}
    games = [str(_game(run_cli, tmp_path / name, decks)) for name in ("g1", "g2")]
    many = _validate(*games, "--no-cache")
    one = _validate(*games, "--no-cache", "--workers", "1")
    assert many == one
    y004 = [(Path(d["file"]).parent.parent.name, d["code"]) for d in many[1] if d["code"][0] == "Y"]
    assert y004 == [("g1", "Y004"), ("g2", "Y004")], y004


LIMIT = 10_000


def test_a_sheet_passing_the_game_s_bound_is_refused_at_its_cell(tmp_path, monkeypatch):
    """A sheet repeats what the game's files before it left: an XLSX whose shared string's
    copies pass it is refused at the cell that does, saying the total is the game's; a sheet
    read after that repeats nothing more (refused quietly); one within is charged."""
    monkeypatch.setattr(prescan, "MAX_REPEATED", LIMIT)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(_xlsx("é" * 1_000, 10, 6, True))  # 59 copies after the first
    with source.game_repeats() as repeats:
        repeats.spent = 6_000  # 4,000 left: the 5th copy (B3 is the first, G3) passes
        read = workbook.read_workbook(path, "decks/cards.xlsx")
        assert isinstance(read, grid.Refused) and not read.quiet, read
        d = read.diagnostic
        assert d.code == "Y013" and (d.span.line, d.span.col) == (3, 7), d
        assert "repeat more than 10,000 characters of text over the game's content files" in (
            d.message
        )
        assert "(6,000 in the files read before this one;" in d.message
        assert d.message.endswith("the content limit for a game"), d.message
        assert repeats.passed
        again = workbook.read_workbook(path, "decks/cards.xlsx")
        assert isinstance(again, grid.Refused) and again.quiet
    small = tmp_path / "small.xlsx"
    small.write_bytes(_xlsx("a" * 1_000, 2, 2, True))  # 3 copies after the first
    with source.game_repeats() as repeats:
        assert isinstance(workbook.read_workbook(small, "decks/small.xlsx"), grid.Grid)
        assert repeats.spent == 3_000 and not repeats.passed
    # ODS: the same cells pass the bound or not by what the files before them repeated
    xml = _ods(_cell("x") + _cell("a" * 1_000, 6))  # 5 copies after the first
    assert prescan.scan_ods(xml).too_large is None and prescan.scan_ods(xml).repeated == 5_000
    found = prescan.scan_ods(xml, before=6_000).too_large
    assert found is not None and found[:2] == (2, 2), found
    assert "(6,000 in the files read before this one;" in found[2]


def test_the_bundled_games_repeat_far_less_than_the_bound(monkeypatch):
    """What each bundled game's content files repeat in all (none is near the bound)."""
    made: list[source.GameRepeats] = []

    class Recorded(source.GameRepeats):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(source, "GameRepeats", Recorded)
    counts: dict[str, int] = {}
    aliased: dict[str, int] = {}
    for name, folder in bundled_games().items():
        made.clear()
        assert not [d for d in load_game(folder).diagnostics if d.code in ("Y004", "Y013")]
        assert len(made) == 1, "one count for all of a game's files"
        counts[name] = made[0].spent
        aliased[name] = made[0].aliased  # values built through aliases (`MAX_ALIASED`)
    assert counts and max(counts.values()) < source.MAX_REPEATED // 100, counts
    assert max(aliased.values()) < source.MAX_ALIASED // 100, aliased


@pytest.mark.parametrize("limit", [LIMIT])
def test_outside_a_game_each_file_has_its_own_bound(limit, monkeypatch):
    """A file parsed alone (an edit verified, a file converted) is bounded alone, as before."""
    monkeypatch.setattr(source, "MAX_REPEATED", limit)
    for _ in range(3):
        doc, found = source.parse_document(Path("a.yaml"), "a.yaml", _deck("a", 0, 1_000).encode())
        assert doc is not None and not found, found


def _ods_file(path: Path, rows: str) -> Path:
    """An ODS whose sheet is a header row (`id`) then the XML `rows`."""
    import io
    import zipfile

    from toolkit.content.sheets.write import write_ods

    with zipfile.ZipFile(io.BytesIO(write_ods("cards", ["id"], [{"id": "a"}]))) as base:
        members = {name: base.read(name) for name in base.namelist()}
    xml = members["content.xml"]
    after = xml.index(b"</table:table-row>") + len(b"</table:table-row>")
    members["content.xml"] = xml[:after] + rows.encode() + xml[after:]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _number(cols: int = 1) -> str:
    repeat = f' table:number-columns-repeated="{cols}"' if cols > 1 else ""
    return f'<table:table-cell office:value-type="float" office:value="1"{repeat}/>'


def _counted_and_scanned(monkeypatch, path, display: str) -> tuple[Any, Any]:
    """The sheet at `path` read with the reader's count of its cells alone (the scan's bound
    lifted), then with the scan's bound of 50 and a reader that fails if asked to build it:
    both must refuse it."""
    monkeypatch.setattr(prescan, "MAX_CELLS", 10**9, raising=False)  # the reader's count alone
    counted = workbook.read_workbook(path, display)
    assert isinstance(counted, grid.Refused), counted
    monkeypatch.setattr(prescan, "MAX_CELLS", 50, raising=False)
    import python_calamine

    def unbuilt(*args, **kwargs):
        raise AssertionError("the reader built the sheet")

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_filelike", unbuilt)
    scanned = workbook.read_workbook(path, display)
    assert isinstance(scanned, grid.Refused), scanned
    return counted, scanned


@pytest.mark.parametrize(
    "row",
    [
        f'<table:table-row table:number-rows-repeated="40">{_number(10)}</table:table-row>',
        '<table:table-row table:number-rows-repeated="30">'
        f"{_number()}<table:table-cell table:number-columns-repeated='3'/>{_number(4)}"
        "</table:table-row>",
    ],
    ids=["one cell repeated", "cells apart"],
)
def test_an_ods_past_the_filled_cells_is_refused_before_it_is_built(tmp_path, monkeypatch, row):
    """ODS/XLSX built whole before their cells were counted: a 2 kB ODS of one numeric cell
    repeated over 1,000 columns and 3,999 rows (within the rows, columns and memory limits)
    made the reader build 4 M cells (430 MB, 1 s) before the count refused the sheet at
    200,000. The scan counts them first, and refuses at the cell the count refused."""
    monkeypatch.setattr(grid, "MAX_CELLS", 50)
    path = _ods_file(tmp_path / "cards.ods", row)
    counted, scanned = _counted_and_scanned(monkeypatch, path, "decks/cards.ods")
    assert scanned.diagnostic.span == counted.diagnostic.span, (scanned, counted)
    assert "more than 50 filled cells, the content limit for a card sheet" in (
        scanned.diagnostic.message
    )


@pytest.mark.parametrize("refs", [True, False], ids=["with r", "without r"])
def test_an_xlsx_past_the_filled_cells_is_refused_before_it_is_built(tmp_path, monkeypatch, refs):
    """The same for an XLSX: 20 MB of sheet XML (100 kB zipped, at the archive's ratio bound)
    made the reader build 1.3 M cells (2 s, 160 MB) before they were counted."""
    monkeypatch.setattr(grid, "MAX_CELLS", 50)
    path = tmp_path / "cards.xlsx"
    path.write_bytes(_xlsx("a", 10, 6, refs))  # 8 cells in rows 1-2, then 7 a row
    counted, scanned = _counted_and_scanned(monkeypatch, path, "decks/cards.xlsx")
    assert (counted.diagnostic.span.line, counted.diagnostic.span.col) == (9, 1)
    assert scanned.diagnostic.span == counted.diagnostic.span, (scanned, counted)
    assert "more than 50 filled cells" in scanned.diagnostic.message


def _far_xlsx(path: Path) -> Path:
    """An XLSX of a header (A1) and one value far from it, at ALL20000."""
    import io
    import re
    import zipfile

    from toolkit.content.sheets.write import write_xlsx

    with zipfile.ZipFile(io.BytesIO(write_xlsx("cards", ["id"], []))) as base:
        members = {name: base.read(name) for name in base.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    far = b'<row r="20000"><c r="ALL20000"><v>1</v></c></row></sheetData>'
    members[sheet] = re.sub(rb"</sheetData>", far, members[sheet])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_sheet_whose_values_lie_far_apart_is_refused_before_it_is_built(
    tmp_path, monkeypatch, fmt
):
    """The reader builds every cell from A1 to the last row and column that hold something,
    empty or not: a 5 kB XLSX of two values, at A1 and ALL20000, took 1.7 s and 980 MB (an
    ODS the same), within the rows, columns and filled cells limits. Refused at the far
    value, unbuilt; a sheet spanning just `MAX_AREA` cells is read."""
    import python_calamine

    if fmt == "xlsx":
        path = _far_xlsx(tmp_path / "cards.xlsx")
    else:
        far = (
            '<table:table-row table:number-rows-repeated="19997">'
            "<table:table-cell table:number-columns-repeated='1000'/></table:table-row>"
            "<table:table-row><table:table-cell table:number-columns-repeated='999'/>"
            f"{_number()}</table:table-row>"
        )
        path = _ods_file(tmp_path / "cards.ods", far)
    real = python_calamine.CalamineWorkbook.from_filelike

    def unbuilt(*args, **kwargs):
        raise AssertionError("the reader built the sheet")

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_filelike", unbuilt)
    refused = workbook.read_workbook(path, f"decks/cards.{fmt}")
    assert isinstance(refused, grid.Refused), refused
    d = refused.diagnostic
    far = (20_000, 1_000) if fmt == "xlsx" else (19_999, 1_000)  # the ODS's row `a` after
    assert d.code == "Y013" and (d.span.line, d.span.col) == far, d
    assert "spans more than 4,000,000 cells" in d.message and "rows" not in d.message
    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_filelike", real)
    monkeypatch.setattr(prescan, "MAX_AREA", 20_000_000, raising=False)
    monkeypatch.setattr(prescan, "MAX_GAME_AREA", 40_000_000)  # two sheets at MAX_AREA
    assert isinstance(workbook.read_workbook(path, f"decks/cards.{fmt}"), grid.Grid)
