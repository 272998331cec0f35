"""The Lows of the ninth hostile-input probe of content (issue #33, /work/notes/probe9c.md):
a valid file refused, a template limit reported at 1:1 in Python's words, a huge number
printed in full."""

from __future__ import annotations

import io
import resource
import zipfile

import pytest

from tests.test_hardening_probe9_content import _xlsx


def _rewritten(tmp_path, **edits):
    """The minimal XLSX of probe 9's tests (a header, then a 5 in A2) with members rewritten
    by `edits` (member name → function of its text)."""
    base = zipfile.ZipFile(io.BytesIO(_xlsx('<row r="2"><c r="A2"><v>5</v></c></row>')))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in base.namelist():
            text = base.read(name).decode()
            archive.writestr(name, edits.get(name, lambda t: t)(text))
    path = tmp_path / "cards.xlsx"
    path.write_bytes(out.getvalue())
    return path


BOOK, RELS, SHEET = "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet1.xml"


def _single(text: str) -> str:
    return text.replace('"', "'")


@pytest.mark.parametrize(
    "edits",
    [
        # L3: calamine reads these; the scan knew only `attr="…"` and refused the file as
        # "not an XLSX workbook: it has no worksheet"
        {BOOK: _single},
        {RELS: _single},
        {BOOK: _single, RELS: _single, SHEET: _single},
        {BOOK: lambda t: t.replace('r:id="rId1"', "r:id = 'rId1'")},
        {RELS: lambda t: t.replace('Target="worksheets/', 'Target="/xl/worksheets/')},
    ],
)
def test_a_workbook_written_with_single_quotes_is_read(tmp_path, edits):
    import openpyxl

    from toolkit.content.sheets import grid, workbook

    path = _rewritten(tmp_path, **edits)
    assert openpyxl.load_workbook(path).worksheets[0]["A2"].value == 5  # a valid XLSX
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Grid), read
    assert read.sheet == "cards" and read.rows == [["id"], [5]]


@pytest.mark.parametrize(
    "far",
    [
        "<row r='20000'><c r='XFD20000'><v>1</v></c></row>",
        '<row r = "20000"><c r = "XFD20000"><v>1</v></c></row>',
        "<row r='2'><c r='a1048576'><v>1</v></c></row>",
    ],
)
def test_a_far_cell_written_with_single_quotes_is_refused_before_calamine(tmp_path, far):
    # L3, the other side: calamine reads `r='XFD20000'` as it reads `r="XFD20000"`, and
    # the scan did not see it (9.5 GB allocated before calamine said how far its sheet
    # reaches); it must hold whatever the quotes
    from toolkit.content.sheets import grid, prescan, workbook

    path = _rewritten(
        tmp_path, **{SHEET: lambda t: t.replace("</sheetData>", far + "</sheetData>")}
    )
    with zipfile.ZipFile(path) as archive:
        assert prescan.scan_xlsx(archive.read(SHEET)).too_large is not None
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    read = workbook.read_workbook(path, "decks/cards.xlsx")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # kB


def test_a_single_quoted_formula_without_value_is_still_found():
    from toolkit.content.sheets import prescan

    xml = (
        b"<sheetData><row r='2'><c r='b2'><f>1+1</f></c>"
        b"<c r='C2' t='e'><v>#N/A</v></c></row></sheetData>"
    )
    scan = prescan.scan_xlsx(xml)
    assert scan.no_value == [(2, 2)] and scan.errors == [(2, 3, "#N/A")]


@pytest.mark.parametrize("quote", ["'", '"'])
def test_an_ods_repeat_written_with_single_quotes_is_refused_before_calamine(tmp_path, quote):
    # L3 in ODS: `table:number-rows-repeated='1000000'` is a repeat to calamine, and the
    # scan saw none (calamine built the rows, then the sheet was refused for its size)
    from toolkit.content.sheets import grid, prescan, workbook
    from toolkit.content.sheets.write import write_ods

    q = quote
    with zipfile.ZipFile(io.BytesIO(write_ods("cards", ["id"], [{"id": "a"}]))) as base:
        members = {name: base.read(name) for name in base.namelist()}
    repeated = (
        f"<table:table-row table:number-rows-repeated = {q}30000{q}><table:table-cell"
        f" office:value-type={q}string{q}><text:p>x</text:p></table:table-cell></table:table-row>"
    ).encode()
    members["content.xml"] = members["content.xml"].replace(
        b"</table:table>", repeated + b"</table:table>"
    )
    assert prescan.scan_ods(members["content.xml"]).too_large == (
        20_001,
        1,
        "the sheet has values in more than 20,000 rows",
    )
    path = tmp_path / "cards.ods"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    read = workbook.read_workbook(path, "decks/cards.ods")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013"
    assert (read.diagnostic.span.line, read.diagnostic.span.col) == (20_001, 1)


def _render(source: str) -> str:
    from toolkit.render import jinja_cache

    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False)
    return sandbox.render(sandbox.template(source, "probe9-lows"), {})


@pytest.mark.parametrize(
    "expression",
    [
        "game." + "a." * 5_000 + "a",  # L1: RecursionError at 1:1
        "game." + "a." * 250 + "a",  # a SyntaxError at a line of the generated code
        "(" * 500 + "1" + ")" * 500,  # Jinja's parser recurses
        "[" * 500 + "]" * 500,
        "1" + "|abs" * 400,
        "-" * 1_000 + "1",
    ],
)
def test_an_expression_nested_too_deep_is_a_limit_at_its_line(expression):
    from toolkit.render import template_bounds

    with pytest.raises(template_bounds.TemplateLimitError, match="nests too deep") as caught:
        _render(f"a\n\nb {{{{ {expression} }}}}")
    assert caught.value.lineno == 3


def test_expressions_nested_within_the_limit_render():
    from toolkit.render import template_bounds

    depth = template_bounds.MAX_EXPRESSION_DEPTH - 5
    assert _render("{{ " + "(" * 40 + "1" + ")" * 40 + " }}") == "1"
    assert _render("{{ " + "1 + " * depth + "1 }}") == str(depth + 1)
    assert _render("{{ -1" + "|abs" * depth + " }}") == "1"


@pytest.mark.parametrize("expression", ["(1e308*10)|int", "10.0**400", "(1e308*10)|round|int"])
def test_a_number_too_large_is_a_limit_in_the_templates_words(expression):
    # L5: an OverflowError, said as Python's "cannot convert float infinity to integer"
    from toolkit.render import template_bounds
    from toolkit.render.rulebook_source import _traceback_line

    with pytest.raises(template_bounds.TemplateLimitError, match="number too large") as caught:
        _render(f"a\n\n{{{{ {expression} }}}}")
    assert _traceback_line(caught.value) == 3


@pytest.mark.parametrize(
    ("expression", "words"),
    [("game." + "a." * 5_000 + "a", "nests too deep"), ("(1e308*10)|int", "number too large")],
)
def test_a_rulebook_expression_past_a_limit_is_r010_at_its_line(
    run_cli, tmp_path, expression, words
):
    from tests.starter_games import rulebook_game

    game = rulebook_game(run_cli, tmp_path, f"# T\n\nSome text.\n\n{{{{ {expression} }}}}\n")
    result = run_cli("validate", str(game), "--no-cache", "--select", "R010")
    assert result.exit_code == 1
    assert "rulebook/en.md:5:1: R010" in result.output and words in result.output
    assert "Error:" not in result.output.replace("TemplateLimitError:", "")


def test_an_engine_message_shows_a_huge_number_shortened():
    # L2: the starter engine's E001 for `hand_size: 1e308` printed int(1e308), 309 digits
    from toolkit.sim.engines import describe

    said = describe(ValueError(f"hand_size {int(1e308)}: from 0 to the deck's 30"))
    assert said == "ValueError: hand_size 1e+308 (309 digits): from 0 to the deck's 30"
    assert describe(ValueError("2" + "5" * 49)) == "ValueError: 2.55e+49 (50 digits)"
    seed = "seed 18446744073709551616, card 7"  # numbers a designer reads stay whole
    assert describe(ValueError(seed)) == f"ValueError: {seed}"


def test_a_starter_game_with_a_huge_hand_size_says_it_shortened(tmp_path, run_cli):
    from tests.starter_games import engine_game

    game = engine_game(tmp_path)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "hand_size: 3" in text
    manifest.write_text(text.replace("hand_size: 3", "hand_size: 1e308"), encoding="utf-8")
    result = run_cli("check", str(game), "--games", "10")
    assert result.exit_code == 1 and "E001" in result.output, result.output
    assert "hand_size 1e+308 (309 digits)" in result.output
    assert "0" * 40 not in result.output


def _chain(links: int, shapes: int) -> str:
    first = (
        '<linearGradient id="g0"><stop offset="0" stop-color="red"/>'
        '<stop offset="1" stop-color="blue"/></linearGradient>'
    )
    chain = "".join(f'<linearGradient id="g{i}" href="#g{i - 1}"/>' for i in range(1, links))
    fill = f'<rect width="10" height="10" fill="url(#g{links - 1})"/>' * shapes
    return f"<defs>{first}{chain}</defs>{fill}"


def test_a_gradient_chain_is_counted_once_per_gradient(tmp_path):
    # L4: each link of an `href` chain counted the whole chain before it again: 100
    # gradients counted ~5,000 elements and the icon was refused ("more than 2,000")
    from tests.test_hardening_probe7_input import _icon
    from toolkit.render import svg_icons

    icon, icons = _icon(tmp_path, _chain(400, 20))
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert problem is None and drawn is not None


def test_a_gradient_chain_still_counts_its_elements(tmp_path):
    from tests.test_hardening_probe7_input import _icon
    from toolkit.render import svg_icons

    icon, icons = _icon(tmp_path, _chain(2_100, 1))
    drawn, problem = svg_icons.load_svg(icon, "icons/x.svg", icons, tmp_path)
    assert drawn is None and problem is not None and "2,000 elements" in problem.message
