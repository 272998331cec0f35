"""Eleventh hostile probe (issue #33), content surface: what the probe found, each test red
before its fix."""

from __future__ import annotations

import re

import pytest

from toolkit.content.models.generic_deck import GenericCard
from toolkit.render.context import localize


def test_a_cards_params_of_short_names_are_not_taken_for_a_text() -> None:
    # `params: {die: "d6"}`: short lower-case keys holding strings looked like a text by
    # language ({"en": …}), so a layout's `card.params.die` printed nothing
    card = GenericCard.model_validate(
        {"id": "rest", "name": {"en": "Rest", "fr": "Repos"}, "params": {"die": "d6", "en": "x"}}
    )
    view = localize(card, "en")
    assert view["name"] == "Rest"
    assert view["params"] == {"die": "d6", "en": "x"}
    assert view["params"].die == "d6"


@pytest.mark.parametrize("written", ["+30000", "+0030000", "&#43;30000"])
def test_an_ods_repeat_written_with_a_plus_sign_is_seen_by_the_scan(written: str) -> None:
    # calamine reads `table:number-rows-repeated="+400000"` (Rust's integer parse takes a
    # leading +) and built every cell: 400,000 rows of 50 cells, an 8 kB file, took 2.5 GB
    # in validate before the scan knew of them
    from toolkit.content.sheets import prescan

    xml = (
        f'<table:table table:name="cards"><table:table-row table:number-rows-repeated="{written}">'
        f'<table:table-cell table:number-columns-repeated="{written}" office:value-type="string">'
        "<text:p>x</text:p></table:table-cell></table:table-row></table:table>"
    ).encode()
    seen = prescan.scan_ods(xml).too_large
    assert seen is not None and seen[:2] == (20_001, 1), seen


def _ods_row(rows: int, cols: int, text: str) -> str:
    return (
        f'<table:table-row table:number-rows-repeated="{rows}"><table:table-cell'
        f' table:number-columns-repeated="{cols}" office:value-type="string"><text:p>{text}'
        "</text:p></table:table-cell></table:table-row>"
    )


@pytest.mark.parametrize(
    "tables",
    [
        # repeated cells within the row and column limits: 19,000 × 100 cells of 1,000
        # letters (a 4 kB file) passed 5 GB in calamine
        [_ods_row(19_000, 100, "a" * 1_000)],
        # one cell of 300,000,000 spaces written as one <text:s/>, three times: 3 GB
        [_ods_row(1, 3, 'a<text:s text:c="300000000"/>b')],
        # a second table is built by calamine when it opens the file, unscanned: 1.2 GB
        ["", _ods_row(400_000, 50, "x")],
    ],
    ids=["repeated cells", "spaces", "second table"],
)
def test_an_ods_that_would_be_built_too_large_is_refused_before_calamine(tables) -> None:
    from toolkit.content.sheets import prescan

    xml = b"".join(
        f'<table:table table:name="t{i}">{body}</table:table>'.encode()
        for i, body in enumerate(tables)
    )
    assert prescan.scan_ods(xml).too_large is not None


def test_an_ordinary_ods_is_not_weighed_too_large(monkeypatch) -> None:
    from toolkit.content.sheets import prescan

    # the weight in memory alone: 20,000 copies of one text are refused by MAX_REPEATED
    # (probe 21), an ordinary sheet's 20,000 texts are each written once
    monkeypatch.setattr(prescan, "MAX_REPEATED", 10**12)
    xml = f'<table:table table:name="cards">{_ods_row(2_000, 10, "a" * 1_000)}</table:table>'
    assert prescan.scan_ods(xml.encode()).too_large is None


def test_an_xlsx_whose_cells_name_a_long_shared_string_is_refused_before_calamine(
    tmp_path, monkeypatch
) -> None:
    # 30,000 cells naming one 30,000-letter shared string (a 66 kB file): calamine gave
    # each cell its own copy, 1.8 GB
    import io
    import zipfile

    from tests.sheet_maker import add_shared_string
    from toolkit.content.sheets import grid, prescan, workbook
    from toolkit.content.sheets.write import write_xlsx

    monkeypatch.setattr(prescan, "MAX_REPEATED", 10**12)  # the weight in memory alone

    with zipfile.ZipFile(io.BytesIO(write_xlsx("cards", ["id"], [{"id": "a"}]))) as base:
        members = {name: base.read(name) for name in base.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    cells = "".join(
        f'<row r="{r}">'
        + "".join(f'<c r="{c}{r}" t="s"><v>0</v></c>' for c in "ABCDEFGHIJ")
        + "</row>"
        for r in range(3, 3_003)
    )
    members[sheet] = members[sheet].replace(b"</sheetData>", cells.encode() + b"</sheetData>")
    add_shared_string(members, "a" * 30_000)
    path = tmp_path / "cards.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused), type(read)
    assert read.diagnostic.code == "Y013" and "in memory" in read.diagnostic.message


@pytest.mark.parametrize(
    "blank",
    [
        "<table:table-row table:number-rows-repeated='2'>"
        "<table:table-cell table:number-columns-repeated='3'/></table:table-row>",
        '<table:table-row table:number-rows-repeated="+2">'
        '<table:table-cell table:number-columns-repeated="+3"/></table:table-row>',
    ],
    ids=["single quotes", "plus sign"],
)
def test_an_ods_cell_edit_counts_repeats_as_the_reader_does(tmp_path, blank) -> None:
    # two blank rows written `table:number-rows-repeated='2'`: the reader (calamine) puts
    # card b at row 5, the cell editor counted the blank rows once and wrote b's
    # translation into card c's row (`i18n import` said "applied", exit 0)
    import io
    import zipfile

    from toolkit.content.sheets import edit, workbook
    from toolkit.content.sheets.write import write_ods

    rows = [{"id": k, "name.en": k.upper(), "name.fr": k + "-fr"} for k in "abc"]
    with zipfile.ZipFile(io.BytesIO(write_ods("cards", ["id", "name.en", "name.fr"], rows))) as z:
        members = {name: z.read(name) for name in z.namelist()}
    xml = members["content.xml"]
    after_header = xml.index(b"</table:table-row>") + len(b"</table:table-row>")
    members["content.xml"] = xml[:after_header] + blank.encode() + xml[after_header:]
    path = tmp_path / "cards.ods"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    before = workbook.read_workbook(path, "cards.ods")
    where = [row[0] for row in before.rows].index("b") + 1  # type: ignore[union-attr]
    path.write_bytes(edit.edit_cells(path, {(where, 3): "B-NEW"}, inside=None))
    after = workbook.read_workbook(path, "cards.ods")
    assert [row for row in after.rows if row[0]] == [  # type: ignore[union-attr]
        ["id", "name.en", "name.fr"],
        ["a", "A", "a-fr"],
        ["b", "B", "B-NEW"],
        ["c", "C", "c-fr"],
    ]


def _with_english_rulebook(game, text: str):
    """The game with `text` as its English rulebook, loaded."""
    from toolkit.content.game import load_game

    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "  rulebook:\n    en: rulebook/en.md\n",
        encoding="utf-8",
    )
    (game / "rulebook").mkdir()
    (game / "rulebook" / "en.md").write_text(text, encoding="utf-8")
    return load_game(game)


def test_a_table_row_taller_than_a_page_is_a_build_error_not_a_traceback(game) -> None:
    # validate is clean; `build` ended in reportlab's LayoutError ("Flowable <FitTable …>
    # too large on page 5"), a traceback
    from toolkit.render.artifacts import BuildError
    from toolkit.render.artifacts.rulebook import rulebook_pdf

    words = " ".join(f"word{i}" for i in range(1_000))
    loaded = _with_english_rulebook(game, f"# Rules\n\n| a | b |\n|---|---|\n| x | {words} |\n")
    with pytest.raises(BuildError, match="a table row is taller than a page"):
        rulebook_pdf(loaded, "en", "a4", 0.0)


def test_a_heading_taller_than_a_page_is_a_build_error_not_a_type_error(game, monkeypatch) -> None:
    # reportlab splits a paragraph taller than the page by making two of its class with
    # Paragraph's arguments: Heading takes others, so a 400-word heading was a TypeError.
    # MAX_HEADING (probe 53-9) refuses such a heading first; the layout's own guard is
    # tested past it
    from toolkit.render import rulebook_source
    from toolkit.render.artifacts import BuildError
    from toolkit.render.artifacts.rulebook import rulebook_pdf

    monkeypatch.setattr(rulebook_source, "MAX_HEADING", 10_000)

    words = " ".join(f"w{i}" for i in range(400))
    loaded = _with_english_rulebook(game, f"# Rules\n\n## {words}\n\nText.\n")
    with pytest.raises(BuildError, match="a heading is taller than a page"):
        rulebook_pdf(loaded, "en", "a4", 0.0)


def test_a_table_over_the_paragraph_bound_is_called_a_table() -> None:
    # R010 said "a paragraph of 55,674 characters … split it with blank lines" of a table,
    # which blank lines break
    from toolkit.render.rulebook_source import MAX_PARAGRAPH, RulebookError, _refuse_too_long

    rows = "".join(f"| v{r} | {'w ' * 20}|\n" for r in range(MAX_PARAGRAPH // 40))
    with pytest.raises(RulebookError, match="a table of .* split it into several tables"):
        _refuse_too_long(f"# Rules\n\n| a | b |\n|---|---|\n{rows}")


def test_a_free_rules_tree_of_short_keys_is_not_taken_for_a_text(game) -> None:
    # `rules: {dice: {red: d6, blu: d8}}`: the rulebook's `{{ rules.dice.red }}` was R010
    # "a str value ('') has no 'red'" (the dict read as a text by language); a text of the
    # game's languages in the tree is still one
    from toolkit.content.game import load_game
    from toolkit.render.rulebook_source import rulebook_context

    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace(
            "  target: 10\n",
            "  target: 10\n  dice: {red: d6, blu: d8}\n  motto: {fr: Allez, en: Go}\n",
        ),
        encoding="utf-8",
    )
    loaded = load_game(game)
    rules = rulebook_context(loaded, "en")["rules"]
    assert rules["dice"] == {"red": "d6", "blu": "d8"}
    assert rules["motto"] == "Go"


def test_an_xlsx_cell_edit_finds_a_cell_named_in_lower_case_out_of_order(tmp_path) -> None:
    # `<c r="D2"/><c r="c2">`: the reader (calamine) takes `c2` as C2, and the later of two
    # cells at one place; the editor looked for `C2` only, so it added a new C2 before D2,
    # which the old `c2` then hid (the translation lost, `i18n import` said "applied")
    import io
    import zipfile

    from toolkit.content.sheets import edit, workbook
    from toolkit.content.sheets.write import write_xlsx

    header = ["id", "name.en", "name.fr", "note"]
    rows = [{"id": "a", "name.en": "A", "name.fr": "a-fr", "note": "n"}]
    with zipfile.ZipFile(io.BytesIO(write_xlsx("cards", header, rows))) as z:
        members = {name: z.read(name) for name in z.namelist()}
    sheet = next(name for name in members if name.startswith("xl/worksheets/sheet"))
    xml = members[sheet].decode("utf-8")
    c2 = re.search(r'<c r="C2".*?</c>', xml)
    d2 = re.search(r'<c r="D2".*?</c>', xml)
    assert c2 and d2 and c2.end() == d2.start()
    swapped = d2.group(0) + c2.group(0).replace('r="C2"', 'r="c2"')
    members[sheet] = (xml[: c2.start()] + swapped + xml[d2.end() :]).encode("utf-8")
    path = tmp_path / "cards.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    assert workbook.read_workbook(path, "cards.xlsx").rows[1][2] == "a-fr"  # type: ignore[union-attr]
    path.write_bytes(edit.edit_cells(path, {(2, 3): "A-NEW"}, inside=None))
    assert workbook.read_workbook(path, "cards.xlsx").rows[1][2] == "A-NEW"  # type: ignore[union-attr]
