"""Findings of the sixth hostile-input probe (issue #33), on content parsing and rendering:
templates, fonts and SVG icons (/work/notes/probe6b.md, F1–F8)."""

from __future__ import annotations

import json
import struct
import time
import tracemalloc

import pytest

from tests.starter_games import rulebook_game as _rulebook_game
from toolkit.render import jinja_cache

LIMIT = jinja_cache.TemplateLimitError
MB = 1024 * 1024


def _render(source: str) -> str:
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False)
    return sandbox.render(sandbox.template(source, "probe6"), {})


def test_int_to_bytes_is_sized_before_it_allocates():
    # F1: `(65).to_bytes(1000000000, "big")` allocated 1 GB per card before the result's
    # size check (5.9 GB for three cards; 3,000,000,000 ran past a minute)
    tracemalloc.start()
    try:
        with pytest.raises(LIMIT, match="to_bytes"):
            _render('{{ (65).to_bytes(200000000, "big") | length }}')
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * MB, f"{peak / MB:.0f} MB held before the refusal"
    assert _render('{{ (65).to_bytes(2, "big") | length }}') == "2"


@pytest.mark.parametrize(
    "source",
    [
        '{{ ("v"*2000)|int(base=32) }}',
        '{{ (0).from_bytes(("x"*2000).encode(), "big") > 0 }}',
    ],
)
def test_a_template_builds_no_integer_too_large_to_compute_with(source):
    # F2: `|int(base=32)` of a 999,999-character text built a 5,000,000-bit integer; `//`
    # and `%` of two such took ~20 s each in C, out of the deadline's reach (six of them in
    # a rulebook: 119 s, then "clean")
    with pytest.raises(LIMIT, match="bits"):
        _render(source)


def test_ordinary_integers_still_work():
    assert _render('{{ "ff"|int(base=16) // 5 }} {{ "12"|int % 5 }} {{ 2**100 // 3 > 0 }}') == (
        "51 2 True"
    )


@pytest.mark.parametrize(
    "source",
    [
        '{{ "é".encode("punycode") }}',
        '{{ "é".encode(encoding="idna") }}',
        '{{ "a".encode().decode("punycode") }}',
        '{{ "a".encode("utf-7") }}',
    ],
)
def test_text_codecs_other_than_the_plain_ones_are_refused(source):
    # F3: punycode (and idna, which runs it) is pure Python and quadratic: 10,000 distinct
    # characters took 44.8 s, with the deadline never looked at
    started = time.monotonic()
    with pytest.raises(LIMIT, match="codec"):
        _render(source)
    assert time.monotonic() - started < 2


def test_plain_codecs_still_work():
    source = (
        '{{ "é".encode()|length }} {{ "é".encode("utf-16-le")|length }} '
        '{{ "é".encode("latin-1")|length }} {{ "é".encode("UTF8").decode("utf_8") }}'
    )
    assert _render(source) == "2 2 1 é"


def _tables(data: bytes) -> dict[str, int]:
    """A TrueType file's tables: tag → offset."""
    count = struct.unpack(">H", data[4:6])[0]
    found = {}
    for i in range(count):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        found[tag.decode()] = offset
    return found


def _fewer_glyphs(data: bytes) -> bytes:
    """maxp says 3 glyphs: the character map names glyphs the outlines do not have."""
    damaged = bytearray(data)
    struct.pack_into(">H", damaged, _tables(data)["maxp"] + 4, 3)
    return bytes(damaged)


def _no_names(data: bytes) -> bytes:
    """No family, full or PostScript name in the name table (each record renumbered)."""
    damaged = bytearray(data)
    table = _tables(data)["name"]
    for i in range(struct.unpack(">H", data[table + 2 : table + 4])[0]):
        struct.pack_into(">H", damaged, table + 6 + 12 * i + 6, 99)
    return bytes(damaged)


@pytest.mark.parametrize("damage", [_fewer_glyphs, _no_names], ids=["glyphs", "names"])
def test_a_damaged_font_is_a_p009_at_its_file_in_validate_and_no_traceback_in_build(
    run_cli, tmp_path, damage
):
    # F5: reportlab's own AttributeError on a font without names was a traceback in
    # validate and build; a character map naming missing glyphs passed validate and was an
    # IndexError traceback in build, where the subset is made
    from tests.conftest import FIXTURES, copy_game
    from tests.font_maker import make_font

    game = copy_game(FIXTURES / "base", tmp_path / "game")
    good = make_font(tmp_path / "good.ttf", "Probe Sans").read_bytes()
    (game / "fonts").mkdir()
    (game / "fonts" / "Probe.ttf").write_bytes(damage(good))
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  font: Probe Sans\n")
    result = run_cli("validate", str(game), "--format", "json")
    assert "Traceback" not in result.output
    found = [(d["code"], d["file"].removeprefix(f"{game}/")) for d in json.loads(result.stdout)]
    assert ("P009", "fonts/Probe.ttf") in found, found
    built = run_cli("build", str(game), "--out", str(tmp_path / "out"))
    assert built.exit_code == 1
    assert "Traceback" not in built.output
    assert not list((tmp_path / "out").rglob("*.pdf"))


SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' width="100" height="100" viewBox="0 0 100 100">'
)


def _clip(shapes: int, references: int) -> str:
    shape = '<rect width="50" height="50"/>'
    clipped = '<rect width="100" height="100" clip-path="url(#c)"/>'
    return (
        f'{SVG_OPEN}<defs><clipPath id="c">{shape * shapes}</clipPath></defs>\n'
        f"{clipped * references}</svg>\n"
    )


def test_clip_path_references_are_bounded_by_what_they_cost(tmp_path):
    # F6: svglib merges a clip path's shapes one at a time, re-validating the growing point
    # list: 200 shapes cost 1.2 s per reference, 1,900 about 100 s; a 60 kB icon of 1,900
    # clipped by 50 rectangles ran past 400 s (the guard counted neither)
    from toolkit.render import svg_guard

    icons = tmp_path / "icons"
    icons.mkdir()
    icon = icons / "x.svg"
    icon.write_text(_clip(1900, 50))
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None
    assert "clip" in refusal.message
    assert (refusal.line, refusal.col) == (2, 1)  # the first element that uses the clip path
    icon.write_text(_clip(300, 1))
    assert svg_guard.check(icon, icons) is not None
    icon.write_text(_clip(60, 5))  # a real clip path, used a few times
    assert svg_guard.check(icon, icons) is None


def test_a_transform_too_long_to_parse_is_refused_at_its_element(tmp_path):
    # F7: svglib rebuilds a transform's text at every `(…)` it parses: 100,000 `rotate(1)`
    # (1 MB) took 106 s in validate, then "clean"
    from toolkit.render import svg_guard

    icons = tmp_path / "icons"
    icons.mkdir()
    icon = icons / "x.svg"
    rotations = "rotate(1) " * 20000
    icon.write_text(
        f'{SVG_OPEN}\n<rect width="1" height="1"/><rect width="10" height="10"'
        f' transform="{rotations}"/></svg>\n'
    )
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None
    assert "transform" in refusal.message
    assert (refusal.line, refusal.col) == (2, 29)
    icon.write_text(f'{SVG_OPEN}<g transform="translate(5, 5) rotate(45) scale(2)"/></svg>')
    assert svg_guard.check(icon, icons) is None


def test_a_table_of_too_many_rows_is_r010_at_its_rule(run_cli, tmp_path):
    # F4: reportlab re-wraps every remaining row of a table at each page it splits: one
    # table of 16,000 one-cell rows (48 kB) took 128 s and 870 MB to build; validate clean
    from toolkit.render.rulebook_source import MAX_TABLE_ROWS

    def book(rows: int) -> str:
        return "# Rules\n\nSome text.\n\n|a|\n|-|\n" + "x|\n" * rows + "\nAfter.\n"

    game = _rulebook_game(run_cli, tmp_path, book(MAX_TABLE_ROWS + 1))
    result = run_cli("validate", str(game), "--no-cache", "--select", "R010")
    assert result.exit_code == 1
    assert f"R010 [error] a table of {MAX_TABLE_ROWS + 1:,} rows" in result.output
    assert ".md:6:1: R010" in result.output  # at its `|-|` row
    game = _rulebook_game(run_cli, tmp_path / "fine", book(MAX_TABLE_ROWS))
    result = run_cli("validate", str(game), "--no-cache", "--select", "R010")
    assert "R010" not in result.output, result.output


def test_translate_with_a_list_table_is_sized_before_it_builds():
    # a list (not a mapping) as the table was not sized: each character of the text became
    # an entry of up to 1,000,000 characters ("abc"*300000 with one such entry was killed
    # by the OOM killer)
    tracemalloc.start()
    try:
        with pytest.raises(LIMIT, match="translate"):
            _render('{{ ("abc"*20).translate(["x"*999999]*120)|length }}')
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * MB, f"{peak / MB:.0f} MB held before the refusal"
    assert _render('{{ "ab".translate(["x"]*120) }}') == "xx"
