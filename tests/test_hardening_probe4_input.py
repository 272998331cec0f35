"""Fourth probe of issue 33, on the input-processing surfaces: templates, SVG icons, pictures,
PO imports, sheets and rulebook tables (findings in order of /work/probe-input.md)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from toolkit.render import jinja_cache, template_bounds

LIMIT = jinja_cache.TemplateLimitError


def _sandbox(immutable: bool = False) -> jinja_cache.CachedSandbox:
    return jinja_cache.CachedSandbox(keep_trailing_newline=False, immutable=immutable)


def _peak_refusal(source: str, immutable: bool = False) -> tuple[str, int]:
    """Render `source`, which must hit a limit: the refusal's text and the most memory
    (bytes) Python held meanwhile."""
    sandbox = _sandbox(immutable)
    template = sandbox.template(source, "probe4")
    tracemalloc.start()
    try:
        with pytest.raises(LIMIT) as raised:
            sandbox.render(template, {})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return str(raised.value), peak


MB = 1024 * 1024
UNSIZED = [
    # F1: str.join and the join filter over an iterator (map, a dict view) were not sized
    '{{ ("x"*999999).join(range(60)|map("string")) }}',
    '{{ range(60)|map("string")|join("x"*999999) }}',
    '{{ dict.fromkeys(range(60), "x")|join("x"*999999) }}',
    # F2: wordwrap's wrapstring between every two lines
    '{{ ("a\\n"*5000)|wordwrap(5, wrapstring="x"*10000) }}',
    # F3: tojson's indent before every item
    "{{ range(10)|list|tojson(indent=5000000) }}",
    '{{ range(30)|list|tojson(indent=" "*999999) }}',
]


@pytest.mark.parametrize("source", UNSIZED)
@pytest.mark.parametrize("immutable", [False, True])
def test_what_a_filter_or_join_builds_is_refused_before_it_is_built(source, immutable):
    # before: built whole (60 MB here; 1.5 GB and 100 GB asked with bigger counts), then
    # refused by the result's size check
    said, peak = _peak_refusal(source, immutable)
    assert peak < 20 * MB, f"{peak / MB:.0f} MB held before the refusal: {said}"


def test_ordinary_joins_wraps_and_json_still_work():
    sandbox = _sandbox()
    source = (
        '{{ "-".join(["a", "b"]|map("upper")) }} {{ [1, 2]|map("string")|join(",") }} '
        '{{ "a b c"|wordwrap(1, wrapstring="/") }} {{ {"k": [1]}|tojson(indent=2)|length }} '
        "{{ range(4)|sum }} {{ {'a': 1}.values()|join }}"
    )
    assert sandbox.render(sandbox.template(source, "t"), {}) == "A-B 1,2 a/b/c 22 6 1"


@pytest.mark.parametrize(
    "source",
    [
        # F14: a list or dict grown in place by a method call was never sized
        "{% set d = {} %}{% for i in range(3) %}"
        "{{ d.update(d.fromkeys(range(i * 50000, i * 50000 + 50000))) }}{% endfor %}",
        "{% set l = [] %}{% for i in range(3) %}{{ l.extend(range(50000)) }}{% endfor %}",
        '{% set l = [] %}{% for i in range(3) %}{{ l.extend(range(50000)|map("string")) }}'
        "{% endfor %}",
    ],
)
def test_a_list_or_dict_grown_in_place_stays_within_the_item_limit(source, monkeypatch):
    # the item limit, not the clock, is under test: on a loaded machine 100,000 guarded
    # items took past the 5 s render bound
    monkeypatch.setattr(template_bounds, "MAX_SECONDS", 120.0)
    sandbox = _sandbox()
    with pytest.raises(LIMIT, match="more than 100,000 items"):
        sandbox.render(sandbox.template(source, "grow"), {})


DEEP_TUPLE = (
    "{% set ns = namespace(t=()) %}{% for i in range(150) %}{% set ns.t = (ns.t,) %}"
    "{% endfor %}{% set d = {ns.t: 1} %}{{ d|length }}"
)


@pytest.mark.parametrize("immutable", [False, True])
def test_tuples_nest_no_deeper_than_the_limit(immutable):
    # F11: hashing a tuple nested 250,000 deep (a dict key) crashed the process (SIGSEGV),
    # made by literals or by `{"a": t}.items()|first` in a loop; 150 here is harmless but
    # past the limit
    sandbox = _sandbox(immutable)
    with pytest.raises(LIMIT, match="nested more than 100 deep"):
        sandbox.render(sandbox.template(DEEP_TUPLE, "deep"), {})
    # a tuple made by a filter (dict.items()) is walked, not trusted
    via_items = DEEP_TUPLE.replace("(ns.t,)", "({'k': ns.t}.items()|first,)")
    with pytest.raises(LIMIT, match="nested more than"):
        sandbox.render(sandbox.template(via_items, "items"), {})
    # and tuples no literal makes: a filter's result, a loop's item, an item read
    for made in (
        "{'k': ns.t}.items()|first",
        "({'k': ns.t}.items()|list)[0]",
        "{'k': ns.t}.items()|list|last",
    ):
        source = DEEP_TUPLE.replace("(ns.t,)", made)
        with pytest.raises(LIMIT, match="nested more than"):
            sandbox.render(sandbox.template(source, "made"), {})
    looped = DEEP_TUPLE.replace(
        "{% set ns.t = (ns.t,) %}",
        "{% for t in {'k': ns.t}.items() %}{% set ns.t = t %}{% endfor %}",
    )
    with pytest.raises(LIMIT, match="nested more than"):
        sandbox.render(sandbox.template(looped, "looped"), {})
    plain = (
        "{% for a, b in [(1, 2), (3, 4)] %}{{ a + b }}{% endfor %} {{ ((1, 2), (3,))|length }}"
        " {% set x, y = 5, 6 %}{{ x * y }}"
    )
    assert sandbox.render(sandbox.template(plain, "t"), {}) == "37 2 30"


def test_a_template_of_too_many_tokens_is_refused_before_it_is_compiled(monkeypatch):
    # F4: 340,000 `{{a}}` (1.7 MB) took 47 s and 3.4 GB to compile, before any deadline
    monkeypatch.setattr(template_bounds, "MAX_TOKENS", 1000)
    compiled: list[str] = []
    sandbox = _sandbox()
    real = sandbox.env.compile

    def compile_(*args: object, **kwargs: object) -> object:
        compiled.append("x")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sandbox.env, "compile", compile_)
    source = "intro\n\n" + "{{ a }} " * 100 + "\n" + "{{ a }} " * 400
    with pytest.raises(LIMIT, match="more than 1,000 tokens") as raised:
        sandbox.template(source, "many")
    assert raised.value.lineno == 4  # where the 1,001st token is
    assert compiled == []
    with pytest.raises(LIMIT):
        jinja_cache.parse_check(source)
    assert sandbox.render(sandbox.template("{{ a }} " * 100, "few"), {"a": 1}).count("1") == 100


def test_a_rulebook_of_too_many_tokens_is_r010(tmp_path: Path, run_cli, monkeypatch):
    root = _new_game(tmp_path, run_cli)
    (root / "rulebook" / "en.md").write_text("# Rules\n\n" + "{{ game.title }} " * 8000 + "\n")
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1
    assert "rulebook/en.md:3:" in result.output and "30,000 tokens" in result.output


def _new_game(tmp_path: Path, run_cli: Callable[..., object]) -> Path:
    result = run_cli("new", "probe", "--into", str(tmp_path))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    return tmp_path / "probe"


SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'


@pytest.mark.parametrize(
    "shape",
    [
        '<g transform="matrix(nan 0 0 nan 0 0)"><rect width="10" height="10"/></g>',
        '<g transform="scale(nan)"><rect width="10" height="10"/></g>',
        '<g transform="rotate(nan)"><rect width="10" height="10"/></g>',
    ],
)
def test_an_icon_that_would_print_nan_is_refused(tmp_path: Path, shape: str):
    # F6: reportlab writes a NaN as `nan` (`nan nan nan nan 0 0 cm`) without complaint:
    # validate was clean and the built PDF had a page no reader draws
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    path = icons / "x.svg"
    path.write_text(f"{SVG_OPEN}{shape}</svg>\n")
    icon, problem = load_svg(path, "icons/x.svg", icons)
    assert icon is None and problem is not None
    assert "not a number" in problem.message
    # a text that says "inf" or "nan" is no number
    path.write_text(f'{SVG_OPEN}<text x="1" y="20">inf nan (inf) info</text></svg>\n')
    icon, problem = load_svg(path, "icons/x.svg", icons)
    assert problem is None and icon is not None


def _png(path: Path, size: tuple[int, int], cut: bool = False) -> None:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.effect_noise(size, 60).save(out, "PNG")
    data = out.getvalue()
    path.write_bytes(data[: len(data) // 2] if cut else data)


def _with_picture(tmp_path: Path, run_cli: Callable[..., object]) -> Path:
    """A new game whose card layout prints images/art.png and whose cover is cover.png."""
    root = _new_game(tmp_path, run_cli)
    (root / "images").mkdir()
    deck = root / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: poker\nlayout: example-card"))
    layout = root / "layouts" / "example-card.yaml"
    image = '  - kind: image\n    box: {x: 5, y: 50, w: 20, h: 20}\n    path: "images/art.png"\n'
    layout.write_text(layout.read_text() + image)
    manifest = root / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  cover: images/cover.png\n")
    return root


@pytest.mark.parametrize("cut", [False, True])
def test_a_picture_too_large_or_cut_short_is_p004_in_validate(tmp_path, run_cli, monkeypatch, cut):
    # F7: a 20 kB PNG of 13000×13000 pixels took 1.9 GB and 34 s to build (layout image) or
    # 67 s (cover), validate clean; F8: a cover cut short or past Pillow's own limit was a
    # traceback or "cannot write …/output" in build, validate clean
    from toolkit.render import pictures

    monkeypatch.setattr(pictures, "MAX_PIXELS", 100 * 100)
    root = _with_picture(tmp_path, run_cli)
    size = (80, 80) if cut else (120, 120)
    for name in ("art.png", "cover.png"):
        _png(root / "images" / name, size, cut)
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1, result.output
    said = "damaged, or not a picture" if cut else "120×120 px is more than the 10,000 pixels"
    assert f"game.yaml:31:10: P004 [error] cover picture 'images/cover.png': {said}" in (
        result.output
    )
    assert f"cannot read image 'images/art.png': {said}" in result.output
    result = run_cli("build", str(root), "--no-cache", "--lang", "en", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert not list((tmp_path / "o").rglob("*.pdf"))


def test_a_picture_within_the_limits_prints(tmp_path, run_cli, monkeypatch):
    from toolkit.render import pictures

    monkeypatch.setattr(pictures, "MAX_PIXELS", 100 * 100)
    root = _with_picture(tmp_path, run_cli)
    for name in ("art.png", "cover.png"):
        _png(root / "images" / name, (100, 100))
    out = tmp_path / "o"
    result = run_cli("build", str(root), "--no-cache", "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.rglob("*.pdf")} == {"cards.pdf", "rulebook.pdf"}
    assert pictures.pixels(root / "images" / "art.png") == (100, 100)
    monkeypatch.setattr(pictures, "MAX_PIXELS", 99 * 100)
    from toolkit.content.game import load_game
    from toolkit.render.rulebook import cover_picture

    assert cover_picture(load_game(root), (595.0, 842.0)) is None  # never decoded


def _import(tmp_path: Path, run_cli, root: Path, msgstrs: dict[str, str]):
    """Export the French PO file of `root`, set the given msgstrs, import it."""
    import polib

    po_path = tmp_path / "fr.po"
    result = run_cli("i18n", "export", str(root), "--lang", "fr", "--out", str(po_path))
    assert result.exit_code == 0, result.output
    po = polib.pofile(str(po_path))
    for entry in po:
        if entry.msgctxt in msgstrs:
            entry.msgstr = msgstrs[entry.msgctxt]
    po.save(str(po_path))
    return run_cli("i18n", "import", str(po_path), "--game", str(root))


@pytest.mark.parametrize("value", ["0x10", "0o7", ".inf", ".NaN", "=", "<<", "2026-01-01"])
def test_a_msgstr_yaml_reads_as_another_type_is_written_quoted(tmp_path, run_cli, value):
    # F9: written plain, it read back as a number, a date or a special key: the edit did
    # not round-trip and every entry of the same file was refused with it
    from toolkit.content.game import load_game

    root = _new_game(tmp_path, run_cli)
    result = _import(
        tmp_path,
        run_cli,
        root,
        {
            "decks/cards.yaml:cards[treasure].name": value,
            "decks/cards.yaml:cards[rest].name": "Pause",
        },
    )
    assert result.exit_code == 0, result.output
    assert "refused" not in result.output.replace("0 refused", "")
    cards = {c.id: c for c in load_game(root).decks[0].model.cards}  # type: ignore[union-attr]
    assert cards["treasure"].name["fr"] == value
    assert cards["rest"].name["fr"] == "Pause"


@pytest.mark.parametrize(
    "tail",
    ["\n\n```\ncode", "\n\n## Nouvelle partie", "\n\n- une liste", "\n\n| a | b |\n|---|---|"],
)
def test_a_rulebook_msgstr_cannot_change_the_rulebooks_structure(tmp_path, run_cli, tail):
    # F10: a blank line and an unclosed fence in one paragraph's msgstr turned the rest of
    # fr.md into code, silently; the translation then dropped out of every later PO file
    root = _new_game(tmp_path, run_cli)
    fr = root / "rulebook" / "fr.md"
    before = fr.read_bytes()
    source = "{{ decks.cards.total }} cartes. De {{ game.players.min }} à {{ game.players.max }}."
    result = _import(tmp_path, run_cli, root, {"rulebook/en.md:components.1": source + tail})
    assert "refused rulebook/en.md:components.1: rulebook/fr.md:" in result.output
    assert "change the rulebook's structure" in result.output
    assert fr.read_bytes() == before
    # the same text on one line more applies
    result = _import(tmp_path, run_cli, root, {"rulebook/en.md:components.1": source + "\nFin."})
    assert "applied rulebook/en.md:components.1" in result.output, result.output
    assert "Fin." in fr.read_text()


def _sheet_game(tmp_path: Path, run_cli, suffix: str) -> Path:
    """A new game whose deck is a sheet (converted from its YAML)."""
    root = _new_game(tmp_path, run_cli)
    deck = root / "decks" / "cards.yaml"
    result = run_cli("convert", str(deck), "--to", suffix)
    assert result.exit_code == 0, result.output
    deck.unlink()
    manifest = root / "game.yaml"
    manifest.write_text(manifest.read_text().replace("decks/cards.yaml", f"decks/cards.{suffix}"))
    return root


def test_an_xlsx_error_cell_is_reported_not_read_as_empty(tmp_path, run_cli):
    # F12: a `copies` cell holding #DIV/0! (what a spreadsheet saves for =A/0) read as an
    # empty cell: validate clean, the card printed once
    import openpyxl

    root = _sheet_game(tmp_path, run_cli, "xlsx")
    book_path = root / "decks" / "cards.xlsx"
    book = openpyxl.load_workbook(book_path)
    book.active["H2"] = "#DIV/0!"  # openpyxl writes an error code as an error cell (t="e")
    book.save(book_path)
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "cards.xlsx:cards!H2: Y015 [error] this cell holds the spreadsheet error #DIV/0!" in (
        result.output
    )


def test_an_ods_error_cell_is_reported_not_read_as_empty(tmp_path, run_cli):
    import zipfile

    root = _sheet_game(tmp_path, run_cli, "ods")
    path = root / "decks" / "cards.ods"
    with zipfile.ZipFile(path) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    cell = b'<table:table-cell office:value-type="float" office:value="3"><text:p>3</text:p>'
    error = (
        b'<table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0"'
        b' calcext:value-type="error"><text:p>#DIV/0!</text:p>'
    )
    with zipfile.ZipFile(path, "w") as target:
        for info, data in members:
            if info.filename == "content.xml":
                assert cell in data
                data = data.replace(cell, error, 1)
            target.writestr(info, data)
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "Y015 [error] this cell holds the spreadsheet error #DIV/0!" in result.output


def _table(columns: int) -> str:
    head = "| " + " | ".join(f"c{i}" for i in range(columns)) + " |"
    rule = "|" + "|".join(":---:" if i % 2 else " - " for i in range(columns)) + "|"
    return f"{head}\n{rule}\n| " + " | ".join("v" for _ in range(columns)) + " |\n"


def test_a_table_too_wide_for_the_page_is_r010_not_a_traceback(tmp_path, run_cli):
    # F13: 40 columns and more made reportlab's "negative availWidth" traceback in build,
    # after the other languages' PDFs were written; validate was clean
    root = _new_game(tmp_path, run_cli)
    book = root / "rulebook" / "en.md"
    book.write_text(book.read_text() + "\n## Table\n\n" + _table(40))
    line = book.read_text().split("\n").index("|" + _table(40).split("\n|", 2)[1]) + 1
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1
    assert f"rulebook/en.md:{line}:1: R010 [error] a table of 40 columns" in result.output
    result = run_cli("build", str(root), "--no-cache", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    book.write_text(book.read_text().replace(_table(40), _table(20)))
    result = run_cli("build", str(root), "--no-cache", "--lang", "en", "--out", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("field", ["when", "let"])
def test_a_layout_expression_of_too_many_tokens_is_refused(tmp_path, run_cli, monkeypatch, field):
    # F15: a `when:` of 400,000 list items (an 800 kB layout) was compiled as an expression
    # with no token count: validate took 79 s and 400 MB, and was clean
    monkeypatch.setattr(template_bounds, "MAX_TOKENS", 1000)
    root = _new_game(tmp_path, run_cli)
    deck = root / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: poker\nlayout: example-card"))
    layout = root / "layouts" / "example-card.yaml"
    big = "[" + ",".join(["1"] * 2000) + "]"
    text = layout.read_text()
    if field == "when":
        text = text.replace("  - kind: box\n", f'  - kind: box\n    when: "{big}"\n', 1)
    else:
        text = text.replace("elements:\n", f'let:\n  many: "{big}"\nelements:\n', 1)
    layout.write_text(text)
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "P003" in result.output and "more than 1,000 tokens" in result.output


def test_a_layout_that_runs_out_of_time_is_not_rendered_for_every_card(
    tmp_path, run_cli, monkeypatch
):
    # F16: each card and language got its own 5 s deadline: a one-line loop made validate of
    # a three-card game take 33 s (5 s a card and language; minutes for a real deck)
    monkeypatch.setattr(template_bounds, "MAX_SECONDS", 0.3)
    monkeypatch.setattr(template_bounds, "MAX_ITERATIONS", 10**12)
    # a layout's own loop and step limits (probe 21 H6) stop this loop first: lifted, to
    # reach the deadline (as a template of heavy steps could)
    monkeypatch.setattr(template_bounds.LAYOUT, "iterations", 10**12)
    monkeypatch.setattr(template_bounds.LAYOUT, "steps", 10**12)
    from toolkit.render import layout_budget

    monkeypatch.setattr(layout_budget, "LAYOUT_BUDGET", 10**15)  # and the game's, as well
    root = _new_game(tmp_path, run_cli)
    deck = root / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: poker\nlayout: example-card"))
    layout = root / "layouts" / "example-card.yaml"
    slow = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    layout.write_text(layout.read_text().replace("{{ card.text or '' }}", slow))
    timed: list[str] = []
    real = template_bounds.TemplateTimeError.__init__

    def counted(self: Exception, *args: object) -> None:
        timed.append("x")
        real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(template_bounds.TemplateTimeError, "__init__", counted)
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1
    # each card's first language says it (the faces of the other languages, the same code,
    # are not said again since the game's layout budget)
    assert result.output.count("took longer than 0.3 s on a card already") == 2, result.output
    assert len(timed) == 1  # one render ran to the deadline, not one per card and language


def test_an_inline_executor_with_a_count_is_refused(run_cli):
    # L1: `--executor inline:5` ran one game after another and ignored the 5, silently
    result = run_cli("simulate", "drinking-heroes", "-n", "2", "--executor", "inline:5")
    assert result.exit_code != 0
    assert "--executor inline:5 (inline plays in this process: no count)" in result.output
    result = run_cli("simulate", "drinking-heroes", "-n", "2", "--executor", "inline")
    assert result.exit_code == 0, result.output


def test_a_layout_whose_texts_pass_the_token_limit_together_is_refused(
    tmp_path, run_cli, monkeypatch
):
    # each text under the limit, compiled one by one when the combined template was refused:
    # sixty such texts in a 4 MB layout cost over a minute
    monkeypatch.setattr(template_bounds, "MAX_TOKENS", 1000)
    root = _new_game(tmp_path, run_cli)
    deck = root / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: poker\nlayout: example-card"))
    layout = root / "layouts" / "example-card.yaml"
    text = "{{ card.name }} " * 100  # about 600 tokens
    extra = "".join(
        f'  - kind: text\n    box: {{x: 5, y: {60 + i}, w: -5, h: 5}}\n    text: "{text}"\n'
        "    size: {max: 8, min: 6}\n"
        for i in range(3)
    )
    layout.write_text(layout.read_text() + extra)
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "P003" in result.output and "more than 1,000 tokens" in result.output
