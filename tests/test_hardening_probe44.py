"""Issue #33, probe 44's findings (each test red before its fix). L1: a game's layouts were
kept in a process-wide memo of 256 files, so a check run over 300 decks each printing with
its own layout read every layout again in each pass (6.8 s; 990 layouts 26 s); and a layout
a deck named was read even past the folder's bound."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from toolkit.content import assets
from toolkit.render import layout
from toolkit.scaffold.new import new_game


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("p44") / "g"
    new_game(folder, "g", ["en"])
    return folder


def _game_of_own_layouts(scaffold: Path, tmp_path: Path, count: int, pad: int = 0) -> Path:
    """The scaffold's game with `count` decks, each printing with a layout of its own (of
    the standard layout's text and `pad` bytes of comment)."""
    game = Path(shutil.copytree(scaffold, tmp_path / "g", symlinks=True))
    standard = (game / "layouts" / "standard.yaml").read_text(encoding="utf-8")
    standard += ("#" * 99 + "\n") * (pad // 100)
    listed = []
    for n in range(count):
        (game / "layouts" / f"own{n:02d}.yaml").write_text(standard, encoding="utf-8")
        (game / "decks" / f"d{n:02d}.yaml").write_text(
            f"id: d{n:02d}\nkind: actions\nname: {{en: D{n}}}\nsize: poker\nlayout: own{n:02d}\n"
            f"cards:\n  - {{id: c{n:02d}, name: {{en: C{n}}}}}\n",
            encoding="utf-8",
        )
        listed.append(f"    - decks/d{n:02d}.yaml")
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    first = "    - decks/cards.yaml\n"
    text = text.replace(first, first + "\n".join(listed) + "\n")
    manifest.write_text(text, encoding="utf-8")
    return game


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the layout files parsed from now on."""
    read: list[str] = []
    real = layout.load_document

    def spy(path, *args, **kwargs):
        read.append(Path(path).stem)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(layout, "load_document", spy)
    layout.clear_layouts()
    return read


def test_a_game_may_hold_no_more_layouts_than_one_run_keeps_read():
    builtins = len(list(Path(layout.__file__).parents[2].joinpath("templates", "cards").glob("*")))
    kept_at_most_by_one_game = 2 * (assets.most_files(assets.LAYOUTS) + builtins)
    assert kept_at_most_by_one_game <= layout.MAX_KEPT_FILES


def test_each_layout_is_read_once_a_run_when_they_are_all_kept(
    tmp_path, run_cli, scaffold, monkeypatch
):
    game = _game_of_own_layouts(scaffold, tmp_path, 12)
    read = _reads(monkeypatch)
    monkeypatch.setattr(layout, "MAX_KEPT_FILES", 2 * (12 + 6))
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    assert result.exit_code == 0, result.output
    own = [name for name in read if name.startswith("own")]
    assert sorted(own) == [f"own{n:02d}" for n in range(12)]  # once each, in every pass


def test_a_layout_a_deck_names_past_the_bound_is_not_read_and_the_deck_says_why(
    tmp_path, run_cli, scaffold, monkeypatch
):
    game = _game_of_own_layouts(scaffold, tmp_path, 6)
    monkeypatch.setattr(assets, "MAX_FILES", 4)  # example-card, own00, own01, own02
    read = _reads(monkeypatch)
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = diagnostics_json(result.output)
    assert result.exit_code == 1
    unread = [d for d in found if "is not read" in d["message"] and d["code"] == "P003"]
    # the scaffold's deck prints with the game's standard.yaml, past the bound too
    assert sorted(d["file"].rsplit("/", 1)[-1] for d in unread) == [
        "cards.yaml",
        *(f"d{n:02d}.yaml" for n in range(3, 6)),
    ]
    assert all((d["line"], d["col"]) == (5, 9) for d in unread[1:]), unread
    assert "layouts/standard.yaml is not read" in unread[0]["message"]
    assert "layouts/own04.yaml is not read" in unread[2]["message"]
    assert not {"own03", "own04", "own05"} & set(read)


# --- F1: fonts whose character maps together map far more than any game prints -------------


def test_fonts_past_the_games_code_points_are_not_read(tmp_path, monkeypatch):
    # reportlab keeps an entry per code point of every face read, for the whole process: 30
    # fonts of 684 bytes, each mapping all of Unicode, took 3.9 GB
    from tests.font_maker import make_font
    from toolkit.render import game_fonts

    fonts = tmp_path / "fonts"
    fonts.mkdir()
    letters = "abcdefghijklmnopqrstuvwxyz"
    for n in range(3):
        make_font(fonts / f"f{n}.ttf", f"Family{n}", "regular", letters)
    one = game_fonts.cmap_codes((fonts / "f0.ttf").read_bytes())
    assert one >= len(letters)
    monkeypatch.setattr(game_fonts, "MAX_GAME_CODES", 2 * one)
    game_fonts._read_set.cache_clear()
    found = game_fonts.font_set(tmp_path)
    assert {family for family, _ in found.faces} == {"family0", "family1"}
    (refused,) = found.problems
    assert refused.file.endswith("f2.ttf")
    assert f"map more than {2 * one:,} code points together" in refused.message


# --- X1: merged header cells, each expanded to the sheet's last possible column -------------


def test_merged_header_ranges_are_clipped_and_bounded(monkeypatch):
    # 60,000 merges of C1:XFD4 in a 137 kB XLSX took validate 26 s (a set of 16,000 columns
    # each); a merge reaches no further than the sheet's cells, and past MAX_MERGED one
    # finding says the rest are not looked at
    from toolkit.content.sheets import table
    from toolkit.content.sheets.grid import Grid

    rows = [["id", "name.en", None], ["a", "A", None], ["b", "B", None]]
    clipped: list[int] = []

    class Columns(set):
        def update(self, *more):
            for columns in more:
                clipped.append(len(columns))
                super().update(columns)

    monkeypatch.setattr(table, "set", Columns, raising=False)
    grid = Grid("cards", rows, merged=[(1, 3, 1, 16_384)] * 5)
    read = table.build(grid, "cards.xlsx")
    assert clipped == [0] * 5  # column 3 heads no cell: nothing past the sheet is expanded
    assert [c.text for c in read.columns] == ["id", "name.en"]

    monkeypatch.setattr(table, "MAX_MERGED", 3)
    read = table.build(Grid("cards", rows, merged=[(1, 2, 1, 16_384)] * 5), "cards.xlsx")
    said = [d.message for d in read.diagnostics]
    assert len(said) == 4 and "more than 3 merged ranges" in said[-1]


# --- a GIF picture was no game file to the output's guard (icons56's note) ------------------


def test_an_output_file_may_not_replace_a_games_gif_picture(tmp_path, run_cli, scaffold):
    from toolkit.render import pictures

    game = Path(shutil.copytree(scaffold, tmp_path / "g", symlinks=True))
    (game / "art").mkdir()
    picture = game / "art" / "logo.gif"
    picture.write_bytes(b"GIF89a")
    result = run_cli("i18n", "export", str(game), "--template", "--out", str(picture))
    assert result.exit_code == 2, result.output
    assert "is the game's own file art/logo.gif" in result.output
    assert picture.read_bytes() == b"GIF89a"
    from toolkit.cli.common import GAME_FILE_SUFFIXES

    every_picture = {"." + name.lower() for name in pictures.FORMATS} | {".jpg"}
    assert every_picture <= GAME_FILE_SUFFIXES


# --- Q2: the translation commands fitted every face before they began ------------------------


def test_translation_commands_take_a_game_whose_texts_overflow(tmp_path, run_cli):
    # they print nothing, and an overflowing translation is what importing a shorter one
    # repairs: the gate refused that import (and fitted a bank of 3,000 questions, 6 s)
    game = tmp_path / "g"
    assert run_cli("new", "g", "--into", str(tmp_path), "--lang", "en,es").exit_code == 0
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    long = " ".join(["palabra"] * 400)
    deck.write_text(text.replace("es: Avanza", f"es: {long} Avanza", 1), encoding="utf-8")
    checked = run_cli("validate", str(game), "--format", "json", "--no-cache")
    assert "P001" in {d["code"] for d in diagnostics_json(checked.output)}, checked.output
    po = tmp_path / "es.po"
    exported = run_cli("i18n", "export", str(game), "--lang", "es", "--out", str(po))
    assert exported.exit_code == 0, exported.output
    assert long in po.read_text(encoding="utf-8")


# --- L2 (probe 45): 200 layout files of 1,500 elements each were allowed (20 took 20 s) -----


def test_layouts_past_the_games_layout_bytes_are_not_read(tmp_path, run_cli, scaffold, monkeypatch):
    each = assets.MAX_LAYOUT_BYTES // 3 + 1  # the third passes the bound
    game = _game_of_own_layouts(scaffold, tmp_path, 3, pad=each)
    read = _reads(monkeypatch)
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = diagnostics_json(result.output)
    assert result.exit_code == 1
    unread = [d for d in found if "is not read" in d["message"] and d["code"] == "P003"]
    # the scaffold's deck prints with its own standard.yaml, after own02 by name: unread too
    assert [d["file"].rsplit("/", 1)[-1] for d in unread] == ["cards.yaml", "d02.yaml"], found
    assert "layouts/standard.yaml is not read" in unread[0]["message"]
    assert "hold more than 524,288 bytes together" in unread[1]["message"]
    folder = [d for d in found if d["file"].endswith("layouts")]
    assert len(folder) == 1 and "keep them small" in folder[0]["message"]
    assert {"own00", "own01"} <= set(read) and "own02" not in read


# --- F3 (probe 45): the code points were counted as the spec reads a cmap, not as reportlab --


def _cmap_at(data: bytes) -> int:
    import struct

    tables = struct.unpack_from(">H", data, 4)[0]
    for i in range(tables):
        tag, _, offset, _ = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        if tag == b"cmap":
            return int(offset)
    raise AssertionError("no cmap")


def test_code_points_are_counted_in_the_subtable_reportlab_reads(tmp_path):
    # a header of (version, count) swapped, which reportlab swaps back, counted 0; so did a
    # first record pointing past the file, which reportlab never reads: 30 fonts of 684
    # bytes mapping all of Unicode went through the game's bound (3.9 GB)
    import struct

    from tests.font_maker import make_font
    from toolkit.render import game_fonts

    font = make_font(tmp_path / "f.ttf", "Family", "regular", "abcdefghij").read_bytes()
    counted = game_fonts.cmap_codes(font)
    assert counted >= 10
    cmap = _cmap_at(font)
    version, count = struct.unpack_from(">HH", font, cmap)
    assert version == 0 and count >= 2  # Noto's: a Unicode and a Windows one, or more
    swapped = bytearray(font)
    struct.pack_into(">HH", swapped, cmap, count, 0)
    assert game_fonts.cmap_codes(bytes(swapped)) == counted
    bogus = bytearray(font)
    struct.pack_into(">L", bogus, cmap + 4 + 4, 0xFFFFFF00)  # the first record's offset
    assert game_fonts.cmap_codes(bytes(bogus)) == counted  # reportlab reads the last one
    cut = bytearray(font)
    struct.pack_into(">L", cut, cmap + 4 + 8 * (count - 1) + 4, 0xFFFFFF00)  # the one it reads
    assert game_fonts.cmap_codes(bytes(cut)) > game_fonts.MAX_CODES


# --- a question bank's layouts were not checked: validate was clean, build failed -----------


def test_a_bank_naming_no_layout_is_a_finding_at_its_key(tmp_path, run_cli):
    from tests.conftest import FIXTURES, build_case

    game = build_case(FIXTURES / "base", tmp_path / "g")
    bank = game / "questions" / "bank.yaml"
    text = bank.read_text(encoding="utf-8")
    bank.write_text(text.replace("id: bank\n", "id: bank\nlayout: nosuch\n", 1), encoding="utf-8")
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = diagnostics_json(result.output)
    at = [d for d in found if d["code"] == "P003" and d["file"].endswith("questions/bank.yaml")]
    assert [(d["line"], d["col"]) for d in at] == [(3, 9)], found
    assert "no layout 'nosuch'" in at[0]["message"]


# --- F2 (probe 45): each version of a font saved stayed registered in the preview -----------


def test_a_process_reads_fonts_of_so_many_code_points_at_most(tmp_path, monkeypatch):
    # 25 saves of one 684-byte font mapping all of Unicode: the preview at 3.3 GB
    from tests.font_maker import make_font
    from toolkit.render import game_fonts

    fonts = tmp_path / "fonts"
    first = make_font(fonts / "f.ttf", "Edited", "regular", "abcdefghij")
    one = game_fonts.cmap_codes(first.read_bytes())
    monkeypatch.setattr(game_fonts, "_KEPT", {})
    monkeypatch.setattr(game_fonts, "MAX_PROCESS_CODES", 2 * one)
    read = []
    for version in range(3):  # the designer saves the font again: new bytes each time
        make_font(fonts / "f.ttf", f"Edited{version}", "regular", "abcdefghij")
        game_fonts._read_set.cache_clear()
        found = game_fonts.font_set(tmp_path)
        read.append(bool(found.faces))
        if not found.faces:
            assert "start the preview or the editor again" in found.problems[0].message
    assert read == [True, True, False]
    game_fonts._read_set.cache_clear()
    assert game_fonts.font_set(tmp_path).problems  # the same bytes: still refused


# --- F4 (probe 45): a table listed twice: the checks read the first, reportlab the last ------


def test_a_font_listing_a_table_twice_is_not_read(tmp_path):
    import struct

    from tests.font_maker import make_font
    from toolkit.render import game_fonts

    path = make_font(tmp_path / "fonts" / "f.ttf", "Twice", "regular", "abc")
    data = bytearray(path.read_bytes())
    count = struct.unpack_from(">H", data, 4)[0]
    tags = [bytes(data[12 + 16 * i : 16 + 16 * i]) for i in range(count)]
    post = tags.index(b"post")
    data[12 + 16 * post : 16 + 16 * post] = b"loca"  # `post`'s bytes listed as a second loca
    path.write_bytes(bytes(data))
    said = game_fonts.read_face(path, tmp_path.resolve())
    assert isinstance(said, str) and "lists the 'loca' table twice" in said


# --- K1 (probe 46): the elements a face prints cost nothing against the layout budget --------


def test_each_element_a_face_prints_counts_against_the_layout_budget(
    tmp_path, run_cli, scaffold, monkeypatch
):
    # one layout of 5,000 boxes on 1,000 cards: validate 79 s, clean (no template work)
    from toolkit.render import layout_budget

    game = Path(shutil.copytree(scaffold, tmp_path / "g", symlinks=True))
    boxes = "".join(
        f"  - {{kind: box, box: {{x: {n % 50}, y: {n // 50}, w: 1, h: 1}}}}\n" for n in range(60)
    )
    (game / "layouts" / "boxes.yaml").write_text(f"id: boxes\nelements:\n{boxes}", "utf-8")
    cards = "".join(f"  - {{id: c{n:02d}, name: {{en: C{n}}}}}\n" for n in range(40))
    head = "id: cards\nkind: actions\nname: {en: Cards}\nsize: poker\nlayout: boxes\n"
    (game / "decks" / "cards.yaml").write_text(f"{head}cards:\n{cards}", "utf-8")
    monkeypatch.setattr(layout_budget, "LAYOUT_BUDGET", 60 * 30)
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    stops = [d for d in diagnostics_json(result.output) if "layout work stops" in d["message"]]
    assert result.exit_code == 1 and len(stops) == 1, result.output
    assert "one for each element a face prints" in stops[0]["message"]


# --- K2 (probe 46): a sheet's texts were not counted by the work budget ----------------------


def test_a_sheets_texts_count_against_the_work_budget(tmp_path, run_cli, monkeypatch):
    # a 15.6 MB CSV of 1,300 cards of long texts counted its rows only: validate 6.6 s,
    # where the same texts in YAML were refused at 1.15 MB
    from tests.conftest import FIXTURES
    from toolkit.content import game as game_module

    game = Path(shutil.copytree(FIXTURES / "base", tmp_path / "g"))
    (game / "decks" / "cards.yaml").unlink()
    long = "mot " * 750  # 3,000 characters a text
    rows = ["id,name.fr,name.es,name.en,text.fr,text.es,text.en"]
    rows += [f"c{n},N,N,N,{long},{long},{long}" for n in range(5)]
    (game / "decks" / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (game / "decks" / "cards.deck.yaml").write_text(
        "id: cards\nkind: actions\nname: {fr: A, es: A, en: A}\nsize: poker\n", encoding="utf-8"
    )
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8").replace("decks/cards.yaml", "decks/cards.csv")
    manifest.write_text(text, encoding="utf-8")
    monkeypatch.setattr(game_module, "MAX_WORK", 300)  # 45,000 characters are 351 units
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "Y018"]
    assert len(found) == 1 and "5 cards here" in found[0]["message"], result.output
    assert found[0]["file"].rsplit("/", 1)[-1].startswith("cards.")  # the deck, not a later one


# --- K3, K4 (probe 46): each icon or image element draws its file whole, unbounded in number -


@pytest.mark.parametrize(("kind", "field"), [("icon", "icon: token"), ("image", "path: a.png")])
def test_a_layout_holds_so_many_elements_of_a_kind_that_draws_a_file(
    tmp_path, run_cli, scaffold, kind, field
):
    # 2,000 icon elements naming one icon of 1,990 circles: `export png` of one card 17.5 s
    from toolkit.render.elements import REGISTRY

    bound = REGISTRY.get(kind).most_per_layout
    assert bound is not None
    game = Path(shutil.copytree(scaffold, tmp_path / "g", symlinks=True))
    element = f"  - {{kind: {kind}, box: {{x: 1, y: 1, w: 5, h: 5}}, {field}}}\n"
    (game / "layouts" / "standard.yaml").write_text(
        "id: standard\nelements:\n" + element * (bound + 1), "utf-8"
    )
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    past = [d for d in diagnostics_json(result.output) if d["code"] == "S004"]
    assert [(d["file"].rsplit("/", 1)[-1], d["line"]) for d in past] == [
        ("standard.yaml", 3 + bound)
    ], result.output
    assert f"more than {bound} elements of kind {kind!r}" in past[0]["message"]
